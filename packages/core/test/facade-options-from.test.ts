import { describe, expect, it } from "vitest";
import { facadeOptionsFrom } from "../src/facade-options.js";

describe("facadeOptionsFrom", () => {
  it("gathers the top-level retrieval options into settings and passes on only what was given", () => {
    const logger = (_message: string) => {};
    const now = () => 0;
    expect(
      facadeOptionsFrom({ minScore: 0.5, searchMode: "bm25", deferEmbedding: true, logger, now }),
    ).toEqual({
      settings: { minScore: 0.5, searchMode: "bm25" },
      deferEmbedding: true,
      logger,
      now,
    });
    expect(facadeOptionsFrom({})).toEqual({ settings: {} });
  });

  it("reads the worker's batchSize (PostgreSQL's spelling) as embeddingBatchSize, the top-level one winning", () => {
    const sleep = async () => {};
    expect(facadeOptionsFrom({ embeddingWorker: { batchSize: 8, sleep } })).toEqual({
      settings: {},
      embeddingBatchSize: 8,
      embeddingWorker: { sleep },
    });
    expect(
      facadeOptionsFrom({ embeddingBatchSize: 16, embeddingWorker: { batchSize: 8 } }),
    ).toMatchObject({ embeddingBatchSize: 16, embeddingWorker: {} });
  });
});
