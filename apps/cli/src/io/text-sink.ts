import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import type { Output } from "../output/output.js";

/** A streaming text destination with back-pressure and batching. */
export interface TextSink {
  write(text: string): Promise<void>;
  /** Flushes; for a file, moves it into place. */
  commit(): Promise<void>;
  /** Drops a partial file after a failure. */
  abort(): Promise<void>;
}

// Lines are gathered into ~64 KiB writes: one syscall per entry would dominate a large export.
const BATCH_BYTES = 64 * 1024;

function batching(flush: (text: string) => Promise<void>) {
  let buffer = "";
  return {
    async write(text: string) {
      buffer += text;
      if (buffer.length >= BATCH_BYTES) {
        const chunk = buffer;
        buffer = "";
        await flush(chunk);
      }
    },
    async drain() {
      if (buffer.length > 0) {
        const chunk = buffer;
        buffer = "";
        await flush(chunk);
      }
    },
  };
}

/** stdout as a sink. */
export function stdoutSink(output: Output): TextSink {
  const batch = batching((text) => output.write(text));
  return { write: batch.write, commit: batch.drain, abort: async () => {} };
}

/**
 * A file sink that writes next to the target and renames on success, so an interrupted export
 * never leaves a truncated file that looks complete.
 */
export function fileSink(file: string): TextSink {
  const partial = `${file}.partial-${process.pid}`;
  const stream = createWriteStream(partial, { encoding: "utf8" });
  const failed = new Promise<never>((_, reject) => stream.once("error", reject));
  failed.catch(() => {});
  const batch = batching(async (text) => {
    if (!stream.write(text)) await Promise.race([once(stream, "drain"), failed]);
  });
  return {
    write: batch.write,
    async commit() {
      await batch.drain();
      stream.end();
      await Promise.race([once(stream, "finish"), failed]);
      await rename(partial, file);
    },
    async abort() {
      stream.destroy();
      await rm(partial, { force: true });
    },
  };
}
