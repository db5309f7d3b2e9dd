export { assertCompleteDriver, InvalidDriverError } from "./driver-check.js";
export { EXPORT_PAGE, LIST_LIMIT_MAX, TOP_CORE_DEFAULT, validateOffset } from "./entry-reads.js";
export {
  FACADE_DEFAULTS,
  type MemoryFacadeOptions,
  type ResolvedFacadeOptions,
  resolveFacadeOptions,
} from "./facade-options.js";
export { IMPORT_BATCH } from "./import-entries.js";
export {
  createInMemoryDriver,
  InMemoryDriver,
  type InMemoryDriverOptions,
} from "./in-memory/in-memory-driver.js";
export { compareFor } from "./in-memory/in-memory-order.js";
export { InMemoryStore, type StoredRow } from "./in-memory/in-memory-store.js";
export { createMemoryFacade, MemoryFacade } from "./memory-facade.js";
export { NoneDriver } from "./none-driver.js";
