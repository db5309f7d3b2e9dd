// Runs in a fresh npm project that installed the packed tarballs (see test/pack-install.test.ts).
// Stores and recalls with the offline `local` model, then prints one JSON line for the test.
import { createLocalEmbeddings } from "@memory/embeddings/local";
import { buildMemoryContext } from "@memory/lifecycle";
import { createSqliteMemory } from "@memory/sqlite";

const embedder = createLocalEmbeddings();
const memory = createSqliteMemory({ path: process.argv[2], embedder });
try {
  await memory.store({
    key: "coffee",
    content: "The user prefers dark roast coffee",
    category: "core",
  });
  await memory.store({ key: "editor", content: "The user edits code in Neovim", category: "core" });
  // No word in common with the coffee entry: only the embedding can find it.
  const [best] = await memory.recall("favourite morning beverage", { mode: "embedding", limit: 1 });
  const context = await buildMemoryContext(memory, "Which editor do I use?");
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
