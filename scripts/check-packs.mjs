// Checks packed tarballs for what a user outside this repository needs, and prints their sizes.
// Usage: node scripts/check-packs.mjs <tarball>...  (run by scripts/pack-all.sh)
// Exits 1, naming each problem and its fix, when a tarball would not install or import cleanly.
import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import path from "node:path";

const DEPENDENCY_FIELDS = [
  "dependencies",
  "peerDependencies",
  "optionalDependencies",
  "devDependencies",
];

/** Every file path an `exports` map points at ("./dist/x.mjs"), at any nesting depth. */
function exportTargets(exports) {
  if (typeof exports === "string") return [exports];
  if (exports === null || typeof exports !== "object") return [];
  return Object.values(exports).flatMap(exportTargets);
}

function problemsOf(manifest, files) {
  const problems = [];
  const has = (file) => files.has(file);
  if (!has("README.md")) problems.push("no README.md (add one to the package directory)");
  if (!has("LICENSE")) problems.push("no LICENSE (copy the root LICENSE into the package)");
  if (!manifest.license) problems.push('no "license" field in package.json');
  if (!manifest.engines?.node) problems.push('no "engines.node" field in package.json');
  if (manifest.type !== "module") problems.push('"type" is not "module" (the packages are ESM)');
  if (manifest.exports === undefined) problems.push('no "exports" map in package.json');
  for (const target of exportTargets(manifest.exports)) {
    if (!has(path.posix.normalize(target))) {
      problems.push(`exports names ${target}, which is not in the tarball (build first?)`);
    }
  }
  for (const bin of Object.values(
    typeof manifest.bin === "string" ? { bin: manifest.bin } : (manifest.bin ?? {}),
  )) {
    if (!has(path.posix.normalize(bin))) problems.push(`bin ${bin} is not in the tarball`);
  }
  for (const field of DEPENDENCY_FIELDS) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (String(range).startsWith("workspace:")) {
        problems.push(`${field}.${name} is still "${range}" (pack with pnpm, not npm)`);
      }
    }
  }
  return problems;
}

const tarballs = process.argv.slice(2);
let failed = false;
const rows = [];
for (const tarball of tarballs) {
  const listing = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" });
  const files = new Set(
    listing
      .split("\n")
      .filter((line) => line.startsWith("package/") && !line.endsWith("/"))
      .map((line) => line.slice("package/".length)),
  );
  const manifest = JSON.parse(
    execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }),
  );
  const problems = problemsOf(manifest, files);
  for (const problem of problems) console.error(`${manifest.name}: ${problem}`);
  failed ||= problems.length > 0;
  rows.push([manifest.name, String(statSync(tarball).size), String(files.size), tarball]);
}

const header = ["package", "bytes", "files", "tarball"];
const widths = header.map((title, column) =>
  Math.max(title.length, ...rows.map((row) => row[column].length)),
);
for (const row of [header, ...rows]) {
  console.log(row.map((cell, column) => cell.padEnd(widths[column])).join("  "));
}
if (failed) {
  console.error("pack-all: some tarballs are not installable as they are (see above)");
  process.exit(1);
}
