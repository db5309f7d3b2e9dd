import { expect } from "vitest";

/** Element-wise closeness that also fails when the vector is missing or has the wrong length. */
export function expectClose(
  actual: readonly number[] | undefined,
  expected: readonly number[],
  digits = 5,
): void {
  expect(actual).toBeDefined();
  expect(actual).toHaveLength(expected.length);
  for (const [index, value] of expected.entries()) {
    expect(actual?.[index]).toBeCloseTo(value, digits);
  }
}
