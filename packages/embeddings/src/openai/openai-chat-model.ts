import type { ChatMessage, ChatModel, CompleteOptions } from "@memory/api";
import { malformedResponse } from "../http/http-errors.js";
import { type ProviderIdentity, resolveApiKey } from "../http/remote-settings.js";
import { callThroughSdk } from "../http/sdk-call.js";
import { openAIClient } from "./load-openai.js";
import type { OpenAIEmbeddingSettings } from "./openai-options.js";
import { presetInfo } from "./openai-options.js";

export interface OpenAIChatSettings
  extends Omit<
    OpenAIEmbeddingSettings,
    "dimensions" | "encodingFormat" | "model" | "maxBatchSize" | "concurrency"
  > {
  /** Default `gpt-4o-mini`. */
  model?: string;
}

export const OPENAI_DEFAULT_CHAT_MODEL = "gpt-4o-mini";

/** Chat completions against OpenAI, OpenRouter or any OpenAI-compatible server. */
export class OpenAIChatModel implements ChatModel {
  readonly name: string;
  readonly model: string;
  private readonly settings: OpenAIChatSettings;
  private readonly info: ReturnType<typeof presetInfo>;

  constructor(settings: OpenAIChatSettings = {}) {
    const preset = settings.preset ?? "openai";
    this.name = preset;
    this.model = settings.model ?? OPENAI_DEFAULT_CHAT_MODEL;
    this.settings = settings;
    this.info = presetInfo(preset, settings.baseURL);
  }

  async complete(messages: readonly ChatMessage[], options: CompleteOptions = {}): Promise<string> {
    const { identity, baseURL, keyRequired } = this.info;
    const apiKey = resolveApiKey(this.settings, identity, { required: keyRequired });
    const context = { settings: this.settings, identity, kind: "chat" as const };
    const response = await callThroughSdk(context, options.signal, async (fetch) => {
      const client = await openAIClient(this.settings, baseURL, apiKey, fetch);
      return client.chat.completions.create(
        {
          model: this.model,
          messages: messages.map((message) => ({ role: message.role, content: message.content })),
          ...(options.json ? { response_format: { type: "json_object" as const } } : {}),
          ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
          ...(options.maxTokens === undefined ? {} : { max_tokens: options.maxTokens }),
        },
        { signal: options.signal },
      );
    });
    const content: unknown = response?.choices?.[0]?.message?.content;
    if (typeof content !== "string") {
      throw malformedResponse(identity, "chat", "no choices[0].message.content string");
    }
    if (options.json) assertJson(content, identity);
    return content;
  }
}

function assertJson(content: string, identity: ProviderIdentity): void {
  try {
    JSON.parse(content);
  } catch (error) {
    throw malformedResponse(
      identity,
      "chat",
      "JSON mode was requested but the reply is not valid JSON",
      error,
    );
  }
}

/** Creates a chat model for OpenAI, OpenRouter or any OpenAI-compatible server. */
export function createOpenAIChatModel(settings?: OpenAIChatSettings): OpenAIChatModel {
  return new OpenAIChatModel(settings);
}
