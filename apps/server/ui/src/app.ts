import { ApiError, type NamespaceSummary, request, setToken } from "./api.js";
import { h } from "./dom.js";

const NAMESPACE_KEY = "memory.namespace";

/** What every view gets: where to draw, the current namespace, and how to report. */
export interface ViewContext {
  root: HTMLElement;
  namespace: string;
  params: URLSearchParams;
  /** Path segments after the view name (entry: namespace, key). */
  rest: string[];
}

export function currentNamespace(): string {
  return sessionStorage.getItem(NAMESPACE_KEY) ?? "default";
}

export function setNamespace(namespace: string): void {
  sessionStorage.setItem(NAMESPACE_KEY, namespace);
  const select = document.getElementById("namespace") as HTMLSelectElement | null;
  if (select && select.value !== namespace) {
    if (![...select.options].some((option) => option.value === namespace)) {
      select.append(h("option", { value: namespace }, namespace));
    }
    select.value = namespace;
  }
}

export function clearMessages(): void {
  document.getElementById("messages")?.replaceChildren();
}

export function showStatus(text: string): void {
  const messages = document.getElementById("messages");
  messages?.replaceChildren(h("p", { class: "status", role: "status" }, text));
}

/** Shows an error in a role="alert" element; a 401 also brings up the sign-in form. */
export function showError(error: unknown): void {
  const messages = document.getElementById("messages");
  const text =
    error instanceof ApiError
      ? `${error.message} (${error.code})`
      : error instanceof Error
        ? error.message
        : String(error);
  messages?.replaceChildren(h("p", { class: "error", role: "alert" }, text));
  if (error instanceof ApiError && error.status === 401) renderSignIn();
}

export function renderSignIn(): void {
  const root = document.getElementById("view")!;
  const field = h("input", {
    id: "token",
    name: "token",
    type: "password",
    autocomplete: "off",
    required: true,
  });
  const form = h(
    "form",
    { class: "sign-in" },
    h("h1", {}, "Sign in"),
    h(
      "p",
      {},
      "Paste a bearer token of this server. It stays in this tab (sessionStorage) and is sent only to this server.",
    ),
    h("label", { for: "token" }, "Token"),
    field,
    h("button", { type: "submit" }, "Sign in"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    setToken(field.value.trim());
    clearMessages();
    window.dispatchEvent(new Event("memory:signed-in"));
  });
  root.replaceChildren(h("section", { "data-view": "sign-in" }, form));
  field.focus();
}

/** Fills the Namespace select from GET /v1/namespaces. */
export async function loadNamespaces(): Promise<NamespaceSummary[]> {
  const { namespaces } = await request<{ namespaces: NamespaceSummary[] }>("GET", "/v1/namespaces");
  const select = document.getElementById("namespace") as HTMLSelectElement;
  const names = namespaces.map((summary) => summary.namespace);
  let current = currentNamespace();
  if (!names.includes(current)) {
    if (names.length > 0 && !names.includes("default")) current = names[0]!;
    if (!names.includes(current)) names.unshift(current);
  }
  select.replaceChildren(...names.map((name) => h("option", { value: name }, name)));
  setNamespace(current);
  return namespaces;
}
