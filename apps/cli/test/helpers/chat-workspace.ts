import { ChatServer } from "@memory/testkit";
import { Workspace } from "./run-memory.js";

/** A workspace whose chat model is a scripted OpenAI-compatible server on loopback. */
export interface ChatWorkspace {
  server: ChatServer;
  ws: Workspace;
}

/** Starts the chat server and a keyword-only workspace configured to use it (plus `extra` lines). */
export async function openChatWorkspace(extra: readonly string[] = []): Promise<ChatWorkspace> {
  const server = await ChatServer.start();
  const ws = new Workspace(
    "",
    [
      'embedding_provider = "noop"',
      `chat_provider = "custom:${server.baseURL}"`,
      'chat_model = "scripted-chat"',
      ...extra,
    ].join("\n"),
  );
  return { server, ws };
}

export async function closeChatWorkspace({ server, ws }: ChatWorkspace): Promise<void> {
  ws.remove();
  await server.close();
}
