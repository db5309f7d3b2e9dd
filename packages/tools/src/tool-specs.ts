import { RESULT_MAX_CHARS } from "./result-bounds.js";
import { MEMORY_TOOL_NAMES, type MemoryToolAnnotations } from "./tool-definition.js";

/**
 * Every memory tool a host may offer: the five of `memoryToolDefinitions`, then the ones only the
 * MCP server runs (it reads memory files, holds the turn settings and the chat model, offers
 * the repair tools beside memory_get, and manages collections: folders of notes on the server).
 */
export const ALL_MEMORY_TOOL_NAMES = [
  ...MEMORY_TOOL_NAMES,
  "memory_get",
  "memory_consolidate",
  "memory_remember",
  "memory_supersede",
  "memory_unsupersede",
  "memory_history",
  "memory_collection_list",
  "memory_collection_sync",
  "memory_collection_add",
  "memory_collection_remove",
  "memory_relate",
  "memory_relations",
  "memory_entities",
  "memory_entity",
  "memory_kg",
  "memory_feedback",
  "memory_pin",
  "memory_snooze",
  "memory_usage",
] as const;

export type AnyMemoryToolName = (typeof ALL_MEMORY_TOOL_NAMES)[number];

/** What a model is shown of a tool, apart from its input schema. */
export interface MemoryToolSpec<Name extends AnyMemoryToolName = AnyMemoryToolName> {
  name: Name;
  title: string;
  description: string;
  annotations: MemoryToolAnnotations;
}

// The descriptions are written for the model and live only here: the MCP server and every
// adapter show these words (apps/server/test/mcp-tool-descriptions.test.ts pins the server's).
// The examples in them are pinned by apps/server/test/mcp-tool-examples.test.ts: conflicts are
// found by shared words, so memory_consolidate's names a rule that restates the old one reversed.
const SPECS: { readonly [Name in AnyMemoryToolName]: MemoryToolSpec<Name> } = {
  memory_store: {
    name: "memory_store",
    title: "Remember something",
    description:
      'Save a fact, preference, decision or note to long-term memory so it can be recalled in later conversations. Write the content as a self-contained sentence ("The user prefers Neovim for editing code"), not a fragment. Category: "core" (the default) for durable facts, preferences and decisions about the user or their work; "daily" for what happened today (notes, progress); "conversation" only for passing details of this chat. The key is optional: leave it out and one is derived from the content (the same text stored twice stays one memory), or give a short, stable, descriptive key such as "user_preferred_editor": storing again under the same key replaces the old content, which is how you correct or update a memory. Never store secrets.',
    annotations: { idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
  memory_recall: {
    name: "memory_recall",
    title: "Search memory",
    description:
      "Search long-term memory for what is relevant to a question or topic; best matches first, each with a relevance score (higher is better). Use it before answering when the user refers to earlier conversations, their preferences, their projects, or anything they told you before. Query with the user's words or a few keywords. An empty query returns the most recent memories.",
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  memory_forget: {
    name: "memory_forget",
    title: "Forget one memory",
    description:
      "Permanently delete one memory by its exact key. Use it when the user asks you to forget something, or a memory is wrong and should not exist at all. To correct a memory, call memory_store with the same key instead.",
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  memory_list: {
    name: "memory_list",
    title: "List memories",
    description:
      "List stored memories, newest first, optionally only some categories or one session. Use it to browse what is stored; use memory_recall to search by meaning.",
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  memory_context: {
    name: "memory_context",
    title: "Memory context for a message",
    description:
      "Get the memory context for the user's message before you answer it: the memories relevant to it (recalled as memory_recall would, with a stricter relevance floor) and, at the start of a conversation (an empty message), the user's most important core memories, as one \"[Memory context]\" block of at most 2000 characters by default. Call it at the start of each turn with the user's message verbatim; an empty answer means nothing relevant is stored. Use memory_recall instead to search for something specific.",
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  memory_get: {
    name: "memory_get",
    title: "Read one memory",
    description: `Read one memory by its exact key, when you already know the key (from memory_recall, memory_list, or because you stored it). Returns found=false when there is no memory with that key. A content longer than ${RESULT_MAX_CHARS} characters comes in parts: the answer says which \`offset\` reads the next one. With a Markdown memory, pass \`path\` (and \`from\`, \`lines\`) instead of a key to read lines of a memory file, e.g. around a memory_recall result's path and line range.`,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  memory_consolidate: {
    name: "memory_consolidate",
    title: "Log a turn and keep its rules",
    description:
      'Consolidate one conversation turn, after you have answered it: the turn is kept as a dated log entry ("daily"), and when the user\'s message states a rule or decision (words such as "always", "never", "must", "important", "rule", "decision") it is also saved as a durable "core" memory. A saved rule replaces an older core memory that says the opposite in mostly the same words (e.g. "Never use spaces for indentation, always use tabs" replaces "Always use spaces for indentation"); a rule worded differently from the one it contradicts ("Always use tabs" after "The user prefers spaces") is kept beside it, so forget the old one with memory_forget. No language model is involved, so it is cheap: call it once per turn, with the user\'s message verbatim and your reply. Chit-chat is only logged; automated lines (starting with "[cron:", "[heartbeat" or "[Memory context]") are skipped. To save a specific fact in your own words, use memory_store instead.',
    annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  memory_remember: {
    name: "memory_remember",
    title: "Remember what the user said",
    description:
      "Remember one conversation turn, after you have answered it, when the user told you something lasting: a preference, a decision, a fact about themselves, their work or their projects. The turn is saved as it is, then the server's language model extracts each durable fact from it and saves it as its own core memory (updating the memory with the same subject). Pass the user's message verbatim and your reply. It costs a model call: skip turns with nothing lasting in them (use memory_consolidate for those, or nothing). If it fails, the turn itself is already saved; do not retry in a loop. To save one fact in your own words, use memory_store.",
    annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  memory_supersede: {
    name: "memory_supersede",
    title: "Mark a memory out of date",
    description:
      'Mark one memory as replaced by another, when a newer memory makes an older one wrong but both were stored under different keys (e.g. "The user moved to Munich" makes "The user lives in Berlin" out of date). The old memory is hidden from recall, not deleted, and memory_unsupersede brings it back. Both keys must exist: store the new fact first. To change a memory in place, call memory_store with its key instead.',
    annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  memory_unsupersede: {
    name: "memory_unsupersede",
    title: "Bring back a superseded memory",
    description:
      "Make a superseded memory current again, when it was wrongly marked out of date (by memory_supersede, or automatically because a newer memory seemed to contradict it). It is found by memory_recall again. Fails when the key does not exist or the memory is not superseded.",
    annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  memory_history: {
    name: "memory_history",
    title: "Earlier versions of a memory",
    description:
      'List what one memory said over time, newest first with the time each version was stored: storing under an existing key keeps the previous content as a version. Use it to answer "what did the user say before?" or to check what a correction replaced.',
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  memory_collection_list: {
    name: "memory_collection_list",
    title: "List note collections",
    description:
      "List the collections you can search: folders of the user's Markdown notes (decision records, research, project notes) indexed read-only beside memory, each with its name, folder, namespace and how many notes and fragments are indexed. memory_recall searches memory and every collection by default; pass its `collections` argument (false, or a list of these names) to choose.",
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  memory_collection_sync: {
    name: "memory_collection_sync",
    title: "Re-index note collections",
    description:
      "Bring the index of the user's note collections up to date with their folders: changed notes are indexed again, deleted ones leave recall, unchanged ones cost nothing. Leave `name` out to sync every collection you can use. Call it when the user says they just edited their notes and memory_recall should see the change; the server usually keeps collections fresh on its own. The answer lists per collection what changed and any file that could not be indexed (with its path and why).",
    annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  memory_collection_add: {
    name: "memory_collection_add",
    title: "Add a folder of notes",
    description:
      'Add a folder of Markdown notes on the server as a collection and index it, so memory_recall finds its notes (each result names the file and lines). Only when the user asks for it, and only folders inside the server\'s allowed roots ([server].collection_roots): any other folder is refused. The files are read, never written. `pattern` chooses the files (default "**/*.md").',
    annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  memory_collection_remove: {
    name: "memory_collection_remove",
    title: "Remove a collection's index",
    description:
      "Remove a collection: its notes leave recall and its index is deleted; the files themselves are never touched, and adding the folder again indexes them anew. Only when the user asks for it. Collections defined in the server's memory.toml cannot be removed this way.",
    annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  memory_relate: {
    name: "memory_relate",
    title: "Relate two memories",
    description:
      'Record how two stored memories connect, with a typed edge from one to the other: "causes" (the first led to the second), "supports", "contradicts", "follows" (comes after in time), "mentions", "derived_from", "semantic" (about the same thing), or a custom name. Both keys must exist in the namespace: store the memories first. Relating the same pair with the same type again keeps the stronger weight (0 to 1, default 1). Use memory_relations to read the edges of a memory.',
    annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  memory_relations: {
    name: "memory_relations",
    title: "How a memory connects to others",
    description:
      'List the edges of one memory (what it causes, supports, contradicts, follows...; outgoing, incoming or both), strongest first, with the other memory\'s key and a short excerpt. Use it to answer "why" or "what led to" questions from a memory you already found, then memory_get to read a related one in full.',
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  memory_entities: {
    name: "memory_entities",
    title: "Who and what the memory names",
    description:
      "List the people, places, organisations and products that stored memories name, most mentioned first, with how many memories name each. Use it to see who and what the memory knows about, then memory_entity to read what it says about one of them.",
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  memory_entity: {
    name: "memory_entity",
    title: "What the memory says about someone or something",
    description:
      'Read the memories that name one person, place, organisation or product, newest first ("Melanie", "melanie\'s" and "MELANIE" are the same). Use it for questions about someone or something by name; memory_get reads a memory in full.',
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  memory_kg: {
    name: "memory_kg",
    title: "Facts about a person or thing, at a time",
    description:
      'List the knowledge-graph facts about one entity (a person, place, organisation or thing; "user" for the user) as subject-predicate-object triples (lives_in, works_at, works_as, spouse, friend, likes, owns...), each with the time it became true and, when a newer value replaced it, the time it stopped. Without asOf: what holds now; with asOf (a date or an RFC 3339 time): what held then, e.g. "where did the user live in March 2025?". The triples come from what the user said (remember, mine --synthesize).',
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  memory_feedback: {
    name: "memory_feedback",
    title: "Say which recalled memories you used",
    description:
      "Tell memory which results of a memory_recall (or memory_context) you actually used to answer, by the recallId it returned and the keys of those results; optionally the keys you read and did not use. Call it once after answering: memories that are used rise over time, and ones that keep surfacing without being used become snooze candidates. Only keys that recall returned count.",
    annotations: { idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
  memory_pin: {
    name: "memory_pin",
    title: "Pin or unpin a memory",
    description:
      "Pin a memory that must always count (pinned: true, the default): it is always eligible for the memory context, ranks a little higher in recall, and is never pruned or merged away. pinned: false unpins it. Pin only what the user says is essential; returns the memory with its marks.",
    annotations: { idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
  memory_snooze: {
    name: "memory_snooze",
    title: "Snooze or wake a memory",
    description:
      'Hide a memory that is noise for now from recall and the memory context until a time (until: a date or RFC 3339) or for a while (for: "7d", "12h", or milliseconds); nothing is deleted and it comes back by itself. unsnooze: true brings it back now. Returns the memory with its marks.',
    annotations: { idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
  memory_usage: {
    name: "memory_usage",
    title: "How memories have been used",
    description:
      "List the memories recall surfaced, most used first, with how often each was surfaced, used and ignored, on how many days and for how many queries, and whether it is pinned or snoozed. candidates: true adds pin candidates (used often, on many days) and snooze candidates (surfaced often, almost never used) to suggest to the user.",
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
};

/**
 * What a host that bounds results (cuts long contents, pages lists and offers memory_get to
 * read on, as the MCP server does) adds to a tool's description, so the model knows to read on.
 */
const BOUNDED_RESULTS_NOTES: Partial<Record<AnyMemoryToolName, string>> = {
  memory_recall: "Long contents are cut, with a note saying how to read them whole (memory_get).",
  memory_list:
    "Long contents are cut (memory_get reads them whole), and a page stops before the answer grows too large: the answer then says which offset lists the rest.",
};

export interface MemoryToolSpecOptions {
  /** The host cuts long contents and pages lists within RESULT_MAX_CHARS (the MCP server). */
  boundedResults?: boolean;
}

/** The name, title, description and annotations a model is shown of one memory tool. */
export function memoryToolSpec<Name extends AnyMemoryToolName>(
  name: Name,
  options: MemoryToolSpecOptions = {},
): MemoryToolSpec<Name> {
  const spec = SPECS[name] as MemoryToolSpec<Name>;
  const note = options.boundedResults ? BOUNDED_RESULTS_NOTES[name] : undefined;
  return {
    ...spec,
    annotations: { ...spec.annotations },
    ...(note ? { description: `${spec.description} ${note}` } : {}),
  };
}
