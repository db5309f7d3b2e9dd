import type { Entry } from "./api.js";
import { ApiError, type RelationsResponse, request } from "./api.js";
import { entryHref, formatNumber, h } from "./dom.js";

/**
 * The entry's relations (POST /v1/relations/query, both directions, strongest first): each edge
 * says its direction, type and weight and links to the entry at its other end. A backend without
 * relations (501 UNSUPPORTED) says so instead of failing the page.
 */
export function relationsSection(entry: Entry): HTMLElement[] {
  const section = h(
    "section",
    { "aria-labelledby": "relations-title" },
    h("h2", { id: "relations-title" }, "Relations"),
    h("p", { class: "muted" }, "Loading…"),
  );
  void loadRelations(section, entry);
  return [section];
}

async function loadRelations(section: HTMLElement, entry: Entry): Promise<void> {
  const title = h("h2", { id: "relations-title" }, "Relations");
  try {
    const { relations } = await request<RelationsResponse>("POST", "/v1/relations/query", {
      key: entry.key,
      namespace: entry.namespace,
    });
    section.replaceChildren(
      title,
      relations.length === 0
        ? h("p", { class: "muted" }, "No relation: nothing relates this entry to another yet.")
        : h(
            "ul",
            {},
            ...relations.map((relation) => {
              const outgoing = relation.from === entry.key;
              const other = outgoing ? relation.to : relation.from;
              return h(
                "li",
                {},
                outgoing ? `${relation.type} → ` : `← ${relation.type} from `,
                h("a", { href: entryHref(entry.namespace, other) }, other),
                ` (weight ${formatNumber(relation.weight, 2)})`,
              );
            }),
          ),
    );
  } catch (error) {
    const unsupported = error instanceof ApiError && error.code === "UNSUPPORTED";
    section.replaceChildren(
      title,
      unsupported
        ? h("p", { class: "muted" }, "This backend stores no relations.")
        : h("p", { role: "alert", class: "error" }, (error as Error).message),
    );
  }
}
