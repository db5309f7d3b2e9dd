import {
  addCollectionFor,
  listCollectionsFor,
  removeCollectionFor,
  syncCollectionsFor,
} from "../operations/collections.js";
import { defineRoute, errorResponses, json, scopeOf } from "../route-spec.js";
import {
  AddCollectionRequestSchema,
  AddCollectionResponseSchema,
  CollectionNameParamsSchema,
  CollectionsResponseSchema,
  RemoveCollectionResponseSchema,
  SyncCollectionsRequestSchema,
  SyncCollectionsResponseSchema,
} from "../wire/collections.js";

/** Collections: folders of notes indexed read-only beside memory (docs/collections.md). */
export const collectionRoutes = [
  defineRoute({
    method: "get",
    path: "/v1/collections",
    operationId: "listCollections",
    summary: "The collections in the token's namespaces, with how many notes are indexed",
    tag: "collections",
    responses: {
      200: { description: "Collections by name.", schema: CollectionsResponseSchema },
      ...errorResponses,
    },
    handler: async (input) => json({ collections: await listCollectionsFor(scopeOf(input)) }),
  }),
  defineRoute({
    method: "post",
    path: "/v1/collections",
    operationId: "addCollection",
    summary: "Add a folder of notes on the server as a collection, and index it",
    description:
      "The folder must lie inside [server].collection_roots (symlinks resolved first); without roots this route answers 403. The files are never written.",
    tag: "collections",
    body: AddCollectionRequestSchema,
    responses: {
      200: {
        description: "The collection and its first sync.",
        schema: AddCollectionResponseSchema,
      },
      ...errorResponses,
    },
    handler: async (input) => json(await addCollectionFor(input.body, scopeOf(input))),
  }),
  defineRoute({
    method: "post",
    path: "/v1/collections/sync",
    operationId: "syncCollections",
    summary:
      "Re-index changed notes and drop deleted ones (every collection the token may use, or one)",
    tag: "collections",
    body: SyncCollectionsRequestSchema,
    responses: {
      200: { description: "One report per collection.", schema: SyncCollectionsResponseSchema },
      ...errorResponses,
    },
    handler: async (input) =>
      json({ collections: await syncCollectionsFor(input.body, scopeOf(input)) }),
  }),
  defineRoute({
    method: "delete",
    path: "/v1/collections/{name}",
    operationId: "removeCollection",
    summary: "Remove a collection's index (its files are never touched)",
    tag: "collections",
    params: CollectionNameParamsSchema,
    responses: {
      200: {
        description: "How many fragments left the index.",
        schema: RemoveCollectionResponseSchema,
      },
      ...errorResponses,
    },
    handler: async (input) => json(await removeCollectionFor(input.params.name, scopeOf(input))),
  }),
];
