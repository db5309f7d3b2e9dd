import { changeTokenSql, changeTriggerSql } from "../change-token.js";
import type { Migration } from "./migration.js";

/**
 * Schema 5: the change token of the recall cache (`recall_cache_size`,
 * `recall_cache_ttl_seconds`): a sequence bumped by a statement trigger on every table recall
 * reads, and `change_token()` (see change-token.ts). `memory_vectors` exists only once a
 * provider was used; when it is created later, `openVectorStore` adds its trigger.
 */
export const changeToken: Migration = {
  version: 5,
  name: "recall cache change token",
  up: (s) => `
    ${changeTokenSql(s)}
    DO $do$ BEGIN
      IF to_regclass('${s}.memory_vectors') IS NOT NULL THEN
        EXECUTE $sql$ ${changeTriggerSql(s, "memory_vectors")} $sql$;
      END IF;
    END $do$;
  `,
};
