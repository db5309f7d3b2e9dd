import { type ChainResponse, type Entry, request } from "./api.js";
import { showError, showStatus, type ViewContext } from "./app.js";
import { entryHref, formatTime, h, preview } from "./dom.js";
import { conflictSection, historySection, supersessionSection } from "./views-decision.js";
import { marksActions } from "./views-marks.js";
import { relationsSection } from "./views-relations.js";

export async function entryView({ root, rest }: ViewContext): Promise<void> {
  const namespace = rest[0] ?? "default";
  const key = rest[1] ?? "";
  const view = h("section", { "data-view": "entry" }, h("p", { class: "muted" }, "Loading…"));
  root.replaceChildren(view);
  const { entry } = await request<{ entry: Entry }>("POST", "/v1/memories/get", {
    key,
    namespace,
  });
  drawEntry(view, entry);
}

function drawEntry(view: HTMLElement, entry: Entry): void {
  const meta: [string, string | undefined][] = [
    ["Namespace", entry.namespace],
    ["Category", entry.category],
    ["Session", entry.sessionId],
    ["Importance", entry.importance?.toString()],
    ["Created", formatTime(entry.createdAt)],
    ["Updated", formatTime(entry.updatedAt)],
    ["Superseded by", entry.supersededBy],
    ["Pinned", entry.pinned ? "yes: always eligible for the context, never pruned" : "no"],
    [
      "Snoozed until",
      entry.snoozedUntil === undefined ? undefined : formatTime(entry.snoozedUntil),
    ],
    ["Id", entry.id],
  ];
  const content = h("pre", { class: "content" }, entry.content);
  const edit = h("button", { type: "button" }, "Edit");
  const forget = h("button", { type: "button", class: "danger" }, "Forget");
  const actions = h(
    "div",
    { class: "row" },
    edit,
    ...marksActions(entry, (marked) => drawEntry(view, marked)),
    forget,
  );
  const chain = h(
    "section",
    { "aria-labelledby": "chain-title" },
    h("h2", { id: "chain-title" }, "Supersession chain"),
    h("p", { class: "muted" }, "Loading…"),
  );
  view.replaceChildren(
    h("h1", { class: "key" }, entry.key),
    h(
      "dl",
      { class: "meta" },
      ...meta
        .filter(([, value]) => value !== undefined)
        .flatMap(([name, value]) => [h("dt", {}, name), h("dd", {}, value)]),
    ),
    h("h2", {}, "Content"),
    content,
    actions,
    ...supersessionSection(entry, (restored) => drawEntry(view, restored)),
    ...conflictSection(entry),
    ...historySection(entry),
    ...relationsSection(entry),
    chain,
  );
  edit.addEventListener("click", () => {
    const area = h("textarea", { id: "content", rows: 10 }, entry.content);
    const save = h("button", { type: "submit" }, "Save");
    const cancel = h("button", { type: "button" }, "Cancel");
    const form = h(
      "form",
      { class: "edit" },
      h("label", { for: "content" }, "Content"),
      area,
      h("div", { class: "row" }, save, cancel),
    );
    cancel.addEventListener("click", () => form.replaceWith(content, actions));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const { entry: stored } = await request<{ entry: Entry }>("POST", "/v1/memories", {
          key: entry.key,
          content: area.value,
          category: entry.category,
          namespace: entry.namespace,
          ...(entry.sessionId !== undefined ? { sessionId: entry.sessionId } : {}),
          ...(entry.importance !== undefined ? { importance: entry.importance } : {}),
        });
        showStatus(`Saved "${stored.key}".`);
        drawEntry(view, stored);
      } catch (error) {
        showError(error);
      }
    });
    content.replaceWith(form);
    actions.remove();
    area.focus();
  });
  forget.addEventListener("click", () => confirmForget(entry, forget));
  loadChain(chain, entry);
}

function confirmForget(entry: Entry, opener: HTMLElement): void {
  const confirm = h("button", { type: "button", class: "danger" }, "Confirm");
  const cancel = h("button", { type: "button" }, "Cancel");
  const dialog = h(
    "dialog",
    { "aria-labelledby": "forget-title", "aria-describedby": "forget-text" },
    h("h2", { id: "forget-title" }, "Forget this entry?"),
    h(
      "p",
      { id: "forget-text" },
      `"${entry.key}" will be deleted from namespace "${entry.namespace}". This cannot be undone.`,
    ),
    h("div", { class: "row" }, confirm, cancel),
  );
  const close = () => {
    dialog.close();
    dialog.remove();
    opener.focus();
  };
  cancel.addEventListener("click", close);
  dialog.addEventListener("cancel", () => dialog.remove());
  confirm.addEventListener("click", async () => {
    try {
      await request("POST", "/v1/memories/forget", { key: entry.key, namespace: entry.namespace });
      dialog.close();
      dialog.remove();
      showStatus(`Forgot "${entry.key}".`);
      location.hash = "#/entries";
    } catch (error) {
      close();
      showError(error);
    }
  });
  document.body.append(dialog);
  dialog.showModal();
  cancel.focus();
}

async function loadChain(section: HTMLElement, entry: Entry): Promise<void> {
  try {
    const chain = await request<ChainResponse>("POST", "/v1/memories/chain", {
      key: entry.key,
      namespace: entry.namespace,
    });
    const list = (title: string, entries: Entry[], empty: string) =>
      h(
        "div",
        {},
        h("h3", {}, title),
        entries.length === 0
          ? h("p", { class: "muted" }, empty)
          : h(
              "ol",
              {},
              ...entries.map((item) =>
                h(
                  "li",
                  {},
                  h("a", { href: entryHref(item.namespace, item.key) }, item.key),
                  ` — ${preview(item.content, 100)}`,
                ),
              ),
            ),
      );
    section.replaceChildren(
      h("h2", { id: "chain-title" }, "Supersession chain"),
      list("It replaced", chain.replaced, "It replaced nothing."),
      list("Replaced by", chain.replacedBy, "Nothing replaced it."),
    );
  } catch (error) {
    section.replaceChildren(
      h("h2", { id: "chain-title" }, "Supersession chain"),
      h("p", { role: "alert", class: "error" }, (error as Error).message),
    );
  }
}
