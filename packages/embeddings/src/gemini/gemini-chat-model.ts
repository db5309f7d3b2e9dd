import type { ChatMessage, ChatModel, CompleteOptions } from "@memory/api";
import { malformedResponse } from "../http/http-errors.js";
import { type RemoteSettings, resolveApiKey } from "../http/remote-settings.js";
import { callThroughSdk } from "../http/sdk-call.js";
import { GEMINI_FALLBACK_ENV, GEMINI_IDENTITY } from "./gemini-options.js";
import { genAIClient } from "./load-genai.js";

export interface GeminiChatSettings extends Omit<RemoteSettings, "maxBatchSize" | "concurrency"> {
  /** Default `gemini-2.5-flash`. */
  model?: string;
}

export const GEMINI_DEFAULT_CHAT_MODEL = "gemini-2.5-flash";

/** Gemini generateContent as a {@link ChatModel}. */
export class GeminiChatModel implements ChatModel {
  readonly name = "gemini";
  readonly model: string;

  constructor(private readonly settings: GeminiChatSettings = {}) {
    this.model = settings.model ?? GEMINI_DEFAULT_CHAT_MODEL;
  }

  async complete(messages: readonly ChatMessage[], options: CompleteOptions = {}): Promise<string> {
    const apiKey = resolveApiKey(this.settings, GEMINI_IDENTITY, {
      required: true,
      fallbackEnv: GEMINI_FALLBACK_ENV,
    }) as string;
    // Gemini takes system text separately and calls the assistant role "model".
    const system = messages.filter((message) => message.role === "system");
    const turns = messages.filter((message) => message.role !== "system");
    const context = { settings: this.settings, identity: GEMINI_IDENTITY, kind: "chat" as const };
    const response = await callThroughSdk(context, options.signal, async (fetch) => {
      const client = await genAIClient(this.settings, apiKey, fetch);
      return client.models.generateContent({
        model: this.model,
        contents: turns.map((message) => ({
          role: message.role === "assistant" ? "model" : "user",
          parts: [{ text: message.content }],
        })),
        config: {
          ...(system.length > 0
            ? { systemInstruction: system.map((message) => message.content).join("\n\n") }
            : {}),
          ...(options.json ? { responseMimeType: "application/json" } : {}),
          ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
          ...(options.maxTokens === undefined ? {} : { maxOutputTokens: options.maxTokens }),
          ...(options.signal === undefined ? {} : { abortSignal: options.signal }),
        },
      });
    });
    const parts: unknown = response?.candidates?.[0]?.content?.parts;
    if (!Array.isArray(parts)) {
      throw malformedResponse(GEMINI_IDENTITY, "chat", "no candidates[0].content.parts");
    }
    const text = parts
      .map((part: { text?: unknown }) => (typeof part?.text === "string" ? part.text : ""))
      .join("");
    if (options.json) {
      try {
        JSON.parse(text);
      } catch (error) {
        throw malformedResponse(
          GEMINI_IDENTITY,
          "chat",
          "JSON mode reply is not valid JSON",
          error,
        );
      }
    }
    return text;
  }
}

export function createGeminiChatModel(settings?: GeminiChatSettings): GeminiChatModel {
  return new GeminiChatModel(settings);
}
