import { InvalidInputError } from "@memory/api";
import type { ItemValue } from "./item-content.js";

const OPERATORS = new Set(["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin"]);

/**
 * LangGraph's search filter: every top-level field of `filter` must match the value's field of
 * the same name, either exactly (`{ type: "fact" }`, compared with `===`) or through operators
 * (`{ rank: { $gte: 3 } }`: `$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`, `$in`, `$nin`), with the
 * same meaning as LangGraph's own stores. Checked once, before any entry is read.
 */
export function compileFilter(
  filter: Record<string, unknown> | undefined,
): (value: ItemValue) => boolean {
  if (filter === undefined || filter === null) return () => true;
  if (typeof filter !== "object" || Array.isArray(filter)) {
    throw new InvalidInputError(
      `search filter must be an object like { type: "fact" }, got ${JSON.stringify(filter)}.`,
    );
  }
  const conditions = Object.entries(filter);
  return (value) => conditions.every(([field, expected]) => matches(value[field], expected));
}

function matches(actual: unknown, expected: unknown): boolean {
  if (!isOperatorObject(expected)) return actual === expected;
  return Object.entries(expected).every(([operator, operand]) => {
    switch (operator) {
      case "$eq":
        return actual === operand;
      case "$ne":
        return actual !== operand;
      case "$gt":
        return Number(actual) > Number(operand);
      case "$gte":
        return Number(actual) >= Number(operand);
      case "$lt":
        return Number(actual) < Number(operand);
      case "$lte":
        return Number(actual) <= Number(operand);
      case "$in":
        return Array.isArray(operand) && operand.includes(actual);
      default: // "$nin"
        return !Array.isArray(operand) || !operand.includes(actual);
    }
  });
}

// Like LangGraph: an object is read as operators only when every key is one; any other object
// is compared by identity, so it matches nothing stored (values come back parsed from JSON).
function isOperatorObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).every((key) => OPERATORS.has(key))
  );
}
