import type { LanguageModelMiddleware } from "ai";

// The provider-level types, taken from the middleware's own signature so that this package
// needs no direct dependency on @ai-sdk/provider (whose major follows the `ai` major).
type TransformParams = NonNullable<LanguageModelMiddleware["transformParams"]>;
export type CallOptions = Parameters<TransformParams>[0]["params"];
export type PromptMessage = CallOptions["prompt"][number];
export type GenerateResult = Awaited<
  ReturnType<NonNullable<LanguageModelMiddleware["wrapGenerate"]>>
>;
export type StreamResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware["wrapStream"]>>>;
export type StreamPart = StreamResult["stream"] extends ReadableStream<infer Part> ? Part : never;

/**
 * Marks the memory context the middleware added, so that the turn it autosaves is what the user
 * wrote (the injected block is not their message). Providers ignore provider options that are
 * not theirs.
 */
const MARK = { memory: { injected: true } };

function isInjected(part: { providerOptions?: unknown }): boolean {
  const options = part.providerOptions as { memory?: { injected?: unknown } } | undefined;
  return options?.memory?.injected === true;
}

/** Index of the last user message in the prompt, or -1. */
export function lastUserIndex(prompt: readonly PromptMessage[]): number {
  for (let index = prompt.length - 1; index >= 0; index--)
    if (prompt[index]?.role === "user") return index;
  return -1;
}

/** The text the user wrote in that message (its text parts, without an injected context). */
export function userText(message: PromptMessage | undefined): string {
  if (message?.role !== "user") return "";
  return message.content
    .filter((part) => part.type === "text" && !isInjected(part))
    .map((part) => (part.type === "text" ? part.text : ""))
    .join("\n");
}

/** Where the context goes: a system message at the front, or before the user's words. */
export type ContextPosition = "system" | "user";

/** The prompt with the context block added; the caller's prompt array is not changed. */
export function withContext(
  prompt: readonly PromptMessage[],
  context: string,
  position: ContextPosition,
): PromptMessage[] {
  if (position === "system") {
    // After the leading system messages: some providers (Anthropic) refuse a system message
    // that comes after a user or assistant message.
    let at = 0;
    while (prompt[at]?.role === "system") at++;
    const message: PromptMessage = { role: "system", content: context, providerOptions: MARK };
    return [...prompt.slice(0, at), message, ...prompt.slice(at)];
  }
  const index = lastUserIndex(prompt);
  const target = prompt[index];
  if (target?.role !== "user") return [...prompt];
  const updated: PromptMessage = {
    ...target,
    content: [{ type: "text", text: context, providerOptions: MARK }, ...target.content],
  };
  return [...prompt.slice(0, index), updated, ...prompt.slice(index + 1)];
}

/** The assistant's text in a generate result, and whether it asked for tools (turn not over). */
export function replyOf(result: GenerateResult): { text: string; callsTools: boolean } {
  let text = "";
  let callsTools = false;
  for (const part of result.content) {
    if (part.type === "text") text += part.text;
    if (part.type === "tool-call" && !part.providerExecuted) callsTools = true;
  }
  return { text, callsTools };
}
