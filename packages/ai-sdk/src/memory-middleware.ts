import { InvalidInputError, type Memory } from "@memory/api";
import { autosaveTurn, buildMemoryContext, type MemoryContextOptions } from "@memory/lifecycle";
import type { LanguageModelMiddleware } from "ai";
import {
  type CallOptions,
  type ContextPosition,
  lastUserIndex,
  replyOf,
  type StreamPart,
  userText,
  withContext,
} from "./prompt-parts.js";

/** Options of {@link memoryMiddleware}. */
export interface MemoryMiddlewareOptions {
  /** Namespace read and written; default the memory's `"default"`. */
  namespace?: string;
  /** Session id of autosaved turns. */
  sessionId?: string;
  /**
   * The memory context put in front of each call (`buildMemoryContext` of @memory/lifecycle:
   * `limit` 5, `minScore` 0.4, `maxChars` 2000 by default), or `false` for none.
   */
  context?: Omit<MemoryContextOptions, "namespace" | "sessionId" | "signal"> | false;
  /**
   * `"system"` (default): a system message after the call's own system messages. `"user"`: a
   * text part before the last user message's own text (keeps a cached system prefix intact).
   */
  position?: ContextPosition;
  /**
   * Save each finished turn (the last user message and the reply, through `autosaveTurn`:
   * the message as a `conversation` entry, the reply's start as `daily`); default false. A
   * step that calls tools is not a finished turn: the step that answers is saved.
   */
  autosave?: boolean;
  /**
   * Called when autosaving fails; the model's answer is then returned as usual. Without it, the
   * failure rejects the call (or errors the stream), so it is never lost silently.
   */
  onAutosaveError?: (error: unknown) => void;
}

/** Per-call overrides: `providerOptions: { memory: { namespace, sessionId } }` of the call. */
interface CallOverrides {
  namespace?: string;
  sessionId?: string;
}

function overridesOf(params: CallOptions): CallOverrides {
  const memory = params.providerOptions?.memory as Record<string, unknown> | undefined;
  const pick = (name: string) => (typeof memory?.[name] === "string" ? memory[name] : undefined);
  return { namespace: pick("namespace"), sessionId: pick("sessionId") };
}

function scopeOf(options: MemoryMiddlewareOptions, params: CallOptions) {
  const overrides = overridesOf(params);
  const namespace = overrides.namespace ?? options.namespace;
  const sessionId = overrides.sessionId ?? options.sessionId;
  return {
    ...(namespace === undefined ? {} : { namespace }),
    ...(sessionId === undefined ? {} : { sessionId }),
  };
}

/**
 * An AI SDK language-model middleware (`wrapLanguageModel({ model, middleware })`) that puts the
 * memory context for the last user message in front of each call and, with `autosave`, saves
 * each finished turn. Works for `generateText` and `streamText`; the caller's messages are not
 * changed, so the context never piles up in the history.
 */
export function memoryMiddleware(
  memory: Memory,
  options: MemoryMiddlewareOptions = {},
): LanguageModelMiddleware {
  const position = options.position ?? "system";
  if (position !== "system" && position !== "user")
    throw new InvalidInputError(
      `memoryMiddleware: position must be "system" or "user", got ${JSON.stringify(position)}.`,
    );

  async function save(params: CallOptions, reply: string): Promise<void> {
    const userMessage = userText(params.prompt[lastUserIndex(params.prompt)]);
    try {
      await autosaveTurn(memory, {
        userMessage,
        assistantReply: reply,
        ...scopeOf(options, params),
      });
    } catch (error) {
      if (!options.onAutosaveError) throw error;
      options.onAutosaveError(error);
    }
  }

  return {
    specificationVersion: "v3",
    async transformParams({ params }) {
      if (options.context === false) return params;
      const message = userText(params.prompt[lastUserIndex(params.prompt)]);
      const { namespace } = scopeOf(options, params);
      const context = await buildMemoryContext(memory, message, {
        ...options.context,
        ...(namespace === undefined ? {} : { namespace }),
        ...(params.abortSignal === undefined ? {} : { signal: params.abortSignal }),
      });
      if (context.text === "") return params;
      return { ...params, prompt: withContext(params.prompt, context.text, position) };
    },
    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      if (!options.autosave) return result;
      const { text, callsTools } = replyOf(result);
      if (!callsTools) await save(params, text);
      return result;
    },
    async wrapStream({ doStream, params }) {
      const result = await doStream();
      if (!options.autosave) return result;
      let text = "";
      let callsTools = false;
      const stream = result.stream.pipeThrough(
        new TransformStream<StreamPart, StreamPart>({
          transform(part, controller) {
            if (part.type === "text-delta") text += part.delta;
            if (part.type === "tool-call" && !part.providerExecuted) callsTools = true;
            controller.enqueue(part);
          },
          // The turn is saved once the model's stream has ended, before the consumer sees the
          // end: a failed save errors the stream instead of vanishing.
          async flush() {
            if (!callsTools) await save(params, text);
          },
        }),
      );
      return { ...result, stream };
    },
  };
}
