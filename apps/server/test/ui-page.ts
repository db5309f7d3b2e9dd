/**
 * Page helpers of the web inspector's browser tests: locators by accessible names (roles and
 * labels) and the few steps every test takes (open a view, choose a namespace, search).
 */
import type { Locator, Page } from "playwright-core";

/** The rendered (visible) text of everything `locator` matches. */
export async function visibleText(locator: Locator): Promise<string> {
  return (await locator.allInnerTexts()).join("\n");
}

export function view(page: Page, name: string) {
  return page.locator(`[data-view="${name}"]`);
}

/** The "Namespace" control is a select or a text field; both are supported. */
export async function chooseNamespace(page: Page, namespace: string): Promise<void> {
  const control = page.getByLabel(/^Namespace\b/).first();
  await control.waitFor();
  const tag = await control.evaluate((element) => element.tagName);
  if (tag === "SELECT") await control.selectOption(namespace);
  else {
    await control.fill(namespace);
    await control.press("Enter");
  }
}

export function nav(page: Page, name: string) {
  return page.getByRole("link", { name, exact: true }).first();
}

export async function openEntries(page: Page, namespace: string): Promise<void> {
  await nav(page, "Entries").click();
  await chooseNamespace(page, namespace);
  await view(page, "entries").getByRole("table").waitFor();
}

export async function openEntry(page: Page, namespace: string, key: string): Promise<void> {
  await openEntries(page, namespace);
  await view(page, "entries").getByRole("link", { name: key, exact: true }).click();
  await page.getByRole("heading", { name: key, exact: true }).waitFor();
}

export async function search(page: Page, namespace: string, query: string): Promise<void> {
  await nav(page, "Search").click();
  await chooseNamespace(page, namespace);
  await page.getByLabel("Query").fill(query);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  // The results (possibly none) are drawn as a list.
  await view(page, "search").getByRole("list").waitFor({ state: "attached" });
}

export function result(page: Page, key: string) {
  return page.getByRole("listitem").filter({ hasText: key });
}

/** Text of every table row link (the keys listed in the Entries view). */
export async function listedKeys(page: Page): Promise<string[]> {
  return view(page, "entries").getByRole("table").getByRole("link").allInnerTexts();
}
