import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = new URL("..", import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

// Before: sqlite-vec was a runtime dependency loaded on every open for one health line, while
// the package description called it the recall engine. Vector recall is the int8 index; vec0 is
// only the benchmark's reference (README, "Performance notes").
describe("runtime dependencies", () => {
  it("does not ship or load sqlite-vec: it is the benchmark's development dependency", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      description: string;
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(Object.keys(pkg.dependencies)).not.toContain("sqlite-vec");
    expect(Object.keys(pkg.devDependencies)).toContain("sqlite-vec");
    expect(pkg.description).not.toMatch(/sqlite-vec/);
    const importers = sources(join(root, "src")).filter((file) =>
      readFileSync(file, "utf8").includes("sqlite-vec"),
    );
    expect(importers).toEqual([]);
  });
});
