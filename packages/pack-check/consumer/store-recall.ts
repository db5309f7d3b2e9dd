// The TypeScript twin of store-recall.mjs: type-checked by tsc (strict, no skipLibCheck) against
// the installed packages' declarations, then run from its emitted JavaScript.
import type { Memory, MemoryEntry } from "@memory/api";
import { createLocalEmbeddings } from "@memory/embeddings/local";
import { buildMemoryContext, type MemoryContext } from "@memory/lifecycle";
import { createSqliteMemory } from "@memory/sqlite";

const path: string | undefined = process.argv[2];
if (path === undefined) throw new Error("usage: node store-recall.js <database file>");
const embedder = createLocalEmbeddings();
const memory: Memory = createSqliteMemory({ path, embedder });
try {
  await memory.store({
    key: "coffee",
    content: "The user prefers dark roast coffee",
    category: "core",
  });
  await memory.store({ key: "editor", content: "The user edits code in Neovim", category: "core" });
  const results: MemoryEntry[] = await memory.recall("favourite morning beverage", {
    mode: "embedding",
    limit: 1,
  });
  const context: MemoryContext = await buildMemoryContext(memory, "Which editor do I use?");
  const best = results[0];
  console.log(
    JSON.stringify({
      key: best?.key,
      cosine: best?.explain?.cosine,
      dimensions: embedder.dimensions,
      context: context.text,
    }),
  );
} finally {
  await memory.close();
  await embedder.close();
}
