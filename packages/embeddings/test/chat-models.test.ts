import { MemoryError } from "@memory/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGeminiChatModel } from "../src/gemini/index.js";
import { createOpenAIChatModel } from "../src/openai/index.js";
import { LoopbackServer } from "./support/loopback-server.js";
import { recordingSleep } from "./support/recording-sleep.js";

let server: LoopbackServer;
beforeAll(async () => {
  server = await LoopbackServer.start();
});
afterAll(async () => {
  await server.close();
});

function completion(content: string) {
  return {
    json: {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 0,
      model: "m",
      choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content } }],
    },
  };
}

function geminiReply(text: string) {
  return {
    json: { candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP" }] },
  };
}

describe("OpenAI-compatible chat model", () => {
  // No short timeoutMs here: a busy machine can take longer than that to answer. Only the
  // test against a server that never answers sets one.
  const chat = (extra: Parameters<typeof createOpenAIChatModel>[0] = {}) =>
    createOpenAIChatModel({
      preset: "custom",
      baseURL: `${server.url}/v1`,
      model: "small-chat",
      retryBaseDelayMs: 1,
      sleep: recordingSleep().sleep,
      ...extra,
    });

  it("sends messages with JSON mode and returns the reply", async () => {
    server.handle(() => completion('{"facts":["a"]}'));
    const reply = await chat().complete(
      [
        { role: "system", content: "extract facts" },
        { role: "user", content: "a" },
      ],
      { json: true, temperature: 0, maxTokens: 50 },
    );
    expect(JSON.parse(reply)).toEqual({ facts: ["a"] });
    const [request] = server.requests;
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.body).toMatchObject({
      model: "small-chat",
      response_format: { type: "json_object" },
      temperature: 0,
      max_tokens: 50,
      messages: [
        { role: "system", content: "extract facts" },
        { role: "user", content: "a" },
      ],
    });
  });

  it("retries 429 then 500 and succeeds", async () => {
    server.handle((_request, index) => {
      if (index === 0) return { status: 429, headers: { "retry-after": "0" }, json: {} };
      if (index === 1) return { status: 500, json: {} };
      return completion("hello");
    });
    const waits = recordingSleep();
    expect(await chat({ sleep: waits.sleep }).complete([{ role: "user", content: "hi" }])).toBe(
      "hello",
    );
    expect(server.requests).toHaveLength(3);
    expect(waits.delays).toHaveLength(2);
    expect(waits.delays[0]).toBe(0);
  });

  it("fails with a CONFIG error on 401 and a TIMEOUT error when the server hangs", async () => {
    server.handle(() => ({ status: 401, json: {} }));
    await expect(chat().complete([{ role: "user", content: "hi" }])).rejects.toSatisfy((error) =>
      MemoryError.hasCode(error, "CONFIG"),
    );
    server.handle(() => "hang");
    await expect(
      chat({ timeoutMs: 200 }).complete([{ role: "user", content: "hi" }]),
    ).rejects.toSatisfy((error) => MemoryError.hasCode(error, "TIMEOUT"));
  });

  it("rejects a JSON-mode reply that is not JSON", async () => {
    server.handle(() => completion("sure! here it is"));
    await expect(
      chat().complete([{ role: "user", content: "hi" }], { json: true }),
    ).rejects.toThrow(/not valid JSON/);
  });
});

describe("Gemini chat model", () => {
  const chat = () =>
    createGeminiChatModel({
      apiKey: "k",
      baseURL: server.url,
      retryBaseDelayMs: 1,
      sleep: recordingSleep().sleep,
    });

  it("maps system text to systemInstruction, assistant to model, and JSON mode to a MIME type", async () => {
    server.handle(() => geminiReply('{"ok":true}'));
    const reply = await chat().complete(
      [
        { role: "system", content: "be brief" },
        { role: "user", content: "q1" },
        { role: "assistant", content: "a1" },
        { role: "user", content: "q2" },
      ],
      { json: true, maxTokens: 20 },
    );
    expect(reply).toBe('{"ok":true}');
    const [request] = server.requests;
    expect(request?.path).toBe("/v1beta/models/gemini-2.5-flash:generateContent");
    expect(request?.body).toMatchObject({
      systemInstruction: { parts: [{ text: "be brief" }] },
      contents: [
        { role: "user", parts: [{ text: "q1" }] },
        { role: "model", parts: [{ text: "a1" }] },
        { role: "user", parts: [{ text: "q2" }] },
      ],
      generationConfig: { responseMimeType: "application/json", maxOutputTokens: 20 },
    });
  });

  it("retries a 503 and reports a malformed body", async () => {
    server.handle((_request, index) =>
      index === 0 ? { status: 503, json: {} } : geminiReply("hi"),
    );
    expect(await chat().complete([{ role: "user", content: "x" }])).toBe("hi");
    server.handle(() => ({ json: { candidates: [] } }));
    await expect(chat().complete([{ role: "user", content: "x" }])).rejects.toThrow(/malformed/);
  });
});
