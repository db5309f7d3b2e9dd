import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_NAMESPACE } from "@memory/api";
import { entries, isRegular } from "./files/file-stamp.js";
import {
  CORE_FILE,
  decodeNamespace,
  isHashedNamespace,
  MEMORY_DIR,
  NAMESPACE_NAME_FILE,
  NAMESPACES_DIR,
} from "./format/layout.js";
import { isSymbolicLink } from "./linked-directory.js";

/** Every Markdown file of the tree at `root`, as (relative path, namespace, inner path). */
export function walkTree(root: string): { path: string; namespace: string; inner: string }[] {
  const found: { path: string; namespace: string; inner: string }[] = [];
  const collect = (dir: string, namespace: string) => {
    const prefix = dir === "" ? "" : `${dir}/`;
    const core = join(root, prefix, CORE_FILE);
    if (isRegular(core)) found.push({ path: `${prefix}${CORE_FILE}`, namespace, inner: CORE_FILE });
    const visit = (relative: string) => {
      for (const item of entries(join(root, prefix, relative))) {
        if (item.name.startsWith(".")) continue; // temp files, state
        const inner = `${relative}/${item.name}`;
        if (item.isDirectory()) visit(inner);
        else if (item.isFile() && item.name.endsWith(".md"))
          found.push({ path: `${prefix}${inner}`, namespace, inner });
      }
    };
    // Linked folders are not followed (nested ones are not directories to readdir's Dirent):
    // a namespace's memory/ linked to another's would show that namespace's entries.
    if (!isSymbolicLink(join(root, prefix, MEMORY_DIR))) visit(MEMORY_DIR);
  };
  collect("", DEFAULT_NAMESPACE);
  const namespaces = join(root, NAMESPACES_DIR);
  for (const item of isSymbolicLink(namespaces) ? [] : entries(namespaces)) {
    if (!item.isDirectory()) continue;
    let namespace = decodeNamespace(item.name);
    if (namespace === undefined && isHashedNamespace(item.name)) {
      try {
        namespace = readFileSync(
          join(root, NAMESPACES_DIR, item.name, NAMESPACE_NAME_FILE),
          "utf8",
        );
      } catch {}
    }
    if (namespace === undefined || namespace === DEFAULT_NAMESPACE) continue;
    collect(`${NAMESPACES_DIR}/${item.name}`, namespace);
  }
  return found;
}
