import type { McpTool } from "../tool-definition.js";
import { memoryCollectionAdd } from "./memory-collection-add.js";
import { memoryCollectionList } from "./memory-collection-list.js";
import { memoryCollectionRemove } from "./memory-collection-remove.js";
import { memoryCollectionSync } from "./memory-collection-sync.js";
import { memoryConsolidate } from "./memory-consolidate.js";
import { memoryContext } from "./memory-context.js";
import { memoryEntities } from "./memory-entities.js";
import { memoryEntity } from "./memory-entity.js";
import { memoryFeedback } from "./memory-feedback.js";
import { memoryForget } from "./memory-forget.js";
import { memoryGet } from "./memory-get.js";
import { memoryHistory } from "./memory-history.js";
import { memoryKg } from "./memory-kg.js";
import { memoryList } from "./memory-list.js";
import { memoryPin } from "./memory-pin.js";
import { memoryRecall } from "./memory-recall.js";
import { memoryRelate } from "./memory-relate.js";
import { memoryRelations } from "./memory-relations.js";
import { memoryRemember } from "./memory-remember.js";
import { memorySnooze } from "./memory-snooze.js";
import { memoryStore } from "./memory-store.js";
import { memorySupersede } from "./memory-supersede.js";
import { memoryUnsupersede } from "./memory-unsupersede.js";
import { memoryUsage } from "./memory-usage.js";

/** Every memory tool, in the order they are listed. */
export const MEMORY_TOOLS: readonly McpTool[] = [
  memoryStore,
  memoryRecall,
  memoryContext,
  memoryGet,
  memoryForget,
  memoryList,
  memorySupersede,
  memoryUnsupersede,
  memoryHistory,
  memoryRelate,
  memoryRelations,
  memoryEntities,
  memoryEntity,
  memoryKg,
  memoryFeedback,
  memoryPin,
  memorySnooze,
  memoryUsage,
  memoryConsolidate,
  memoryRemember,
  memoryCollectionList,
  memoryCollectionSync,
  memoryCollectionAdd,
  memoryCollectionRemove,
] as unknown as readonly McpTool[];
