import type { EntryRelation, ImportRejection, RelationUpsert, WriteResult } from "@memory/api";
import type { FacadeContext } from "../facade-context.js";

interface PendingRelation {
  /** Position of the entry that carried it in the import's input. */
  index: number;
  upsert: RelationUpsert;
}

/** Edges retried at the end per write batch. */
const DEFERRED_BATCH = 5000;

/**
 * The relations an import carries (export format 2: each entry's outgoing edges). Each batch
 * writes the edges of its entries with them; an edge whose target comes later in the input (an
 * export is oldest first, so an edge to a newer entry) is kept aside and written once the whole
 * input is in. What still has no target then is rejected. Only the edges kept aside stay in
 * memory, not the entries.
 */
export class ImportRelations {
  readonly #supported: boolean;
  #batch: PendingRelation[] = [];
  #deferred: PendingRelation[] = [];
  imported = 0;
  readonly rejected: ImportRejection[] = [];
  #seen = false;

  constructor(context: FacadeContext) {
    this.#supported =
      context.driver.capabilities.relations === true && context.driver.relations !== undefined;
  }

  /** The entry at `index` (`namespace`, `from`) carries `relations`, dated `now` unless they say. */
  add(
    index: number,
    namespace: string,
    from: string,
    relations: readonly EntryRelation[],
    now: string,
  ): void {
    if (relations.length === 0) return;
    this.#seen = true;
    for (const item of relations) {
      if (!this.#supported) {
        this.rejected.push({
          index,
          key: from,
          code: "UNSUPPORTED",
          message: `relation ${from} -> ${item.to} (${item.type}) not imported: this backend does not store relations (capabilities.relations is false).`,
        });
        continue;
      }
      const relation = {
        namespace,
        from,
        to: item.to,
        type: item.type,
        weight: item.weight,
        createdAt: item.createdAt ?? item.updatedAt ?? now,
        updatedAt: item.updatedAt ?? now,
        ...(item.metadata === undefined ? {} : { metadata: item.metadata }),
      };
      this.#batch.push({
        index,
        upsert: { relation, replaceCreatedAt: item.createdAt !== undefined },
      });
    }
  }

  /** The edges to write with the current batch of entries. */
  take(): RelationUpsert[] {
    return this.#batch.map((item) => item.upsert);
  }

  /** After the batch: the edges the driver could not write yet wait for the end. */
  settle(result: WriteResult): void {
    this.#batch.forEach((item, position) => {
      if (result.related?.[position]) this.imported++;
      else this.#deferred.push(item);
    });
    this.#batch = [];
  }

  /** Writes the edges kept aside; rejects those whose entries never came. */
  async finish(context: FacadeContext): Promise<void> {
    for (let at = 0; at < this.#deferred.length; at += DEFERRED_BATCH) {
      const slice = this.#deferred.slice(at, at + DEFERRED_BATCH);
      context.assertOpen();
      const result = await context.driver.write({
        upserts: [],
        supersessions: [],
        deletes: [],
        relations: slice.map((item) => item.upsert),
      });
      slice.forEach((item, position) => {
        if (result.related?.[position]) {
          this.imported++;
          return;
        }
        const { relation } = item.upsert;
        this.rejected.push({
          index: item.index,
          key: relation.from,
          code: "NOT_FOUND",
          message: `relation ${relation.from} -> ${relation.to} (${relation.type}) not imported: "${relation.to}" is neither in the import nor in namespace "${relation.namespace}"; import or store it, then import again.`,
        });
      });
    }
    this.#deferred = [];
  }

  /** The report's `relations` part, or undefined when the input carried none. */
  report(): { imported: number; rejected: ImportRejection[] } | undefined {
    if (!this.#seen) return undefined;
    return { imported: this.imported, rejected: this.rejected.sort((a, b) => a.index - b.index) };
  }
}
