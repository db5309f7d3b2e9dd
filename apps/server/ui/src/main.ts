import { getToken, setToken } from "./api.js";
import {
  clearMessages,
  currentNamespace,
  loadNamespaces,
  setNamespace,
  showError,
  type ViewContext,
} from "./app.js";
import { entriesView, namespacesView } from "./views-browse.js";
import { entryView } from "./views-entry.js";
import { healthView, jobsView } from "./views-ops.js";
import { searchView } from "./views-search.js";

const views: Record<string, (context: ViewContext) => Promise<void> | void> = {
  namespaces: namespacesView,
  entries: entriesView,
  entry: entryView,
  search: searchView,
  jobs: jobsView,
  health: healthView,
};

function parseHash(): { name: string; rest: string[]; params: URLSearchParams } {
  const hash = location.hash.replace(/^#\/?/, "");
  const [path = "", search = ""] = hash.split("?", 2);
  const [name = "namespaces", ...rest] = path.split("/").filter((part) => part !== "");
  let decoded: string[];
  try {
    decoded = rest.map((part) => decodeURIComponent(part));
  } catch {
    decoded = rest;
  }
  return { name, rest: decoded, params: new URLSearchParams(search) };
}

async function route(): Promise<void> {
  const { name, rest, params } = parseHash();
  const view = views[name] ?? namespacesView;
  const root = document.getElementById("view")!;
  // A new view starts without the previous one's error (statuses such as "Forgot" stay).
  for (const alert of document.querySelectorAll("#messages [role=alert]")) alert.remove();
  for (const link of document.querySelectorAll<HTMLAnchorElement>("nav[aria-label=Main] a")) {
    if (link.getAttribute("href") === `#/${name}`) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  try {
    await view({ root, namespace: currentNamespace(), params, rest });
  } catch (error) {
    showError(error);
  }
}

async function start(): Promise<void> {
  const signOut = document.getElementById("sign-out")!;
  signOut.hidden = getToken() === null;
  try {
    await loadNamespaces();
  } catch (error) {
    showError(error);
    return;
  }
  await route();
}

document.getElementById("namespace")!.addEventListener("change", (event) => {
  setNamespace((event.target as HTMLSelectElement).value);
  clearMessages();
  void route();
});
document.getElementById("sign-out")!.addEventListener("click", () => {
  setToken(null);
  location.reload();
});
window.addEventListener("hashchange", () => {
  void route();
  document.getElementById("view")?.focus({ preventScroll: true });
});
window.addEventListener("memory:signed-in", () => void start());
// Errors from event handlers (form submits) land in the same alert.
window.addEventListener("unhandledrejection", (event) => showError(event.reason));
void start();
