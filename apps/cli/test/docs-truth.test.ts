import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { MEMORY_SETTING_KEYS } from "@memory/api";
import { CONFIG_TABLE_KEYS } from "@memory/core";
import { serverSettingsSchema } from "@memory/server";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../src/cli/program.js";
import { fencedBlocks, REPO } from "./helpers/markdown-snippets.js";

// The docs name only what exists: workspace packages, `memory` commands and memory.toml keys,
// all derived from the code. A design that is not built yet stays in the docs when the same
// table row, toml line or paragraph says "planned".

const read = (file: string) => readFileSync(path.join(REPO, file), "utf8");
const dirs = (parent: string) =>
  readdirSync(path.join(REPO, parent), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${parent}/${entry.name}`);
const WORKSPACES = [...dirs("packages"), ...dirs("apps")].filter((dir) =>
  existsSync(path.join(REPO, dir, "package.json")),
);

const DOCS = [
  "README.md",
  ...readdirSync(path.join(REPO, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
  ...WORKSPACES.map((dir) => `${dir}/README.md`).filter((file) =>
    existsSync(path.join(REPO, file)),
  ),
];

const PACKAGES = new Set(
  WORKSPACES.map((dir) => (JSON.parse(read(`${dir}/package.json`)) as { name: string }).name),
);
/** `backend = "<name>"` loads `@memory/<name>`, which must have a createMemoryFromConfig. */
const BACKENDS = new Set([
  "none",
  ...dirs("packages")
    .filter((dir) => existsSync(path.join(REPO, dir, "src/create-memory-from-config.ts")))
    .map((dir) => path.basename(dir)),
]);

function commandNames(program: Command): Map<string, Set<string>> {
  return new Map(
    program.commands.map((command) => [
      command.name(),
      new Set(command.commands.map((child) => child.name())),
    ]),
  );
}
const COMMANDS = commandNames(buildProgram({} as never, {} as never));

function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");
}
function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(REPO, dir), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => `${dir}/${name}`);
}
const CODE = WORKSPACES.flatMap((dir) =>
  existsSync(path.join(REPO, dir, "src")) ? sourceFiles(`${dir}/src`) : [],
)
  .filter((file) => !file.endsWith("config/config-schema.ts"))
  .map((file) => stripComments(read(file)))
  .join("\n");

/** `[memory]` keys the schema accepts but no code reads: documented only as planned. */
const UNREAD_MEMORY_KEYS = new Set<string>(
  MEMORY_SETTING_KEYS.filter((key) => !new RegExp(`\\b${key}\\b`).test(CODE)),
);

/** The keys of each memory.toml table, from the schema or the code that reads the table. */
function tableKeys(section: string): Set<string> | undefined {
  if (section === "server") return new Set(Object.keys(serverSettingsSchema.shape));
  // The one list loadConfig checks every table against.
  const keys = (CONFIG_TABLE_KEYS as Record<string, readonly string[]>)[section];
  return keys ? new Set(keys) : undefined;
}

interface Finding {
  file: string;
  line: number;
  problem: string;
}

/** Table rows and list items on their own, other text by paragraph. */
function units(markdown: string): { text: string; line: number }[] {
  const result: { text: string; line: number }[] = [];
  let current: { text: string; line: number } | undefined;
  markdown.split("\n").forEach((text, index) => {
    const single = /^\s*(\||[-*] |\d+\. )/.test(text);
    if (text.trim() === "" || single || !current) {
      if (current) result.push(current);
      current = text.trim() === "" ? undefined : { text, line: index + 1 };
      if (single && current) {
        result.push(current);
        current = undefined;
      }
    } else {
      current.text += `\n${text}`;
    }
  });
  if (current) result.push(current);
  return result;
}

const planned = (text: string) => /\bplanned\b/i.test(text);

/** The first word after `memory` (and after a subcommand group's name), in a command line. */
function commandProblems(commandLine: string): string[] {
  const problems: string[] = [];
  for (const segment of commandLine.split(/&&|\|\||[|;]|\$\(/)) {
    const words = segment
      .trim()
      .replace(/^\$\s+/, "")
      .split(/\s+/);
    while (words[0] === "pnpm" || words[0] === "npx" || words[0] === "-s") words.shift();
    if (words.shift() !== "memory") continue;
    while (words[0]?.startsWith("-")) {
      const option = words.shift();
      if (option === "--config") words.shift();
    }
    const [name, sub] = words;
    if (!name || !/^[a-z][a-z-]*$/.test(name)) continue;
    const children = COMMANDS.get(name);
    if (!children) problems.push(`\`memory ${name}\` is not a command of the CLI`);
    else if (children.size > 0 && sub && /^[a-z][a-z-]*$/.test(sub) && !children.has(sub)) {
      problems.push(`\`memory ${name} ${sub}\` is not a command of the CLI`);
    }
  }
  return problems;
}

function check(file: string): Finding[] {
  const markdown = read(file);
  const findings: Finding[] = [];
  const report = (line: number, problem: string) => findings.push({ file, line, problem });

  for (const unit of units(markdown)) {
    if (planned(unit.text)) continue;
    for (const [, name] of unit.text.matchAll(/@memory\/([a-z][a-z0-9-]*)/g)) {
      if (!PACKAGES.has(`@memory/${name}`)) report(unit.line, `@memory/${name} is not a package`);
    }
    for (const [, section, key] of unit.text.matchAll(/\[([a-z]+)\]\.([a-z_]+)/g)) {
      const keys = tableKeys(section!);
      if (!keys) report(unit.line, `[${section}] is not a memory.toml table`);
      else if (!keys.has(key!)) report(unit.line, `[${section}].${key} is not a key`);
      else if (section === "memory" && UNREAD_MEMORY_KEYS.has(key!)) {
        report(unit.line, `[memory].${key} is read by no code: say it is planned`);
      }
    }
    for (const [, span] of unit.text.matchAll(/`([^`\n]+)`/g)) {
      if (/^(pnpm |npx )?memory /.test(span!)) {
        for (const problem of commandProblems(span!)) report(unit.line, problem);
      }
      const backend = /^backend = "([^"]+)"/.exec(span!);
      if (backend && !BACKENDS.has(backend[1]!)) {
        report(unit.line, `backend "${backend[1]}" has no package`);
      }
    }
    // Rows of a table of [memory] keys (docs/configuration.md): unread keys are "planned".
    const row = /^\|\s*`([a-z_]+)`/.exec(unit.text);
    if (row && file === "docs/configuration.md" && UNREAD_MEMORY_KEYS.has(row[1]!)) {
      report(unit.line, `[memory].${row[1]} is read by no code: say it is planned`);
    }
  }

  for (const block of fencedBlocks(markdown)) {
    const lines = block.code.split("\n");
    if (["sh", "bash", "shell", "console", ""].includes(block.lang)) {
      lines.forEach((text, index) => {
        const command = text.replace(/\s#.*$/, "").replace(/^#.*$/, "");
        for (const problem of commandProblems(command)) report(block.line + 1 + index, problem);
      });
    }
    if (block.lang !== "toml") continue;
    let section: string | undefined;
    lines.forEach((text, index) => {
      const line = block.line + 1 + index;
      const header = /^\s*\[\[?([a-z.]+)\]\]?/.exec(text);
      if (header) {
        section = header[1]!.includes(".") ? undefined : header[1];
        if (section && !tableKeys(section) && !planned(text)) {
          report(line, `[${section}] is not a memory.toml table`);
        }
        return;
      }
      const assignment = /^\s*([a-z_]+)\s*=\s*(.*)$/.exec(text);
      if (!assignment || !section || planned(text)) return;
      const [, key, value] = assignment;
      const keys = tableKeys(section);
      if (keys && !keys.has(key!)) report(line, `[${section}].${key} is not a key`);
      if (section === "memory" && UNREAD_MEMORY_KEYS.has(key!)) {
        report(line, `[memory].${key} is read by no code: mark it # planned`);
      }
      const backend = key === "backend" && /^"([^"]+)"/.exec(value!);
      if (backend && !BACKENDS.has(backend[1]!)) {
        report(line, `backend "${backend[1]}" has no package`);
      }
    });
  }
  return findings;
}

describe("the docs name only what the code has", () => {
  it("derives the truth from the code", () => {
    expect(PACKAGES).toContain("@memory/sqlite");
    expect(BACKENDS).toEqual(new Set(["none", "sqlite", "postgres", "lucid", "markdown"]));
    expect(COMMANDS.get("config")).toEqual(new Set(["show", "validate"]));
    expect(tableKeys("postgres")).toContain("max_connections");
    expect(DOCS).toContain("docs/getting-started.md");
  });

  it.each(DOCS)("%s", (file) => {
    const findings = check(file).map(({ line, problem }) => `${file}:${line}: ${problem}`);
    expect(findings).toEqual([]);
  });

  it("the root configuration files and scripts point only at files that exist", () => {
    const sources = [
      "pnpm-workspace.yaml",
      "turbo.json",
      ...readdirSync(path.join(REPO, "scripts"))
        .filter((name) => name.endsWith(".sh"))
        .map((name) => `scripts/${name}`),
    ];
    const dangling = sources.flatMap((file) =>
      [...read(file).matchAll(/\b(?:docs|scripts)\/[\w./-]+\.(?:md|sh|mjs)\b/g)]
        .map(([reference]) => reference)
        .filter((reference) => !existsSync(path.join(REPO, reference)))
        .map((reference) => `${file}: ${reference}`),
    );
    expect(dangling).toEqual([]);
  });

  it("catches a package, a command and keys that do not exist", () => {
    const fake = [
      "Use `@memory/frobnicator` or `memory frobnicate`.",
      "",
      "| `conflict_threshold` | `true` | prunes |",
    ].join("\n");
    const problems = units(fake).flatMap((unit) => [
      ...[...unit.text.matchAll(/@memory\/([a-z]+)/g)]
        .filter(([, name]) => !PACKAGES.has(`@memory/${name}`))
        .map(([match]) => match),
      ...commandProblems("memory frobnicate").filter(() => unit.line === 1),
    ]);
    expect(problems).toEqual([
      "@memory/frobnicator",
      "`memory frobnicate` is not a command of the CLI",
    ]);
    // Every [memory] key is read by some code today (packages/api/test/config-keys-read.test.ts).
    expect([...UNREAD_MEMORY_KEYS]).toEqual([]);
    expect(tableKeys("sqlite")).not.toContain("markdown_dir");
  });
});
