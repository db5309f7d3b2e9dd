import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { addCollection, type CollectionSyncReport, CollectionWatcher } from "../src/index.js";
import { writeStandardNotes } from "./support/collection-fixture.js";
import { storeFactory } from "./support/stores.js";

const stores = storeFactory();
afterEach(() => stores.cleanup());

/** A manual clock: timers run only when the test says so. */
function manualClock() {
  const timers: { callback: () => void; ms: number; cancelled: boolean }[] = [];
  return {
    schedule(callback: () => void, ms: number) {
      const timer = { callback, ms, cancelled: false };
      timers.push(timer);
      return { cancel: () => (timer.cancelled = true) };
    },
    /** Live timers of `ms` (the debounce, not the refresh). */
    pending(ms: number) {
      return timers.filter((timer) => !timer.cancelled && timer.ms === ms);
    },
    fire(ms: number) {
      for (const timer of this.pending(ms)) {
        timer.cancelled = true;
        timer.callback();
      }
    },
  };
}

describe("collection watcher", () => {
  it("syncs at start, then once per quiet period after changes (debounced)", async () => {
    const memory = stores.sqlite();
    const root = stores.tempDir();
    writeStandardNotes(root);
    await addCollection(memory, { name: "notes", path: root });
    const clock = manualClock();
    const reports: CollectionSyncReport[][] = [];
    const changes: (() => void)[] = [];
    const watcher = new CollectionWatcher(memory, {
      debounceMs: 500,
      refreshMs: 60_000,
      schedule: (callback, ms) => clock.schedule(callback, ms),
      // The real fs.watch is exercised below; here the events are the test's, to count them.
      watchFolder: (_folder, onChange) => {
        changes.push(onChange);
        return { close: () => {} };
      },
      onSync: (report) => reports.push(report),
    });
    await watcher.start();
    expect(watcher.watched).toEqual(["notes"]);
    expect(reports).toHaveLength(1);
    expect(reports[0]?.[0]).toMatchObject({ added: 3 });

    writeFileSync(
      path.join(root, "new.md"),
      "# New\n\nThe standup moves to half past nine on Mondays.\n",
    );
    rmSync(path.join(root, "ficus.md"));
    for (let event = 0; event < 5; event++) changes[0]!();
    expect(clock.pending(500)).toHaveLength(1);
    clock.fire(500);
    await vi.waitFor(() => expect(reports).toHaveLength(2), { timeout: 20_000 });
    expect(reports[1]?.[0]).toMatchObject({ added: 1, removed: 1, unchanged: 2 });
    const [hit] = await memory.recall("standup half past nine", { limit: 1 });
    expect(hit?.source?.path).toBe("new.md");
    await watcher.close();
    changes[0]!();
    expect(clock.pending(500)).toHaveLength(0);
  });

  it("hears a real file change through fs.watch and picks up collections added later", async () => {
    const memory = stores.sqlite();
    const root = stores.tempDir();
    writeStandardNotes(root);
    const clock = manualClock();
    const reports: CollectionSyncReport[][] = [];
    const watcher = new CollectionWatcher(memory, {
      debounceMs: 500,
      refreshMs: 60_000,
      schedule: (callback, ms) => clock.schedule(callback, ms),
      onSync: (report) => reports.push(report),
    });
    await watcher.start();
    expect(watcher.watched).toEqual([]);
    await addCollection(memory, { name: "notes", path: root });
    clock.fire(60_000);
    await vi.waitFor(() => expect(watcher.watched).toEqual(["notes"]), { timeout: 20_000 });
    await vi.waitFor(() => expect(reports.at(-1)?.[0]?.added).toBe(3), { timeout: 20_000 });
    writeFileSync(
      path.join(root, "later.md"),
      "# Later\n\nThe quarterly review happens in the library.\n",
    );
    await vi.waitFor(() => expect(clock.pending(500)).toHaveLength(1), { timeout: 20_000 });
    clock.fire(500);
    await vi.waitFor(() => expect(reports.at(-1)?.[0]?.added).toBe(1), { timeout: 20_000 });
    await watcher.close();
  });
});
