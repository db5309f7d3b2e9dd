import type { EvalDataset, EvalMemory, EvalQuestion } from "./eval-dataset.js";

const DEFAULT_NAMESPACE = "default";
/** The category of a question that names none. */
export const UNCATEGORIZED = "uncategorized";

/** A line of a JSONL file that cannot be used: the message names the file, line and fix. */
export class DatasetLineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatasetLineError";
  }
}

interface Line {
  number: number;
  value: Record<string, unknown>;
}

/** The non-blank lines of a JSONL text, each parsed as one JSON object. */
function jsonObjects(text: string, file: string, example: string): Line[] {
  const lines: Line[] = [];
  text.split("\n").forEach((raw, index) => {
    if (raw.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new DatasetLineError(
        `${file} line ${index + 1} is not JSON (${(error as Error).message}); write one object per line, e.g. ${example}`,
      );
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new DatasetLineError(
        `${file} line ${index + 1} is not a JSON object; write one object per line, e.g. ${example}`,
      );
    }
    lines.push({ number: index + 1, value: value as Record<string, unknown> });
  });
  return lines;
}

function optionalString(line: Line, field: string, file: string): string | undefined {
  const value = line.value[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || value.trim() === "") {
    throw new DatasetLineError(
      `${file} line ${line.number}: "${field}" must be a non-empty string (or left out).`,
    );
  }
  return value;
}

function requiredString(line: Line, field: string, file: string): string {
  const value = optionalString(line, field, file);
  if (value === undefined) {
    throw new DatasetLineError(
      `${file} line ${line.number}: "${field}" is missing; every line needs a non-empty "${field}" string.`,
    );
  }
  return value;
}

const MEMORY_EXAMPLE = '{"key":"m1","content":"The user drinks green tea","namespace":"alice"}';
const QUESTION_EXAMPLE =
  '{"question":"What does the user drink?","expected":["m1"],"namespace":"alice"}';

/**
 * The generic format: memories as JSONL (`{"key","content","namespace"?,"sessionId"?,
 * "createdAt"?,"category"?}`), questions as JSONL (`{"id"?,"question","expected":[keys],
 * "category"?,"namespace"?}`). Namespaces default to `default`, memory categories to `core`
 * (which never decays). Every question is asked in its namespace and every expected key must be
 * a memory of that namespace; a question with an empty `expected` list is skipped, as the
 * LoCoMo kit skips questions without evidence. "Overall" is every question.
 */
export function genericDataset(
  memoriesText: string,
  memoriesFile: string,
  questionsText: string,
  questionsFile: string,
): EvalDataset {
  const memories: EvalMemory[] = [];
  const keyLines = new Map<string, number>();
  for (const line of jsonObjects(memoriesText, memoriesFile, MEMORY_EXAMPLE)) {
    const key = requiredString(line, "key", memoriesFile);
    const content = requiredString(line, "content", memoriesFile);
    const namespace = optionalString(line, "namespace", memoriesFile) ?? DEFAULT_NAMESPACE;
    const id = `${namespace}\u0000${key}`;
    const earlier = keyLines.get(id);
    if (earlier !== undefined) {
      throw new DatasetLineError(
        `${memoriesFile} line ${line.number}: key "${key}" of namespace "${namespace}" is already on line ${earlier}; keys must be unique within a namespace.`,
      );
    }
    keyLines.set(id, line.number);
    const sessionId = optionalString(line, "sessionId", memoriesFile);
    const createdAt = optionalString(line, "createdAt", memoriesFile);
    memories.push({
      key,
      content,
      namespace,
      ...(sessionId ? { sessionId } : {}),
      ...(createdAt ? { createdAt } : {}),
      category: optionalString(line, "category", memoriesFile) ?? "core",
      origin: `${memoriesFile} line ${line.number}`,
    });
  }
  if (memories.length === 0) {
    throw new DatasetLineError(
      `${memoriesFile} has no memories; write one JSON object per line, e.g. ${MEMORY_EXAMPLE}`,
    );
  }

  const questions: EvalQuestion[] = [];
  let skipped = 0;
  for (const line of jsonObjects(questionsText, questionsFile, QUESTION_EXAMPLE)) {
    const text = requiredString(line, "question", questionsFile);
    const namespace = optionalString(line, "namespace", questionsFile) ?? DEFAULT_NAMESPACE;
    const expected = line.value.expected;
    if (
      !Array.isArray(expected) ||
      !expected.every((key) => typeof key === "string" && key !== "")
    ) {
      throw new DatasetLineError(
        `${questionsFile} line ${line.number}: "expected" must be a list of memory keys, e.g. ${QUESTION_EXAMPLE}`,
      );
    }
    for (const key of expected as string[]) {
      if (!keyLines.has(`${namespace}\u0000${key}`)) {
        throw new DatasetLineError(
          `${questionsFile} line ${line.number}: expected key "${key}" is not a memory of namespace "${namespace}" in ${memoriesFile}; fix the key, or set the question's "namespace" to the memory's.`,
        );
      }
    }
    if (expected.length === 0) {
      skipped += 1;
      continue;
    }
    const category = line.value.category;
    if (
      category !== undefined &&
      category !== null &&
      typeof category !== "number" &&
      (typeof category !== "string" || category.trim() === "")
    ) {
      throw new DatasetLineError(
        `${questionsFile} line ${line.number}: "category" must be a number or a non-empty string (or left out).`,
      );
    }
    const id = line.value.id;
    questions.push({
      id: typeof id === "string" || typeof id === "number" ? String(id) : `q${line.number}`,
      text,
      namespace,
      category: (category as string | number | undefined | null) ?? UNCATEGORIZED,
      expected: [...new Set(expected as string[])],
    });
  }
  if (questions.length === 0) {
    throw new DatasetLineError(
      `${questionsFile} has no question with expected keys; write one JSON object per line, e.g. ${QUESTION_EXAMPLE}`,
    );
  }
  return {
    format: "generic",
    sources: [memoriesFile, questionsFile],
    memories,
    questions,
    inOverall: () => true,
    categoryNames: {},
    stats: {
      namespaces: new Set(memories.map((memory) => memory.namespace)).size,
      memories: memories.length,
      questions: questions.length,
      skippedWithoutEvidence: skipped,
    },
  };
}
