import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAT_API_KEY_ENV, resolveChatModel } from "../src/index.js";
import { LoopbackServer } from "./support/loopback-server.js";
import { recordingSleep } from "./support/recording-sleep.js";

let server: LoopbackServer;
beforeAll(async () => {
  server = await LoopbackServer.start();
});
afterAll(async () => {
  await server.close();
});

const completion = (content: string) => ({
  json: { choices: [{ index: 0, message: { role: "assistant", content } }] },
});
const settings = { retryBaseDelayMs: 1, sleep: recordingSleep().sleep };

describe("resolveChatModel", () => {
  it("is null without chat_provider", () => {
    expect(resolveChatModel({})).toBeNull();
    expect(resolveChatModel({ chat_provider: "" })).toBeNull();
  });

  it("builds an OpenAI-compatible model for custom:<url>, with chat_model and the key from MEMORY_CHAT_API_KEY", async () => {
    const model = resolveChatModel(
      { chat_provider: `custom:${server.url}/v1`, chat_model: "tiny" },
      { env: { [CHAT_API_KEY_ENV]: "sk-chat" }, settings },
    );
    expect(model?.model).toBe("tiny");
    server.handle(() => completion("hello"));
    expect(await model?.complete([{ role: "user", content: "hi" }])).toBe("hello");
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-chat");
    expect(server.requests[0]?.body).toMatchObject({ model: "tiny" });
  });

  it("builds OpenAI, OpenRouter and Gemini models (nothing is called)", () => {
    expect(resolveChatModel({ chat_provider: "openai" })?.name).toBe("openai");
    expect(resolveChatModel({ chat_provider: "openrouter" })?.name).toBe("openrouter");
    expect(resolveChatModel({ chat_provider: "gemini", chat_model: "g" })).toMatchObject({
      name: "gemini",
      model: "g",
    });
  });

  it("is a CONFIG error for an unknown provider or a bad custom URL", () => {
    for (const chat_provider of ["anthropic", "custom:not a url"]) {
      expect(() => resolveChatModel({ chat_provider })).toThrow(
        expect.objectContaining({ code: "CONFIG" }),
      );
    }
  });
});
