import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readStable, sameStamp, stampOf } from "../src/files/file-stamp.js";
import { tempDir } from "./helpers.js";

describe("readStable", () => {
  it("returns a quiet file whole, with its stamp", () => {
    const file = join(tempDir(), "2026-11-28.md");
    writeFileSync(file, "- a: one\n- b: two\n");
    const read = readStable(file, stampOf(file)!)!;
    expect(read.bytes.toString()).toBe("- a: one\n- b: two\n");
    expect(sameStamp(read.stamp, stampOf(file)!)).toBe(true);
  });

  it("never returns bytes its stamp does not describe, when a writer lands during every read", () => {
    const file = join(tempDir(), "2026-11-28.md");
    writeFileSync(file, "- a: one\n");
    let reads = 0;
    // Another process appends a line in two writes; each read lands between the two.
    const writerDuringRead = (path: string) => {
      reads++;
      appendFileSync(path, reads === 1 ? "- b: half" : ` done ${reads}\n- b: half`);
      return readFileSync(path);
    };
    const read = readStable(file, stampOf(file)!, writerDuringRead)!;
    expect(reads).toBe(5);
    const text = read.bytes.toString();
    // Whole lines only: the line being written is not part of what is parsed.
    expect(text.endsWith("\n")).toBe(true);
    expect(text).not.toMatch(/half$/);
    expect(text.split("\n")).toHaveLength(6);
    // The stamp's size is the bytes', and those are the file's first bytes...
    expect(read.stamp.size).toBe(read.bytes.length);
    expect(readFileSync(file).subarray(0, read.stamp.size).equals(read.bytes)).toBe(true);
    // ...and it equals no stamp of the file, so the next refresh reads the file again.
    expect(sameStamp(read.stamp, stampOf(file)!)).toBe(false);
    expect(sameStamp(read.stamp, read.stamp)).toBe(false);
  });

  it("returns nothing for a file that vanished", () => {
    const file = join(tempDir(), "gone.md");
    writeFileSync(file, "- a: one\n");
    const stamp = stampOf(file)!;
    expect(
      readStable(file, stamp, () => {
        throw Object.assign(new Error("ENOENT"), { code: "ENOENT" });
      }),
    ).toBeUndefined();
  });
});
