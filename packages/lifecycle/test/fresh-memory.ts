import { createInMemoryMemory, type InMemoryMemoryOptions } from "@memory/testkit";
import { afterEach } from "vitest";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((memory) => memory.close()));
});

/** A fresh reference in-memory backend, closed after the current test. */
export function fresh(options: InMemoryMemoryOptions = {}) {
  const memory = createInMemoryMemory(options);
  open.push(memory);
  return memory;
}
