import type { ChatServer } from "@memory/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeChatWorkspace, openChatWorkspace } from "./helpers/chat-workspace.js";
import { json, type Workspace } from "./helpers/run-memory.js";

interface Triple {
  key: string;
  predicate: string;
  object: string;
  validFrom: string;
  validTo: string | null;
}
interface Graph {
  entity: string;
  asOf: string;
  triples: Triple[];
}

let server: ChatServer;
let ws: Workspace;
beforeAll(async () => {
  ({ server, ws } = await openChatWorkspace());
});
afterAll(() => closeChatWorkspace({ server, ws }));

const city = (name: string) => ({
  content: JSON.stringify({
    facts: [
      {
        key: "user_city",
        content: `The user lives in ${name}`,
        kind: "biographical",
        triples: [
          { subject: "user", predicate: "lives_in", object: name },
          { subject: "user", predicate: "favourite_city", object: name },
        ],
      },
    ],
  }),
});
const env = { env: { MEMORY_CHAT_API_KEY: "sk-test" } };

describe("memory kg", () => {
  it("shows what holds now and at --as-of, after remember closed the old city", async () => {
    server.reply(city("Paris"), city("Lyon"));
    const paris = await ws.run(["remember", "I live in Paris", "--json"], env);
    expect(paris.code, paris.stderr).toBe(0);
    const parisTriple = json<{ triples: { stored: Triple[]; dropped: { predicate: number } } }>(
      paris,
    ).triples;
    expect(parisTriple.dropped.predicate).toBe(1);
    const since = parisTriple.stored[0]!.validFrom;
    const lyon = await ws.run(["remember", "I moved to Lyon"], env);
    expect(lyon.code, lyon.stderr).toBe(0);
    expect(lyon.stdout).toContain(
      "knowledge graph: 1 triple(s) stored, 1 closed, 0 confirmed, 1 dropped",
    );
    const now = json<Graph>(await ws.run(["kg", "user", "--json"]));
    expect(now.triples.map((triple) => triple.object)).toEqual(["lyon"]);
    const then = json<Graph>(await ws.run(["kg", "me", "--as-of", since, "--json"]));
    expect(then).toMatchObject({ entity: "user", asOf: since });
    expect(then.triples.map((triple) => [triple.object, triple.validTo === null])).toEqual([
      ["paris", false],
    ]);
    const text = await ws.run(["kg", "user"]);
    expect(text.stdout).toContain("1 triple about user holding at");
    expect(text.stdout).toContain("user lives_in Lyon");
    // The triples stay out of recall.
    const recalled = json<{ results: { category: string }[] }>(
      await ws.run(["recall", "lives_in lyon", "--json", "--min-score", "0"]),
    );
    expect(recalled.results.map((entry) => entry.category)).toContain("core");
    expect(recalled.results.map((entry) => entry.category)).not.toContain("triple");
  });

  it("exits 2 with one line for an empty entity or a bad --as-of", async () => {
    for (const args of [
      ["kg", " "],
      ["kg", "user", "--as-of", "last week"],
    ]) {
      const result = await ws.run(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toMatch(/entity|asOf/);
    }
  });
});
