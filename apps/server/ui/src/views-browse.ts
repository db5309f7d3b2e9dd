import type { NamespaceSummary } from "./api.js";
import { type Entry, exportNamespace, importNdjson, query, request } from "./api.js";
import { setNamespace, showError, showStatus, type ViewContext } from "./app.js";
import { entryHref, formatTime, h, preview } from "./dom.js";

const PAGE_SIZE = 50;

export async function namespacesView({ root }: ViewContext): Promise<void> {
  const view = h("section", { "data-view": "namespaces" }, h("h1", {}, "Namespaces"));
  root.replaceChildren(view);
  const { namespaces } = await request<{ namespaces: NamespaceSummary[] }>("GET", "/v1/namespaces");
  const categories = [
    ...new Set([
      "core",
      "daily",
      "conversation",
      ...namespaces.flatMap((n) => Object.keys(n.categories)),
    ]),
  ];
  if (namespaces.length === 0) view.append(h("p", {}, "No entries yet."));
  else
    view.append(
      h(
        "div",
        { class: "scroll" },
        h(
          "table",
          {},
          h("caption", {}, "Entries per namespace and category (superseded counted apart)"),
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", { scope: "col" }, "Namespace"),
              h("th", { scope: "col" }, "Entries"),
              ...categories.map((category) => h("th", { scope: "col" }, category)),
              h("th", { scope: "col" }, "Superseded"),
            ),
          ),
          h(
            "tbody",
            {},
            ...namespaces.map((summary) => {
              const link = h("a", { href: "#/entries" }, summary.namespace);
              link.addEventListener("click", () => setNamespace(summary.namespace));
              return h(
                "tr",
                {},
                h("th", { scope: "row" }, link),
                h("td", { class: "num" }, summary.entries),
                ...categories.map((category) =>
                  h("td", { class: "num" }, summary.categories[category] ?? 0),
                ),
                h("td", { class: "num" }, summary.superseded),
              );
            }),
          ),
        ),
      ),
    );
  view.append(transferSection());
}

function transferSection(): HTMLElement {
  const namespace = () =>
    (document.getElementById("namespace") as HTMLSelectElement).value || "default";
  const exportButton = h("button", { type: "button" }, "Export namespace");
  exportButton.addEventListener("click", async () => {
    try {
      const name = namespace();
      const blob = await exportNamespace(name);
      const url = URL.createObjectURL(blob);
      const link = h("a", { href: url, download: `${name}.ndjson` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      showStatus(`Exported namespace "${name}".`);
    } catch (error) {
      showError(error);
    }
  });
  const file = h("input", { id: "import-file", type: "file", accept: ".ndjson,.jsonl,.json" });
  const into = h("input", { id: "import-into", type: "checkbox", checked: true });
  const form = h(
    "form",
    { class: "row" },
    h("label", { for: "import-file" }, "NDJSON file"),
    file,
    h(
      "label",
      { for: "import-into", class: "check" },
      into,
      " Put every entry into the selected namespace",
    ),
    h("button", { type: "submit" }, "Import"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const chosen = file.files?.[0];
    if (!chosen) return showError(new Error("Choose an NDJSON file to import."));
    try {
      let text = await chosen.text();
      if (into.checked) {
        const name = namespace();
        text = text
          .split("\n")
          .filter((line) => line.trim() !== "")
          .map((line) => {
            try {
              return JSON.stringify({ ...JSON.parse(line), namespace: name });
            } catch {
              return line; // The server reports it as a rejected line.
            }
          })
          .join("\n");
      }
      const report = await importNdjson(text);
      showStatus(
        `Imported ${report.imported}; rejected ${report.rejected.length}${report.rejected
          .slice(0, 3)
          .map((rejection) => ` (line ${rejection.index + 1}: ${rejection.message})`)
          .join("")}.`,
      );
    } catch (error) {
      showError(error);
    }
  });
  return h(
    "section",
    { "aria-labelledby": "transfer-title" },
    h("h2", { id: "transfer-title" }, "Export and import"),
    h("p", {}, exportButton),
    form,
  );
}

export async function entriesView({ root, namespace, params }: ViewContext): Promise<void> {
  const page = Math.max(0, Number(params.get("page") ?? 0) || 0);
  const filter = {
    categories: params.get("category") ?? "",
    sessionId: params.get("session") ?? "",
    since: params.get("since") ?? "",
    until: params.get("until") ?? "",
    includeSuperseded: params.get("superseded") === "1" ? true : undefined,
  };
  const field = (id: string, label: string, value: string, type = "text") =>
    h(
      "div",
      { class: "field" },
      h("label", { for: id }, label),
      h("input", { id, name: id, type, value }),
    );
  const superseded = h("input", {
    id: "superseded",
    name: "superseded",
    type: "checkbox",
    checked: filter.includeSuperseded === true,
  });
  const form = h(
    "form",
    { class: "filters" },
    field("category", "Category", filter.categories),
    field("session", "Session", filter.sessionId),
    field("since", "Since", filter.since, "date"),
    field("until", "Until", filter.until, "date"),
    h("label", { for: "superseded", class: "check" }, superseded, " Show superseded"),
    h("button", { type: "submit" }, "Filter"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const next = new URLSearchParams();
    for (const name of ["category", "session", "since", "until"]) {
      const value = String(data.get(name) ?? "").trim();
      if (value) next.set(name, value);
    }
    if (superseded.checked) next.set("superseded", "1");
    location.hash = `#/entries?${next}`;
  });
  const body = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  root.replaceChildren(
    h("section", { "data-view": "entries" }, h("h1", {}, `Entries in ${namespace}`), form, body),
  );
  const filterQuery = {
    namespace,
    categories: filter.categories,
    sessionId: filter.sessionId,
    since: filter.since,
    until: filter.until,
    includeSuperseded: filter.includeSuperseded,
  };
  // The page and the total are two small requests; the page is drawn as soon as it arrives.
  const [list, total] = await Promise.all([
    request<{ entries: Entry[] }>(
      "GET",
      `/v1/memories${query({ ...filterQuery, limit: PAGE_SIZE, offset: page * PAGE_SIZE })}`,
    ),
    request<{ count: number }>("GET", `/v1/count${query(filterQuery)}`),
  ]);
  const pages = Math.max(1, Math.ceil(total.count / PAGE_SIZE));
  const pageHref = (target: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(target));
    return `#/entries?${next}`;
  };
  const table =
    list.entries.length === 0
      ? h("p", {}, "No entries match.")
      : h(
          "div",
          { class: "scroll" },
          h(
            "table",
            {},
            h("caption", {}, `${total.count} entries, newest first`),
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                ...["Key", "Category", "Session", "Updated", "Content"].map((name) =>
                  h("th", { scope: "col" }, name),
                ),
              ),
            ),
            h(
              "tbody",
              {},
              ...list.entries.map((entry) =>
                h(
                  "tr",
                  { class: entry.supersededBy ? "superseded" : undefined },
                  h(
                    "td",
                    {},
                    h("a", { href: entryHref(entry.namespace, entry.key) }, entry.key),
                    entry.supersededBy ? h("span", { class: "tag" }, " superseded") : null,
                  ),
                  h("td", {}, entry.category),
                  h("td", {}, entry.sessionId ?? ""),
                  h("td", {}, formatTime(entry.updatedAt)),
                  h("td", {}, preview(entry.content)),
                ),
              ),
            ),
          ),
        );
  const pager = h(
    "nav",
    { "aria-label": "Pages", class: "pager" },
    page > 0 ? h("a", { href: pageHref(page - 1) }, "Previous page") : null,
    h("span", {}, `Page ${page + 1} of ${pages}`),
    page + 1 < pages ? h("a", { href: pageHref(page + 1) }, "Next page") : null,
  );
  body.replaceChildren(table, pager);
}
