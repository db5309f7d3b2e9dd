import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  isLocomoDocument,
  type LocomoSample,
  readLocomoSample,
} from "@memory/lifecycle/agent-loop-eval";
import { CommandError, UsageError } from "../cli/cli-errors.js";
import { EXIT_CODES } from "../cli/exit-codes.js";
import type { EvalDataset } from "./eval-dataset.js";
import { DatasetLineError, genericDataset } from "./generic-dataset.js";
import { locomoDataset } from "./locomo-dataset.js";

export interface DatasetInput {
  /** A LoCoMo JSON file. */
  file?: string | undefined;
  /** The generic format: memories JSONL and questions JSONL. */
  memories?: string | undefined;
  questions?: string | undefined;
  /** LoCoMo only: these conversations (sample ids). */
  conversations?: string[] | undefined;
}

const FORMATS =
  "`memory eval <locomo.json>` (a LoCoMo file: a JSON array of conversations with `conversation` and `qa`) or `memory eval --memories <m.jsonl> --questions <q.jsonl>` (see `memory eval --help`)";

async function readInput(file: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      throw new CommandError(
        `${file} does not exist; pass an existing file: ${FORMATS}.`,
        EXIT_CODES.notFound,
      );
    }
    throw new CommandError(
      `cannot read ${file}: ${(error as Error).message}; check the path and its permissions.`,
      EXIT_CODES.failure,
    );
  }
  if (text.trim() === "") throw new UsageError(`${file} is empty; expected ${FORMATS}.`);
  return text;
}

function parseLocomo(text: string, file: string): LocomoSample[] {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    const first = text.trimStart().split("\n", 1)[0] ?? "";
    const jsonl = (() => {
      try {
        return typeof JSON.parse(first) === "object";
      } catch {
        return false;
      }
    })();
    throw new UsageError(
      jsonl
        ? `${file} is JSON lines, not a LoCoMo file; for the generic format pass it as --memories (or --questions) with the other file: memory eval --memories <m.jsonl> --questions <q.jsonl>.`
        : `${file} is not JSON; expected ${FORMATS}.`,
    );
  }
  if (!isLocomoDocument(document)) {
    throw new UsageError(
      `${file} is neither format: a LoCoMo file is a JSON array of conversations, each with "conversation" and "qa"; expected ${FORMATS}.`,
    );
  }
  const missingId = document.findIndex((sample) => typeof sample.sample_id !== "string");
  if (missingId >= 0) {
    throw new UsageError(
      `${file}: conversation #${missingId + 1} has no "sample_id" string; LoCoMo conversations are named by it (e.g. "conv-26").`,
    );
  }
  return document;
}

/** Reads and checks the benchmark named on the command line (either format). */
export async function loadEvalDataset(input: DatasetInput): Promise<EvalDataset> {
  const generic = input.memories !== undefined || input.questions !== undefined;
  if (input.file !== undefined && generic) {
    throw new UsageError(
      `give either a LoCoMo file or --memories and --questions, not both; ${FORMATS}.`,
    );
  }
  if (input.file === undefined && !generic) {
    throw new UsageError(`nothing to evaluate: ${FORMATS}.`);
  }
  if (input.file !== undefined) {
    const file = path.resolve(input.file);
    const samples = parseLocomo(await readInput(file), file);
    const known = samples.map((sample) => sample.sample_id);
    const unknown = (input.conversations ?? []).filter((id) => !known.includes(id));
    if (unknown.length > 0) {
      throw new UsageError(
        `--conversations: ${unknown.join(", ")} ${unknown.length === 1 ? "is" : "are"} not in ${file}; it has ${known.join(", ")}.`,
      );
    }
    const dataset = locomoDataset(samples.map(readLocomoSample), file, input.conversations);
    if (dataset.questions.length === 0) {
      throw new UsageError(
        `${file} has no question with evidence in the selected conversations; nothing to score.`,
      );
    }
    return dataset;
  }
  if (input.memories === undefined || input.questions === undefined) {
    throw new UsageError(
      "the generic format needs both files: memory eval --memories <m.jsonl> --questions <q.jsonl>.",
    );
  }
  if (input.conversations !== undefined) {
    throw new UsageError("--conversations selects LoCoMo conversations; it needs a LoCoMo file.");
  }
  const memoriesFile = path.resolve(input.memories);
  const questionsFile = path.resolve(input.questions);
  const [memoriesText, questionsText] = [
    await readInput(memoriesFile),
    await readInput(questionsFile),
  ];
  try {
    return genericDataset(memoriesText, memoriesFile, questionsText, questionsFile);
  } catch (error) {
    if (error instanceof DatasetLineError) throw new UsageError(error.message);
    throw error;
  }
}
