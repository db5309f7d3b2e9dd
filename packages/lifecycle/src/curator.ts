import {
  type ChatModel,
  ConflictError,
  type Memory,
  type MemoryEntry,
  validateKey,
} from "@memory/api";
import { z } from "zod";
import { completeJson } from "./chat-json.js";
import { defaultLeaseHolder } from "./scheduler.js";

/** The job-state name (and lease `job:curate`) of the curator. */
export const CURATE_JOB = "curate";
const CURATED = ["core", "daily"] as const;
const LEASE_TTL_MS = 3_600_000;

/** What the model must answer. */
export const curatorProposalSchema = z.object({
  delete: z.array(z.string()).max(1000).default([]),
  merge: z
    .array(
      z.object({
        keys: z.array(z.string()).min(2, "a merge group needs at least two keys"),
        content: z.string().trim().min(1, "the merged text is empty").max(8000),
        key: z.string().trim().min(1).max(200).optional(),
      }),
    )
    .max(500)
    .default([]),
});
export type CuratorProposal = z.infer<typeof curatorProposalSchema>;

export interface CurateOptions {
  chatModel: ChatModel;
  /** Curate one namespace (default: every namespace that has core or daily entries). */
  namespace?: string;
  /** Validate and report the proposal; change nothing, record nothing. */
  dryRun?: boolean;
  /** Newest core + daily entries per namespace shown to the model (default 200). */
  maxEntries?: number;
  /** Extra model calls after an unusable or invalid proposal (default 1). */
  retries?: number;
  now?: Date;
  /** Save the report as job state `curate` (default true; never with dryRun). */
  record?: boolean;
  /** Take the lease `job:curate` while applying (default true; the scheduler holds it itself). */
  lease?: boolean;
  signal?: AbortSignal;
}

export interface CurateTotals {
  core: number;
  daily: number;
  total: number;
}

export interface CuratedGroup {
  namespace: string;
  /** The entries merged. */
  keys: string[];
  /** The key that holds the merged text (one of `keys`, or a new key). */
  into: string;
  content: string;
  /** Core entries of the group, other than `into`: marked superseded by `into` (kept for audit). */
  superseded: string[];
  /** Daily entries of the group, other than `into`: deleted. */
  deleted: string[];
}

/** What a curator run did (with dryRun: would do). Numbers count current entries. */
export interface CurateReport {
  at: string;
  dryRun: boolean;
  model: string;
  namespaces: string[];
  /** Entries shown to the model. */
  reviewed: number;
  before: CurateTotals;
  after: CurateTotals;
  /** Daily entries deleted on the model's proposal (not those merged away: see `merged`). */
  deleted: { namespace: string; key: string }[];
  merged: CuratedGroup[];
  /** Proposed actions not applied because an entry changed or vanished since the review. */
  skipped: { namespace: string; keys: string[]; reason: string }[];
}

export const CURATOR_SYSTEM_PROMPT = [
  "You curate an AI agent's long-term memory. You get its core entries (durable facts) and daily",
  "entries (session logs) as JSON. Propose deletions of daily entries that are obsolete, trivial",
  "or redundant, and merges of entries that say the same thing or belong together. Answer with",
  'only a JSON object: {"delete": ["key", ...], "merge": [{"keys": ["key1", "key2"], "content":',
  '"the merged text", "key": "optional key for the merged entry"}]}. Rules: use only the keys',
  "given; never delete a core entry (merge it instead: the merged text replaces it); a key",
  "appears at most once in the whole answer; keep what is not clearly redundant. Nothing to do:",
  '{"delete": [], "merge": []}.',
].join(" ");

/** The rules a proposal must follow; returns the problems (empty: valid). */
export function checkProposal(
  proposal: CuratorProposal,
  entries: ReadonlyMap<string, MemoryEntry>,
): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const use = (key: string, where: string) => {
    if (!entries.has(key)) problems.push(`${where}: unknown key ${JSON.stringify(key)}`);
    if (seen.has(key)) problems.push(`${where}: key ${JSON.stringify(key)} is used twice`);
    seen.add(key);
  };
  for (const key of proposal.delete) {
    use(key, "delete");
    if (entries.get(key)?.category === "core") {
      problems.push(
        `delete: ${JSON.stringify(key)} is a core entry; core entries are only replaced by a merge`,
      );
    }
  }
  for (const [index, group] of proposal.merge.entries()) {
    for (const key of group.keys) use(key, `merge[${index}]`);
    if (group.key !== undefined && !group.keys.includes(group.key)) {
      try {
        validateKey(group.key);
      } catch {
        problems.push(`merge[${index}]: key ${JSON.stringify(group.key)} is not a valid key`);
      }
      if (entries.has(group.key) || seen.has(group.key)) {
        problems.push(
          `merge[${index}]: key ${JSON.stringify(group.key)} belongs to another entry; use one of the group's keys or a new one`,
        );
      }
    }
  }
  return problems;
}

async function totals(memory: Memory, namespaces: readonly string[]): Promise<CurateTotals> {
  let core = 0;
  let daily = 0;
  for (const namespace of namespaces) {
    core += await memory.count({ namespace, categories: ["core"] });
    daily += await memory.count({ namespace, categories: ["daily"] });
  }
  return { core, daily, total: core + daily };
}

async function namespacesOf(memory: Memory): Promise<string[]> {
  const found = new Set<string>();
  for await (const entry of memory.export({ categories: [...CURATED], includeSuperseded: false }))
    found.add(entry.namespace);
  return [...found].sort();
}

/**
 * The session the merged entry keeps: the surviving entry's (a store without one would clear
 * it), or, for a new key, the session all the members share, if they share one.
 */
function survivingSession(target: MemoryEntry | undefined, members: MemoryEntry[]) {
  if (target) return target.sessionId;
  const sessions = new Set(members.map((entry) => entry.sessionId));
  return sessions.size === 1 ? [...sessions][0] : undefined;
}

/** The merge target: the given key, else the group's first core key, else its first key. */
function targetOf(group: CuratorProposal["merge"][number], entries: Map<string, MemoryEntry>) {
  return (
    group.key ??
    group.keys.find((key) => entries.get(key)?.category === "core") ??
    (group.keys[0] as string)
  );
}

/**
 * The curator: for each namespace, shows the chat model the newest core and daily entries and
 * asks for deletions and merges, validates the proposal ({@link checkProposal}: only reviewed
 * keys, each at most once, no core entry deleted except when a merge replaces it, merged text
 * non-empty; an invalid proposal is asked again, then a `ChatOutputError`), and, unless
 * `dryRun`, applies it: a merge stores the merged text under its target key (core when any
 * member is core) and marks the other core members superseded by it, deletes the other daily
 * members; a deletion forgets the daily entry. An action whose entries changed since the review
 * is skipped, not applied. Returns (and records as job state `curate`) the report.
 */
export async function curate(memory: Memory, options: CurateOptions): Promise<CurateReport> {
  const now = options.now ?? new Date();
  const dryRun = options.dryRun === true;
  const maxEntries = options.maxEntries ?? 200;
  const holder = defaultLeaseHolder();
  const lease =
    dryRun || options.lease === false
      ? null
      : await memory.acquireLease(`job:${CURATE_JOB}`, holder, LEASE_TTL_MS);
  if (!dryRun && options.lease !== false && !lease) {
    throw new ConflictError(
      `The curator is running elsewhere (lease job:${CURATE_JOB} is held): try again later, or pass --dry-run.`,
    );
  }
  try {
    const namespaces =
      options.namespace === undefined ? await namespacesOf(memory) : [options.namespace];
    const report: CurateReport = {
      at: now.toISOString(),
      dryRun,
      model: `${options.chatModel.name}/${options.chatModel.model}`,
      namespaces,
      reviewed: 0,
      before: await totals(memory, namespaces),
      after: { core: 0, daily: 0, total: 0 },
      deleted: [],
      merged: [],
      skipped: [],
    };
    let created = { core: 0, daily: 0 };
    for (const namespace of namespaces) {
      // Pinned entries are a person's decision: never shown, so never merged away or deleted.
      const listed = (
        await memory.list({ namespace, categories: [...CURATED], limit: maxEntries })
      ).filter((entry) => !entry.pinned);
      report.reviewed += listed.length;
      if (listed.length < 2) continue;
      const entries = new Map(listed.map((entry) => [entry.key, entry]));
      const shown = listed.map(({ key, category, content, updatedAt }) => ({
        key,
        category,
        content,
        updatedAt,
      }));
      const { value: proposal } = await completeJson(
        options.chatModel,
        [
          { role: "system", content: CURATOR_SYSTEM_PROMPT },
          { role: "user", content: JSON.stringify({ namespace, entries: shown }) },
        ],
        curatorProposalSchema,
        {
          task: "curate",
          check: (value) => checkProposal(value, entries),
          retries: options.retries ?? 1,
          ...(options.signal ? { signal: options.signal } : {}),
          context: "Nothing was changed.",
          details: { namespace },
        },
      );
      const applied = await apply(memory, namespace, proposal, entries, dryRun);
      report.deleted.push(...applied.deleted);
      report.merged.push(...applied.merged);
      report.skipped.push(...applied.skipped);
      created = {
        core: created.core + applied.created.core,
        daily: created.daily + applied.created.daily,
      };
    }
    report.after = dryRun ? predicted(report, created) : await totals(memory, namespaces);
    if (!dryRun && options.record !== false) {
      const state = (await memory.getJobState(CURATE_JOB)) ?? {};
      const { lastError: _lastError, ...rest } = state;
      await memory.setJobState(CURATE_JOB, { ...rest, lastRunAt: report.at, lastReport: report });
    }
    return report;
  } finally {
    if (lease) await memory.releaseLease(lease).catch(() => {});
  }
}

function predicted(report: CurateReport, created: { core: number; daily: number }): CurateTotals {
  let core = report.before.core + created.core;
  let daily = report.before.daily + created.daily - report.deleted.length;
  for (const group of report.merged) {
    core -= group.superseded.length;
    daily -= group.deleted.length;
  }
  return { core, daily, total: core + daily };
}

async function unchanged(
  memory: Memory,
  namespace: string,
  keys: readonly string[],
  entries: Map<string, MemoryEntry>,
): Promise<boolean> {
  for (const key of keys) {
    const now = await memory.get(key, { namespace });
    if (!now || now.updatedAt !== entries.get(key)?.updatedAt || now.supersededBy) return false;
  }
  return true;
}

async function apply(
  memory: Memory,
  namespace: string,
  proposal: CuratorProposal,
  entries: Map<string, MemoryEntry>,
  dryRun: boolean,
) {
  const deleted: CurateReport["deleted"] = [];
  const merged: CuratedGroup[] = [];
  const skipped: CurateReport["skipped"] = [];
  const created = { core: 0, daily: 0 };
  const changed = "changed or deleted since the review";
  for (const group of proposal.merge) {
    const into = targetOf(group, entries);
    const members = group.keys.map((key) => entries.get(key) as MemoryEntry);
    const core = members.some((entry) => entry.category === "core");
    const others = members.filter((entry) => entry.key !== into);
    const result: CuratedGroup = {
      namespace,
      keys: group.keys,
      into,
      content: group.content,
      superseded: others.filter((entry) => entry.category === "core").map((entry) => entry.key),
      deleted: others.filter((entry) => entry.category !== "core").map((entry) => entry.key),
    };
    const isNew = !entries.has(into);
    if (!dryRun) {
      if (!(await unchanged(memory, namespace, group.keys, entries))) {
        skipped.push({ namespace, keys: group.keys, reason: changed });
        continue;
      }
      if (isNew && (await memory.get(into, { namespace }))) {
        skipped.push({ namespace, keys: group.keys, reason: `${into} already exists` });
        continue;
      }
      const importance = Math.max(...members.map((entry) => entry.importance ?? 0));
      const sessionId = survivingSession(entries.get(into), members);
      await memory.store({
        key: into,
        content: group.content,
        category: core ? "core" : "daily",
        namespace,
        ...(importance > 0 ? { importance } : {}),
        ...(sessionId === undefined ? {} : { sessionId }),
      });
      // Replace before removing: a crash in between leaves a duplicate, never a loss.
      for (const key of result.superseded) await memory.markSuperseded(key, into, { namespace });
      for (const key of result.deleted) await memory.forget(key, { namespace });
    }
    if (isNew) created[core ? "core" : "daily"]++;
    else {
      // The target changes category when a daily entry absorbs a core one.
      const target = entries.get(into) as MemoryEntry;
      if (target.category !== (core ? "core" : "daily")) {
        created[core ? "core" : "daily"]++;
        created[core ? "daily" : "core"]--;
      }
    }
    merged.push(result);
  }
  for (const key of proposal.delete) {
    if (!dryRun) {
      if (!(await unchanged(memory, namespace, [key], entries))) {
        skipped.push({ namespace, keys: [key], reason: changed });
        continue;
      }
      await memory.forget(key, { namespace });
    }
    deleted.push({ namespace, key });
  }
  return { deleted, merged, skipped, created };
}
