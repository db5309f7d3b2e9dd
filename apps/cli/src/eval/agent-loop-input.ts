import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  defaultLifeScenario,
  type LifeScenario,
  LocomoDataError,
  type LocomoSplit,
  lifeScenarioSchema,
  locomoSplit,
  readLocomo,
} from "@memory/lifecycle/agent-loop-eval";
import { CommandError, UsageError } from "../cli/cli-errors.js";
import { EXIT_CODES } from "../cli/exit-codes.js";

/**
 * Where `--agent-loop` finds the LoCoMo file when `--dataset` is not given. An environment
 * variable, not a memory.toml key: memory.toml's tables are the stores' settings (and are
 * validated as such); a benchmark file is not one.
 */
export const LOCOMO_FILE_ENV = "MEMORY_EVAL_LOCOMO";

export interface AgentLoopInputOptions {
  /** `--dataset` (or the positional file). */
  dataset?: string | undefined;
  /** `--life`; unset: the scenario that ships with @memory/lifecycle. */
  life?: string | undefined;
  /** `--conversations`: only these LoCoMo conversations. */
  conversations?: string[] | undefined;
}

export interface AgentLoopInput {
  /** Absolute path of the LoCoMo file. */
  dataset: string;
  /** Absolute path of the scenario, or "built-in". */
  life: string;
  locomo: LocomoSplit;
  scenario: LifeScenario;
}

async function readText(file: string, what: string, flag: string): Promise<string> {
  try {
    const text = await readFile(file, "utf8");
    if (text.trim() === "") throw new UsageError(`${file} is empty; pass a ${what} with ${flag}.`);
    return text;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new CommandError(
        `${file} does not exist; pass an existing ${what} with ${flag}.`,
        EXIT_CODES.notFound,
      );
    }
    throw new CommandError(
      `cannot read ${file}: ${(error as Error).message}; check the path and its permissions.`,
      EXIT_CODES.failure,
    );
  }
}

function parseJson(text: string, file: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not JSON (${(error as Error).message}); expected a ${what}.`);
  }
}

async function readLocomoFile(file: string, conversations?: string[]): Promise<LocomoSplit> {
  const what = "LoCoMo file (a JSON array of conversations, as locomo10.json)";
  const document = parseJson(await readText(file, what, "--dataset <locomo.json>"), file, what);
  try {
    const read = readLocomo(document);
    const known = read.map((conversation) => conversation.id);
    const unknown = (conversations ?? []).filter((id) => !known.includes(id));
    if (unknown.length > 0) {
      throw new UsageError(
        `--conversations: ${unknown.join(", ")} ${unknown.length === 1 ? "is" : "are"} not in ${file}; it has ${known.join(", ")}.`,
      );
    }
    const split = locomoSplit(
      conversations ? read.filter((conversation) => conversations.includes(conversation.id)) : read,
    );
    if (split.questions.length === 0) {
      throw new UsageError(
        `${file} has no question with evidence in the selected conversations; nothing to measure.`,
      );
    }
    return split;
  } catch (error) {
    if (error instanceof LocomoDataError) throw new UsageError(`${file}: ${error.message}.`);
    throw error;
  }
}

async function readScenarioFile(file: string): Promise<LifeScenario> {
  const what = "life scenario (the shape of @memory/lifecycle's built-in life.json)";
  const document = parseJson(await readText(file, what, "--life <scenario.json>"), file, what);
  const parsed = lifeScenarioSchema.safeParse(document);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join(".") || "(top level)"}: ${issue.message}`)
      .join("; ");
    throw new UsageError(
      `${file} is not a life scenario (${problems}); expected a ${what}: { description, askedAt, sessions: [{ id, date, turns: [{ id, user, assistant }] }], questions: [{ id, text, changed, current, stale, others }] }.`,
    );
  }
  return parsed.data;
}

/** Reads what `memory eval --agent-loop` replays, or says exactly what to pass. */
export async function loadAgentLoopInput(
  options: AgentLoopInputOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<AgentLoopInput> {
  const given = options.dataset ?? (env[LOCOMO_FILE_ENV] || undefined);
  if (given === undefined) {
    throw new UsageError(
      `memory eval --agent-loop needs the LoCoMo file to replay: pass --dataset <locomo.json> (locomo10.json of snap-research/LoCoMo, or a file of the same shape), or set ${LOCOMO_FILE_ENV} to its path.`,
    );
  }
  const dataset = path.resolve(given);
  const locomo = await readLocomoFile(dataset, options.conversations);
  if (options.life === undefined) {
    return { dataset, life: "built-in", locomo, scenario: defaultLifeScenario() };
  }
  const life = path.resolve(options.life);
  return { dataset, life, locomo, scenario: await readScenarioFile(life) };
}
