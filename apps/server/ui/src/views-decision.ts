import { type Entry, type HistoryResponse, request } from "./api.js";
import { showError, showStatus } from "./app.js";
import { entryHref, formatNumber, formatTime, h, preview } from "./dom.js";

type ConflictRecord = NonNullable<Entry["conflictRecord"]>;
type Reading = NonNullable<ConflictRecord["reading"]>;

/** "@user · lives_in (single) = Munich [change]": how the conflict rules read a fact. */
export function describeReading(reading: Reading | undefined): string {
  if (reading === undefined) return "not read";
  if (reading.subject === undefined) return `not read (${reading.note ?? "no subject"})`;
  const cardinality = reading.cardinality === undefined ? "" : ` (${reading.cardinality})`;
  const value = reading.value === undefined ? "" : ` = ${reading.value}`;
  const markers = [...(reading.negated ? ["negated"] : []), ...reading.markers];
  const marked = markers.length === 0 ? "" : ` [${markers.join(", ")}]`;
  return `${reading.subject} · ${reading.attribute ?? "?"}${cardinality}${value}${marked}`;
}

/**
 * Why the entry is superseded (`supersessionRecord`): by which key (a link), the rule and its
 * reason, when; with a button that makes it current again (POST /v1/unsupersede). Nothing for a
 * current entry.
 */
export function supersessionSection(entry: Entry, redraw: (entry: Entry) => void): HTMLElement[] {
  if (entry.supersededBy === undefined) return [];
  const record =
    entry.supersessionRecord?.by === entry.supersededBy ? entry.supersessionRecord : undefined;
  const why = record
    ? ` (${record.rule ?? record.decidedBy}${record.reason ? `: ${record.reason}` : ""})`
    : "";
  const restore = h("button", { type: "button" }, "Make current again");
  restore.addEventListener("click", async () => {
    try {
      const { entry: restored } = await request<{ entry: Entry }>("POST", "/v1/unsupersede", {
        key: entry.key,
        namespace: entry.namespace,
      });
      showStatus(`"${restored.key}" is current again.`);
      redraw(restored);
    } catch (error) {
      showError(error);
    }
  });
  return [
    h(
      "section",
      { "aria-labelledby": "superseded-title" },
      h("h2", { id: "superseded-title" }, "Why it is superseded"),
      h(
        "p",
        {},
        "Superseded by ",
        h("a", { href: entryHref(entry.namespace, entry.supersededBy) }, entry.supersededBy),
        why,
        record ? ` on ${formatTime(record.at)}, decided by ${record.decidedBy}.` : ".",
      ),
      h("div", { class: "row" }, restore),
    ),
  ];
}

function decisionOf(candidate: ConflictRecord["candidates"][number]): string {
  if (candidate.superseded) return "superseded";
  if (candidate.linked) return "linked (contradicts)";
  return candidate.flagged ? "flagged (not hidden)" : "kept";
}

/**
 * What conflict detection decided when the entry was stored (`conflictRecord`): its own reading,
 * then each candidate kept in the record with its score, the decision, the rule and why.
 */
export function conflictSection(entry: Entry): HTMLElement[] {
  const record = entry.conflictRecord;
  if (record === undefined) return [];
  const shown = record.candidates.length;
  const summary =
    record.candidatesSeen === 0
      ? "No older entry was a candidate."
      : `${record.candidatesSeen} candidate(s) looked at${record.candidatesSeen > shown ? `; the first ${shown} are kept` : ""}. Policy: ${record.policy ?? "supersede"}.`;
  const table = h(
    "table",
    {},
    h("caption", {}, "Candidates"),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ...["Key", "Score", "Decision", "Rule", "Why", "Read as"].map((name) =>
          h("th", { scope: "col" }, name),
        ),
      ),
    ),
    h(
      "tbody",
      {},
      ...record.candidates.map((candidate) =>
        h(
          "tr",
          {},
          h(
            "th",
            { scope: "row" },
            h("a", { href: entryHref(entry.namespace, candidate.key) }, candidate.key),
          ),
          h("td", { class: "num" }, formatNumber(candidate.score)),
          h("td", {}, decisionOf(candidate)),
          h("td", {}, candidate.rule ?? "–"),
          h(
            "td",
            {},
            `${candidate.reason ?? "–"}${candidate.decidedBy === "chat" ? " (confirmed by the chat model)" : ""}`,
          ),
          h("td", {}, describeReading(candidate.reading)),
        ),
      ),
    ),
  );
  return [
    h(
      "section",
      { "aria-labelledby": "decision-title" },
      h("h2", { id: "decision-title" }, "Conflict decision"),
      h(
        "p",
        {},
        `Read as: ${record.mode === "rules" ? describeReading(record.reading) : (record.fallback ?? record.mode)}`,
      ),
      h("p", { class: "muted" }, `Decided ${formatTime(record.decidedAt)}. ${summary}`),
      shown === 0 ? null : h("div", { class: "scroll" }, table),
    ),
  ];
}

/** A kept version's key (`<key>::history:<n>`): it has no history of its own. */
const VERSION_KEY = /::history:\d+$/;

/**
 * "Earlier versions": what a same-key store replaced (POST /v1/memories/history), newest first,
 * each a link to the kept version. Nothing for a kept version itself.
 */
export function historySection(entry: Entry): HTMLElement[] {
  if (VERSION_KEY.test(entry.key)) return [];
  const section = h(
    "section",
    { "aria-labelledby": "history-title" },
    h("h2", { id: "history-title" }, "Earlier versions"),
    h("p", { class: "muted" }, "Loading…"),
  );
  void loadHistory(section, entry);
  return [section];
}

async function loadHistory(section: HTMLElement, entry: Entry): Promise<void> {
  const title = h("h2", { id: "history-title" }, "Earlier versions");
  try {
    const { versions } = await request<HistoryResponse>("POST", "/v1/memories/history", {
      key: entry.key,
      namespace: entry.namespace,
    });
    const earlier = versions.filter((version) => version.key !== entry.key);
    section.replaceChildren(
      title,
      earlier.length === 0
        ? h("p", { class: "muted" }, "No earlier version: a store of this key kept nothing yet.")
        : h(
            "ol",
            {},
            ...earlier.map((version) =>
              h(
                "li",
                {},
                h("a", { href: entryHref(version.namespace, version.key) }, version.key),
                ` (${formatTime(version.updatedAt)}) — ${preview(version.content, 100)}`,
              ),
            ),
          ),
    );
  } catch (error) {
    section.replaceChildren(
      title,
      h("p", { role: "alert", class: "error" }, (error as Error).message),
    );
  }
}
