export {
  AgentMemorySession,
  type AgentMemorySessionOptions,
  SESSION_CATEGORY,
  type SessionSearchResult,
} from "./agent-memory-session.js";
export { memoryFunctionTools } from "./memory-function-tools.js";
