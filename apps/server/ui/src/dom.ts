/** A few helpers to build DOM nodes without a framework. Text is always set as text, never HTML. */

type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | undefined | null | EventListener>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, String(value));
  }
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function formatNumber(value: number | undefined, digits = 3): string {
  return value === undefined ? "–" : value.toFixed(digits);
}

export function formatTime(value: string | null | undefined): string {
  if (!value) return "never";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}

export function preview(text: string, length = 140): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}

/** `#/entry/<namespace>/<key>`: both parts encoded, so any key survives. */
export function entryHref(namespace: string, key: string): string {
  return `#/entry/${encodeURIComponent(namespace)}/${encodeURIComponent(key)}`;
}
