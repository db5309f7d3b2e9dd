export { type ItemValue, VALUE_MARKER } from "./item-content.js";
export { createLangGraphStore, LangGraphStore } from "./langgraph-store.js";
export type { LangGraphStoreOptions } from "./langgraph-store-options.js";
export { NAMESPACE_SEPARATOR, NamespaceMapping } from "./namespace-mapping.js";
export type { SearchItem } from "./store-reads.js";
