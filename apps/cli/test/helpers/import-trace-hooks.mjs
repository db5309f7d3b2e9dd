// Module resolve hook: appends every resolved URL to $IMPORT_TRACE_FILE, so tests can check
// which modules a command loaded.
import { appendFileSync } from "node:fs";

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  if (process.env.IMPORT_TRACE_FILE)
    appendFileSync(process.env.IMPORT_TRACE_FILE, `${result.url}\n`);
  return result;
}
