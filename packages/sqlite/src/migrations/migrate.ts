import { BackendUnavailableError } from "@memory/api";
import type Database from "better-sqlite3";
import { SCHEMA_V1, SCHEMA_V2, SCHEMA_VERSION } from "./schema.js";
import { upgradeToV3 } from "./schema-v3.js";
import { upgradeToV4 } from "./schema-v4.js";
import { upgradeToV5 } from "./schema-v5.js";
import { upgradeToV6 } from "./schema-v6.js";
import { upgradeToV7 } from "./schema-v7.js";
import { upgradeToV8 } from "./schema-v8.js";
import { upgradeToV9 } from "./schema-v9.js";
import { upgradeToV10 } from "./schema-v10.js";
import { upgradeToV11 } from "./schema-v11.js";
import { upgradeToV12 } from "./schema-v12.js";
import { upgradeToV13 } from "./schema-v13.js";
import { isSeedSchema, upgradeSeedSchema } from "./seed-upgrade.js";

function readVersion(db: Database.Database): number {
  const hasMeta = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
    .get();
  if (!hasMeta) return 0;
  const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as
    | { value: string }
    | undefined;
  return row ? Number(row.value) : 0;
}

/**
 * Runs on every open. Idempotent, never drops rows, and safe when several processes open the
 * same file at once: the version is read again inside an IMMEDIATE transaction.
 */
export function migrate(db: Database.Database, file: string, log: (message: string) => void): void {
  if (readVersion(db) === SCHEMA_VERSION) return;
  db.transaction(() => {
    const version = readVersion(db);
    if (version > SCHEMA_VERSION) {
      throw new BackendUnavailableError(
        `The memory database ${file} has schema version ${version}, newer than this @memory/sqlite supports (${SCHEMA_VERSION}); upgrade @memory/sqlite.`,
      );
    }
    if (version === SCHEMA_VERSION) return;
    if (version === 0 && isSeedSchema(db)) {
      upgradeSeedSchema(db, log);
      log(
        `@memory/sqlite: upgraded ${file} from the seed schema to version ${SCHEMA_VERSION}; every row was kept.`,
      );
    } else if (version === 0) {
      db.exec(SCHEMA_V1);
    }
    // Each step moves one version forward; none drops a row.
    if (version < 2) db.exec(SCHEMA_V2);
    if (version < 3) upgradeToV3(db);
    if (version < 4) upgradeToV4(db);
    if (version < 5) upgradeToV5(db);
    upgradeToV6(db);
    upgradeToV7(db);
    upgradeToV8(db);
    upgradeToV9(db);
    upgradeToV10(db);
    upgradeToV11(db);
    upgradeToV12(db);
    upgradeToV13(db);
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)").run(
      String(SCHEMA_VERSION),
    );
  }).immediate();
}
