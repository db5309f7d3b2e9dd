/**
 * The web inspector (/ui) end to end: a real server over SQLite, Debian's chromium through
 * playwright-core. Locators use the inspector's accessible names only (roles and labels).
 * Needs /usr/bin/chromium (scripts/setup-chromium.sh) and the built inspector (dist/ui): a
 * missing one fails the suite, it never skips.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  launchChromium,
  openPage,
  requireBrowserPrerequisites,
  screenshotDir,
  startUiServer,
  TOKEN_A,
  TOKEN_ALL,
  type UiServer,
  WAIT_MS,
} from "./ui-harness.js";
import {
  chooseNamespace,
  listedKeys,
  nav,
  openEntries,
  openEntry,
  result,
  search,
  view,
  visibleText,
} from "./ui-page.js";

const poll = { timeout: WAIT_MS, interval: 200 };

let server: UiServer | undefined;
let browser: Browser | undefined;
let context: BrowserContext | undefined;
/** Uncaught errors in the page (a CSP violation, a crash in a view): every test ends with none. */
let pageErrors: string[] = [];

beforeAll(async () => {
  requireBrowserPrerequisites();
  server = await startUiServer();
  browser = await launchChromium();
});

afterEach(async () => {
  await context?.close();
  context = undefined;
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

async function newPage(): Promise<Page> {
  if (!browser || !server) throw new Error("the suite's beforeAll did not finish");
  const opened = await openPage(browser);
  context = opened.context;
  pageErrors = [];
  opened.page.on("pageerror", (error) => pageErrors.push(error.message));
  return opened.page;
}

/** Opens /ui without a token: the inspector asks for one (the API answers 401). */
async function signIn(token: string): Promise<Page> {
  const page = await newPage();
  await page.goto(`${server?.url}/ui`);
  await page.getByLabel("Token").fill(token);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect.poll(() => page.getByLabel("Token").count(), poll).toBe(0);
  await page.getByRole("link", { name: "Entries", exact: true }).waitFor();
  return page;
}

describe("web inspector in chromium", { timeout: 120_000 }, () => {
  it("a token scoped to namespace a never shows namespace b", async () => {
    const page = await signIn(TOKEN_A);

    await nav(page, "Namespaces").click();
    const namespaces = view(page, "namespaces");
    await namespaces.waitFor();
    await expect.poll(() => visibleText(namespaces), poll).toMatch(/\ba\b/);
    expect(await visibleText(namespaces)).not.toMatch(/\bb\b/);
    const choices = await page
      .getByLabel(/^Namespace\b/)
      .first()
      .locator("option")
      .allTextContents();
    expect(choices).not.toContain("b");

    await openEntries(page, "a");
    await expect.poll(() => listedKeys(page), poll).toContain("a-note-01");
    const keys = await listedKeys(page);
    expect(keys.filter((key) => key.startsWith("b-"))).toEqual([]);

    // b's only word: no result, and nothing of b on the page.
    await search(page, "a", "zeppelin hangar");
    expect(await page.getByRole("listitem").count()).toBe(0);
    expect(await visibleText(page.locator("body"))).not.toContain("b-secret-plan");
    expect(await visibleText(page.locator("body"))).not.toContain("zeppelin hangar access");

    // b's entry by its address (the entry page's URL with a's namespace and key swapped for b's).
    await openEntry(page, "a", "a-note-01");
    const entryUrl = page.url();
    const foreignUrl = entryUrl
      .replaceAll("a-note-01", "b-secret-plan")
      .replace(/([/=])a(?=[/&?#]|$)/, "$1b");
    expect(foreignUrl, `could not derive b's entry URL from ${entryUrl}`).not.toBe(entryUrl);
    await page.goto(foreignUrl);
    await page.reload();
    await page.getByRole("alert").first().waitFor();
    // The server refused it (403 FORBIDDEN), not a missing-entry or network error.
    expect(await visibleText(page.getByRole("alert"))).toContain("FORBIDDEN");
    expect(await visibleText(page.locator("body"))).not.toContain("zeppelin");
    expect(pageErrors).toEqual([]);
  });

  it("search shows a matching entry and why it ranked", async () => {
    const page = await signIn(TOKEN_ALL);
    await search(page, "a", "lighthouse tide");
    const item = result(page, "a-lighthouse").first();
    await item.waitFor();
    const why = item.getByRole("region", { name: "Why it ranked" });
    await why.waitFor();
    const text = await visibleText(why);
    for (const label of ["keyword", "vector", "fused", "decay", "score"]) {
      expect(text, `"Why it ranked" lacks ${label}: ${text}`).toMatch(new RegExp(label, "i"));
    }
    expect(text, "no numbers in the explanation").toMatch(/\d\.\d/);
    expect(pageErrors).toEqual([]);
  });

  it('search with "Why not?" lists the dropped candidates with their reasons', async () => {
    const page = await signIn(TOKEN_ALL);
    await nav(page, "Search").click();
    await chooseNamespace(page, "a");
    await page.getByLabel("Query").fill("lighthouse tide");
    await page.getByLabel("Why not?").check();
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const whyNot = view(page, "search").getByRole("region", { name: "Why not" });
    await whyNot.waitFor();
    const text = await visibleText(whyNot);
    // The 14 other notes of namespace a are vector candidates far below the threshold.
    expect(text).toMatch(/Why not\? \d+ dropped candidates/);
    expect(text).toContain("under threshold");
    expect(text).toMatch(/score [\d.]+ \(relevance [\d.]+ x decay [\d.]+\) < minScore 0\.3/);
    expect(text).toContain("a-note-");
    // The kept result is not among the dropped ones; each dropped one shows its score's parts.
    expect(await whyNot.getByRole("link", { name: "a-lighthouse", exact: true }).count()).toBe(0);
    expect(await whyNot.getByRole("region", { name: "Why it ranked" }).count()).toBeGreaterThan(0);
    expect(pageErrors).toEqual([]);
  });

  it("edits an entry and recalls the new content", async () => {
    const page = await signIn(TOKEN_ALL);
    await openEntry(page, "a", "a-note-05");
    await page.getByRole("button", { name: "Edit", exact: true }).click();
    const content = page.getByLabel("Content");
    await content.fill("Quarterly roadmap moved: the marzipan launch now comes first.");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(() => page.getByLabel("Content").count(), poll).toBe(0);
    await expect
      .poll(() => visibleText(page.locator("body")), poll)
      .toContain("the marzipan launch now comes first");
    expect((await server?.memory.get("a-note-05", { namespace: "a" }))?.content).toContain(
      "marzipan",
    );

    await search(page, "a", "marzipan");
    await result(page, "a-note-05").first().waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("forgets an entry after confirmation", async () => {
    const page = await signIn(TOKEN_ALL);
    await openEntry(page, "a", "a-note-07");
    await page.getByRole("button", { name: "Forget", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Confirm", exact: true }).click();
    await expect.poll(() => server?.memory.get("a-note-07", { namespace: "a" }), poll).toBeNull();

    await openEntries(page, "a");
    await expect.poll(() => listedKeys(page), poll).toContain("a-note-01");
    expect(await listedKeys(page)).not.toContain("a-note-07");

    // a-note-07 was the "password rotation policy for shared service accounts" note.
    await search(page, "a", "password rotation policy");
    expect(await result(page, "a-note-07").count()).toBe(0);
    expect(await visibleText(view(page, "search"))).not.toContain("password rotation policy");
    expect(pageErrors).toEqual([]);
  });

  it("an entry page lists its relations both ways and follows them to the other entries", async () => {
    const memory = server!.memory;
    await memory.store({ key: "ui-rain", content: "It rained all morning", namespace: "a" });
    await memory.store({ key: "ui-late", content: "The user was late to work", namespace: "a" });
    await memory.store({ key: "ui-boss", content: "The boss was annoyed", namespace: "a" });
    await memory.relate("ui-rain", "ui-late", "causes", { namespace: "a", weight: 0.6 });
    await memory.relate("ui-late", "ui-boss", "causes", { namespace: "a" });
    const page = await signIn(TOKEN_ALL);
    await openEntry(page, "a", "ui-late");
    const relations = page.getByRole("region", { name: "Relations" });
    await relations.getByRole("link", { name: "ui-boss", exact: true }).waitFor();
    const items = await relations.getByRole("listitem").allInnerTexts();
    // Strongest first: the outgoing edge (weight 1), then the incoming one.
    expect(items).toEqual([
      "causes → ui-boss (weight 1.00)",
      "← causes from ui-rain (weight 0.60)",
    ]);

    await relations.getByRole("link", { name: "ui-rain", exact: true }).click();
    await page.getByRole("heading", { name: "ui-rain", exact: true }).waitFor();
    const back = page.getByRole("region", { name: "Relations" });
    await back.getByRole("link", { name: "ui-late", exact: true }).waitFor();
    expect(await visibleText(back)).toContain("causes → ui-late (weight 0.60)");

    await memory.forget("ui-late", { namespace: "a" });
    await page.reload();
    await expect
      .poll(() => visibleText(page.getByRole("region", { name: "Relations" })), poll)
      .toContain("No relation");
    expect(pageErrors).toEqual([]);
  });

  it("an entry page explains its conflict decision, and a superseded one says by which key and why", async () => {
    const memory = server!.memory;
    await memory.store({ key: "ui-diet-1", content: "The user is vegetarian", namespace: "a" });
    const newer = await memory.store({
      key: "ui-diet-2",
      content: "The user is not vegetarian",
      namespace: "a",
    });
    expect(newer.conflict?.superseded).toEqual(["ui-diet-1"]);
    const page = await signIn(TOKEN_ALL);
    await openEntry(page, "a", "ui-diet-2");
    const decision = page.getByRole("region", { name: "Conflict decision" });
    await decision.waitFor();
    const text = await visibleText(decision);
    expect(text).toContain("Read as: @user · diet");
    expect(text).toContain("negated");
    const row = decision.getByRole("row").filter({ hasText: "ui-diet-1" });
    const cells = await row.getByRole("cell").allInnerTexts();
    expect(cells[0]).toMatch(/^\d\.\d{3}$/); // the score
    expect(cells.slice(1, 3)).toEqual(["superseded", "negated"]);
    expect(cells[3]).toMatch(/negated/);

    // The candidate's link leads to the superseded entry, which says by which key and why.
    await row.getByRole("link", { name: "ui-diet-1", exact: true }).click();
    await page.getByRole("heading", { name: "ui-diet-1", exact: true }).waitFor();
    const why = page.getByRole("region", { name: "Why it is superseded" });
    await why.waitFor();
    expect(await visibleText(why)).toMatch(/Superseded by ui-diet-2 \(negated: .*negated/);
    await why.getByRole("link", { name: "ui-diet-2", exact: true }).waitFor();

    // Made current again from the page: the mark and its reason are gone, in the store too.
    await why.getByRole("button", { name: "Make current again" }).click();
    await expect.poll(() => why.count(), poll).toBe(0);
    const restored = await memory.get("ui-diet-1", { namespace: "a" });
    expect(restored?.supersededBy).toBeUndefined();
    expect(restored?.supersessionRecord).toBeUndefined();

    // A same-key store kept the previous content: the entry page lists it under its version key.
    await memory.store({ key: "ui-plan", content: "Ship on Monday", namespace: "a" });
    await memory.store({ key: "ui-plan", content: "Ship on Friday", namespace: "a" });
    await openEntry(page, "a", "ui-plan");
    const versions = page.getByRole("region", { name: "Earlier versions" });
    await versions.getByRole("link", { name: "ui-plan::history:1", exact: true }).waitFor();
    expect(await visibleText(versions)).toContain("Ship on Monday");
    await openEntry(page, "a", "ui-diet-2");
    await expect
      .poll(() => visibleText(page.getByRole("region", { name: "Earlier versions" })), poll)
      .toContain("No earlier version");
    expect(pageErrors).toEqual([]);
  });

  it("pins and snoozes an entry from its page; the inspector's own searches record no usage", async () => {
    const page = await signIn(TOKEN_ALL);
    const stored = () => server!.memory.get("a-lighthouse", { namespace: "a" });
    const button = (name: string) => page.getByRole("button", { name, exact: true });
    await openEntry(page, "a", "a-lighthouse");
    await button("Pin").click();
    await button("Unpin").waitFor();
    expect((await stored())?.pinned).toBe(true);
    expect(await visibleText(page.getByRole("status"))).toContain('Pinned "a-lighthouse".');
    await button("Snooze (7 days)").click();
    await button("Unsnooze").waitFor();
    expect((await stored())?.snoozedUntil).toEqual(expect.any(String));
    expect(await visibleText(page.locator("dl.meta"))).toMatch(/Snoozed until/);

    // Snoozed: search leaves it out, "Include snoozed" shows it (marked).
    await search(page, "a", "lighthouse tide");
    expect(await result(page, "a-lighthouse").count()).toBe(0);
    await page.getByLabel("Include snoozed").check();
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await result(page, "a-lighthouse").first().waitFor();
    expect(await visibleText(result(page, "a-lighthouse").first())).toContain("snoozed");

    await openEntry(page, "a", "a-lighthouse");
    await button("Unsnooze").click();
    await button("Snooze (7 days)").waitFor();
    await button("Unpin").click();
    await button("Pin").waitFor();
    const after = await stored();
    expect(after?.pinned).toBeUndefined();
    expect(after?.snoozedUntil).toBeUndefined();
    // Every search of this suite ran with track: false: nothing counts as surfaced.
    const usage = await server!.memory.usage({ namespace: "a", limit: 1000 });
    expect(usage.entries.filter((entry) => entry.stats.surfaced > 0)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it("screenshots of the main views", async () => {
    const page = await signIn(TOKEN_ALL);
    const { dir, keep } = screenshotDir();
    const shot = async (name: string) => {
      await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false });
    };
    try {
      await nav(page, "Namespaces").click();
      await view(page, "namespaces").waitFor();
      await expect.poll(() => visibleText(view(page, "namespaces")), poll).toMatch(/\bb\b/);
      await shot("namespaces");

      await openEntries(page, "a");
      await expect.poll(() => listedKeys(page), poll).toContain("a-note-01");
      await shot("entries");

      await openEntry(page, "a", "a-lighthouse");
      await shot("entry");

      await search(page, "a", "coffee espresso");
      await result(page, "a-note-01")
        .first()
        .getByRole("region", { name: "Why it ranked" })
        .waitFor();
      await shot("search");

      await nav(page, "Jobs").click();
      await view(page, "jobs").waitFor();
      await shot("jobs");

      await nav(page, "Health").click();
      await view(page, "health").waitFor();
      await shot("health");
    } finally {
      if (!keep) rmSync(dir, { recursive: true, force: true });
    }
    expect(pageErrors).toEqual([]);
  });
});
