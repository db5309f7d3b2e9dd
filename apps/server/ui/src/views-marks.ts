import { type Entry, request } from "./api.js";
import { showError, showStatus } from "./app.js";
import { formatTime, h } from "./dom.js";

/** The inspector's snooze: a week, as `memory snooze` without --until or --for. */
const SNOOZE_FOR = "7d";

/**
 * Pin/Unpin and Snooze (7 days)/Unsnooze on the entry page (docs/usage.md). They call the body
 * forms (POST /v1/memories/pin and /v1/memories/snooze), which work for every key, and redraw
 * the entry with the marks the server answers.
 */
export function marksActions(entry: Entry, redraw: (entry: Entry) => void): HTMLElement[] {
  const at = { key: entry.key, namespace: entry.namespace };
  const pin = h("button", { type: "button" }, entry.pinned ? "Unpin" : "Pin");
  const snooze = h(
    "button",
    { type: "button" },
    entry.snoozedUntil === undefined ? "Snooze (7 days)" : "Unsnooze",
  );
  const act = async (path: string, body: Record<string, unknown>, done: (e: Entry) => string) => {
    try {
      const { entry: marked } = await request<{ entry: Entry }>("POST", path, { ...at, ...body });
      showStatus(done(marked));
      redraw(marked);
    } catch (error) {
      showError(error);
    }
  };
  pin.addEventListener("click", () =>
    act("/v1/memories/pin", { pinned: !entry.pinned }, (marked) =>
      marked.pinned ? `Pinned "${marked.key}".` : `Unpinned "${marked.key}".`,
    ),
  );
  snooze.addEventListener("click", () =>
    act(
      "/v1/memories/snooze",
      entry.snoozedUntil === undefined ? { for: SNOOZE_FOR } : { unsnooze: true },
      (marked) =>
        marked.snoozedUntil === undefined
          ? `"${marked.key}" is awake.`
          : `Snoozed "${marked.key}" until ${formatTime(marked.snoozedUntil)}.`,
    ),
  );
  return [pin, snooze];
}
