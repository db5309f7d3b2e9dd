import { backfillCommand } from "./backfill.js";
import { collectionCommand } from "./collection.js";
import type { CommandRegistration } from "./command-registration.js";
import { configCommand } from "./config.js";
import { consolidateCommand } from "./consolidate.js";
import { contextCommand } from "./context.js";
import { countCommand } from "./count.js";
import { curateCommand } from "./curate.js";
import { doctorCommand } from "./doctor.js";
import { entitiesCommand, entityCommand } from "./entities.js";
import { evalCommand } from "./eval.js";
import { explainCommand } from "./explain.js";
import { exportCommand } from "./export.js";
import { forgetCommand } from "./forget.js";
import { getCommand } from "./get.js";
import { hookCommand } from "./hook.js";
import { hooksCommand } from "./hooks.js";
import { hydrateCommand } from "./hydrate.js";
import { hygieneCommand } from "./hygiene.js";
import { importCommand } from "./import.js";
import { initCommand } from "./init.js";
import { jobsCommand } from "./jobs.js";
import { kgCommand } from "./kg.js";
import { listCommand } from "./list.js";
import { mcpCommand } from "./mcp.js";
import { migrateCommand } from "./migrate.js";
import { mineCommand } from "./mine.js";
import { purgeCommand } from "./purge.js";
import { recallCommand } from "./recall.js";
import { reindexCommand } from "./reindex.js";
import { graphCommand, relateCommand, unrelateCommand } from "./relations.js";
import { rememberCommand } from "./remember.js";
import { serveCommand } from "./serve.js";
import { snapshotCommand } from "./snapshot.js";
import { storeCommand } from "./store.js";
import { historyCommand, supersedeCommand, unsupersedeCommand } from "./supersede.js";
import {
  feedbackCommand,
  pinCommand,
  snoozeCommand,
  unpinCommand,
  unsnoozeCommand,
  usageCommand,
} from "./usage.js";
import { workerCommand } from "./worker.js";

/** Every command of `memory`, in the order `memory --help` lists them; one file each. */
export const COMMANDS: readonly CommandRegistration[] = [
  initCommand,
  configCommand,
  storeCommand,
  recallCommand,
  explainCommand,
  contextCommand,
  getCommand,
  listCommand,
  forgetCommand,
  supersedeCommand,
  unsupersedeCommand,
  historyCommand,
  relateCommand,
  unrelateCommand,
  graphCommand,
  entitiesCommand,
  entityCommand,
  kgCommand,
  feedbackCommand,
  pinCommand,
  unpinCommand,
  snoozeCommand,
  unsnoozeCommand,
  usageCommand,
  purgeCommand,
  countCommand,
  exportCommand,
  importCommand,
  mineCommand,
  collectionCommand,
  snapshotCommand,
  hydrateCommand,
  reindexCommand,
  backfillCommand,
  doctorCommand,
  hygieneCommand,
  curateCommand,
  consolidateCommand,
  rememberCommand,
  jobsCommand,
  workerCommand,
  migrateCommand,
  evalCommand,
  serveCommand,
  mcpCommand,
  hooksCommand,
  hookCommand,
];
