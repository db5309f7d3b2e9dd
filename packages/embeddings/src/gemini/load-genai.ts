import { importOptional } from "../http/optional-import.js";
import type { RemoteSettings } from "../http/remote-settings.js";

type GenAIModule = typeof import("@google/genai");
export type GenAIClient = InstanceType<GenAIModule["GoogleGenAI"]>;

let loading: Promise<GenAIModule> | undefined;

function loadGenAI(): Promise<GenAIModule> {
  loading ??= importOptional("@google/genai", "The gemini provider", () => import("@google/genai"));
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/**
 * One client per request so the key is read now and `fetch` carries this call's signal. Without
 * `retryOptions` the SDK makes exactly one attempt, leaving retries to ResilientFetch.
 */
export async function genAIClient(
  settings: RemoteSettings,
  apiKey: string,
  fetch: typeof globalThis.fetch,
): Promise<GenAIClient> {
  const { GoogleGenAI } = await loadGenAI();
  return new GoogleGenAI({
    apiKey,
    httpOptions: {
      ...(settings.baseURL === undefined ? {} : { baseUrl: settings.baseURL }),
      ...(settings.headers === undefined ? {} : { headers: settings.headers }),
      fetch,
    },
  });
}
