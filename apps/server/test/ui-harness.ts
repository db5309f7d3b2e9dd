/**
 * Harness for the web inspector's browser tests (ui-e2e.test.ts): a real server on loopback over
 * a real SQLite store, and Debian's chromium driven by playwright-core (which never downloads a
 * browser; scripts/setup-chromium.sh installs it).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Memory } from "@memory/api";
import { createTestEmbedder } from "@memory/testkit";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { type ServerHandle, silentLogger, startServer } from "../src/index.js";
import { requireSqliteBuilt } from "./backends.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const CHROMIUM_PATH = "/usr/bin/chromium";
/** The inspector's build output, which the server serves at /ui (see src/ui-static.ts). */
export const UI_DIST = path.join(root, "dist/ui");
/** Where the screenshots of the main views are kept (docs/ui/README.md lists them). */
export const SCREENSHOT_DIR = path.resolve(root, "../../docs/ui");
/** Generous: a loaded 2-core CI machine, a cold chromium. Nothing asserts on time. */
export const WAIT_MS = 30_000;

const PORT_FIRST = 19150;
const PORT_LAST = 19199;

export const TOKEN_ALL = "ui-e2e-token-all-namespaces-0123456789";
export const TOKEN_A = "ui-e2e-token-namespace-a-0123456789";

/**
 * Fails (never skips) when the browser or the built inspector is missing: a skipped browser test
 * would let CI pass without testing what users see.
 */
export function requireBrowserPrerequisites(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: run scripts/setup-chromium.sh (installs Debian's chromium; ` +
        "the browser tests never download a browser).",
    );
  }
  if (!existsSync(path.join(UI_DIST, "index.html"))) {
    throw new Error(
      `${path.join(UI_DIST, "index.html")} is missing: the web inspector is not built ` +
        "(run `pnpm exec turbo run build --filter @memory/server`).",
    );
  }
  requireSqliteBuilt();
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-background-networking",
      "--disable-component-update",
    ],
    timeout: WAIT_MS * 2,
  });
}

/** A fresh context (no stored token) and page at a legible 1280x800, with 30 s waits. */
export async function openPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(WAIT_MS);
  const page = await context.newPage();
  return { context, page };
}

export interface SeededEntry {
  key: string;
  namespace: string;
  content: string;
}

const TOPICS = [
  "coffee brewing notes: the team prefers espresso before standup",
  "deployment checklist for the billing service rollout",
  "the user's dog is called Pixel and likes long walks",
  "database migration plan for the archive tables",
  "meeting summary about quarterly roadmap priorities",
  "travel preferences: window seat, vegetarian meals",
  "password rotation policy for shared service accounts",
  "house renovation budget and contractor contacts",
  "bug triage rules for flaky integration tests",
  "reading list on distributed consensus algorithms",
  "onboarding notes for the new support engineers",
  "incident retrospective for the cache outage",
  "preferred code review etiquette and turnaround",
  "garden watering schedule for the summer months",
];

/** The seeded entries: 14 per namespace plus one entry in each with a word found only there. */
export function seedEntries(): SeededEntry[] {
  const entries: SeededEntry[] = [];
  for (const namespace of ["a", "b"]) {
    TOPICS.forEach((topic, index) => {
      const n = String(index + 1).padStart(2, "0");
      entries.push({
        key: `${namespace}-note-${n}`,
        namespace,
        content: `${topic} (${namespace})`,
      });
    });
  }
  entries.push({
    key: "a-lighthouse",
    namespace: "a",
    content: "The lighthouse keeper logs the tide tables every morning at six.",
  });
  entries.push({
    key: "b-secret-plan",
    namespace: "b",
    content: "Namespace b only: the zeppelin hangar access code is kept in the vault.",
  });
  return entries;
}

export interface UiServer {
  url: string;
  memory: Memory;
  handle: ServerHandle;
  entries: SeededEntry[];
  close(): Promise<void>;
}

/**
 * A real server on an ephemeral loopback port over SQLite on a temp file (with the testkit's
 * deterministic embedder, so recall has keyword and vector stages), seeded through the library.
 */
export async function startUiServer(): Promise<UiServer> {
  const dir = mkdtempSync(path.join(tmpdir(), "memory-ui-e2e-"));
  const { createSqliteMemory } = (await import("@memory/sqlite")) as {
    createSqliteMemory(options: { path: string; embedder?: unknown }): Memory;
  };
  const memory = createSqliteMemory({
    path: path.join(dir, "brain.db"),
    embedder: createTestEmbedder(),
  });
  const entries = seedEntries();
  for (const entry of entries) await memory.store(entry);
  let handle: ServerHandle | undefined;
  try {
    // The first free port of this suite's range (19150-19199: away from other suites' ports).
    for (let port = PORT_FIRST; port <= PORT_LAST && !handle; port++) {
      try {
        handle = await startServer({
          host: "127.0.0.1",
          port,
          env: {},
          logger: silentLogger,
          memory,
          tokens: [
            { token: TOKEN_ALL, namespaces: ["*"] },
            { token: TOKEN_A, namespaces: ["a"] },
          ],
        });
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause;
        if (cause?.code !== "EADDRINUSE" || port === PORT_LAST) throw error;
      }
    }
    if (!handle) throw new Error(`no free port in ${PORT_FIRST}-${PORT_LAST}`);
  } catch (error) {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const server = handle;
  return {
    url: server.url,
    memory,
    handle: server,
    entries,
    async close() {
      await server.close();
      await memory.close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Where screenshots go: docs/ui with UPDATE_UI_SCREENSHOTS=1, else a temp dir (no repo churn). */
export function screenshotDir(): { dir: string; keep: boolean } {
  if (process.env.UPDATE_UI_SCREENSHOTS === "1") {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    return { dir: SCREENSHOT_DIR, keep: true };
  }
  return { dir: mkdtempSync(path.join(tmpdir(), "memory-ui-shots-")), keep: false };
}
