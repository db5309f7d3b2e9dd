import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { EmbeddingProvider } from "@memory/api";
import { createTestEmbedder } from "@memory/testkit";

/** An embedding provider that counts the document texts it embeds (query texts aside). */
export function countingEmbedder(inner: EmbeddingProvider = createTestEmbedder()) {
  let documents = 0;
  const count = (texts: number, purpose: string | undefined) => {
    if (purpose !== "query") documents += texts;
  };
  const provider: EmbeddingProvider = {
    name: inner.name,
    model: inner.model,
    dimensions: inner.dimensions,
    fingerprint: inner.fingerprint,
    ...(inner.similarityCalibration ? { similarityCalibration: inner.similarityCalibration } : {}),
    embed: async (texts, options) => {
      count(texts.length, options?.purpose);
      return inner.embed(texts, options);
    },
    embedOne: async (text, options) => {
      count(1, options?.purpose);
      return inner.embedOne(text, options);
    },
  };
  return {
    provider,
    get documents() {
      return documents;
    },
  };
}

export const DECISION = `---
title: Cache invalidation decision
tags: [cache, adr]
authored_at: 2025-03-04T10:00:00+01:00
---
# ADR 7: invalidate the recall cache on every write

## Context

Recall results were served stale after a write because the hot cache kept them for a minute.
Agents saw memories they had just forgotten, which broke trust in the tool.

## Decision

- Invalidate the cache of a namespace on every write the facade makes.
- Keep the time-to-live as a second guard for writes made by other processes.

\`\`\`ts
engine.invalidate(namespace); // after every write batch
cache.expireAfter(recallCacheTtlSeconds * 1000);
logger.debug("recall cache invalidated", { namespace, reason: "write" });
\`\`\`
`;

export const RESEARCH = `# Vector databases compared

We compared pgvector, sqlite-vec and a flat scan for ten thousand notes of research material.
The flat scan was fast enough below fifty thousand vectors on a laptop.
`;

export const PLAIN = `Remember to water the ficus plant every Sunday morning before the garden market opens.
`;

/** Writes `files` (relative path -> text) under `root`. */
export function writeNotes(root: string, files: Record<string, string>): void {
  for (const [relative, text] of Object.entries(files)) {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}

/** The standard folder: three notes that are indexed, and notes every skip rule hides. */
export function writeStandardNotes(root: string): void {
  writeNotes(root, {
    "decisions/0007-cache.md": DECISION,
    "research/vector-db.md": RESEARCH,
    "ficus.md": PLAIN,
    ".obsidian/workspace.md": "# hidden ficus obsidian",
    "node_modules/pkg/readme.md": "# ficus vendored",
    "_PRIVATE/diary.md": "# ficus private",
    "drafts/.draft.md": "# ficus dotfile",
    "build/out.md": "# ficus build",
    "vendor/lib.md": "# ficus vendor",
    ".trash/old.md": "# ficus trash",
    "notes.txt": "ficus text file, not matched by the pattern",
  });
}
