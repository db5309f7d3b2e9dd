/** Why a note (or folder) was not indexed as it is, or was indexed with a remark. */
export type CollectionProblemCode =
  | "UNREADABLE"
  | "SYMLINK"
  | "TOO_LARGE"
  | "BINARY"
  | "INVALID_UTF8"
  | "FRONTMATTER"
  | "FRAGMENT_REJECTED";

/**
 * One problem of one file, with a path relative to the collection's root (and a 1-based line
 * for frontmatter). A problem never stops a sync and never removes what was indexed before.
 */
export interface CollectionProblem {
  path: string;
  line?: number;
  code: CollectionProblemCode;
  message: string;
}

/** What one sync of one collection did. */
export interface CollectionSyncReport {
  collection: string;
  /** Another process was syncing this collection: nothing was done. */
  busy?: boolean;
  /** The collection could not be synced at all (its folder is gone...): nothing was changed. */
  error?: { code: string; message: string };
  /** Notes the pattern matched and that could be read. */
  notes: number;
  added: number;
  changed: number;
  unchanged: number;
  /** Notes gone from the folder (or no longer matched), removed from the index. */
  removed: number;
  fragments: {
    /** Fragments written (new text, or new lines). */
    written: number;
    /** Of those, written with the embedding of an identical fragment already stored (no provider call). */
    reusedEmbeddings: number;
    /** Fragments deleted (their note changed, moved or went away). */
    deleted: number;
  };
  problems: CollectionProblem[];
}
