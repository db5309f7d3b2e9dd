/** One message of a chat exchange. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface CompleteOptions {
  /** Ask the model for a JSON object; the returned text is then valid JSON. */
  json?: boolean;
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
}

/** The small LLM interface the curator and synthesis jobs use. */
export interface ChatModel {
  readonly name: string;
  readonly model: string;
  /** The assistant's reply text. */
  complete(messages: readonly ChatMessage[], options?: CompleteOptions): Promise<string>;
}
