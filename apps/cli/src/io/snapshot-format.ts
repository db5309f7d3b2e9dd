import type { MemoryEntry } from "@memory/api";

/**
 * The Markdown snapshot of core entries (`memory export --format snapshot`):
 *
 *     # MEMORY snapshot
 *
 *     <!-- memory 0.1.0 · 2026-11-23T09:18:36.123Z · 2 core entries -->
 *
 *     ## namespace: default
 *
 *     - **user_lang**: Prefers TypeScript <!-- created=2026-… updated=2026-… importance=0.9 -->
 *
 * One line per entry, `- **key**: content`, as the Markdown backend and MEMORY_SNAPSHOT.md use.
 * Metadata sits in a trailing HTML comment: invisible when rendered, easy to parse back.
 * Content newlines become indented continuation lines, so an entry stays one list item.
 */
export function snapshotHeader(version: string, exportedAt: string): string {
  return `# MEMORY snapshot\n\n<!-- exported by memory ${version} at ${exportedAt}; core entries only -->\n`;
}

export function snapshotNamespaceHeading(namespace: string): string {
  return `\n## namespace: ${namespace}\n\n`;
}

export function snapshotLine(entry: MemoryEntry): string {
  const meta = [`created=${entry.createdAt}`, `updated=${entry.updatedAt}`];
  if (entry.importance !== undefined) meta.push(`importance=${entry.importance}`);
  if (entry.sessionId !== undefined) meta.push(`session=${entry.sessionId}`);
  const content = entry.content.replace(/\r?\n/g, "\n  ");
  return `- **${entry.key}**: ${content} <!-- ${meta.join(" ")} -->\n`;
}
