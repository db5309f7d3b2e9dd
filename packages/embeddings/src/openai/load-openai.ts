import { importOptional } from "../http/optional-import.js";
import type { RemoteSettings } from "../http/remote-settings.js";

type OpenAIModule = typeof import("openai");
export type OpenAIClient = InstanceType<OpenAIModule["default"]>;

let loading: Promise<OpenAIModule> | undefined;

function loadOpenAI(): Promise<OpenAIModule> {
  loading ??= importOptional("openai", "The openai embedding provider", () => import("openai"));
  // A failed import is not cached, so installing the package fixes a running process.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

// Our ResilientFetch owns retries and per-request timeouts; the SDK's own timer must never fire
// first, so it gets the largest delay setTimeout accepts.
const SDK_TIMEOUT_MS = 2_147_483_647;

/** Builds a client for one request, so that the key is read now and `fetch` is per-call. */
export async function openAIClient(
  settings: RemoteSettings,
  baseURL: string | undefined,
  apiKey: string | undefined,
  fetch: typeof globalThis.fetch,
): Promise<OpenAIClient> {
  const { default: OpenAI } = await loadOpenAI();
  return new OpenAI({
    // The SDK refuses to start without a key; keyless local servers ignore this placeholder.
    apiKey: apiKey ?? "no-key",
    baseURL,
    defaultHeaders: settings.headers,
    fetch,
    maxRetries: 0,
    timeout: SDK_TIMEOUT_MS,
  });
}
