/**
 * A model's context window, in tokens: Ollama's `POST <origin>/api/show` (`model_info` carries
 * `<architecture>.context_length`), a table for Anthropic and OpenAI models, else unknown (then
 * `--context-window N` or `contextWindow` in the config tells retie).
 *
 * @module
 */
import { normalizeBaseUrl } from "./catalog.ts";

/** Known windows by model-name prefix (longest match wins). Anthropic and OpenAI publish these. */
export const KNOWN_CONTEXT_WINDOWS: Record<string, number> = {
  "claude-": 200_000,
  "gpt-4o": 128_000,
  "gpt-4.1": 1_047_576,
  "gpt-5": 400_000,
  "o3": 200_000,
  "o4-mini": 200_000,
};

/**
 * The window of a model from the table, or null.
 *
 * @example
 * ```ts
 * import { tableContextWindow } from "./context_window.ts";
 * tableContextWindow("claude-sonnet-4-5"); // 200000
 * tableContextWindow("gpt-oss:120b"); // null
 * ```
 */
export function tableContextWindow(model: string): number | null {
  let best: string | null = null;
  for (const prefix of Object.keys(KNOWN_CONTEXT_WINDOWS)) {
    if (model.startsWith(prefix) && (!best || prefix.length > best.length)) best = prefix;
  }
  return best ? KNOWN_CONTEXT_WINDOWS[best] : null;
}

/**
 * The `/api/show` URL for an OpenAI-compatible base URL (a trailing `/v1` is replaced).
 *
 * @example
 * ```ts
 * import { showUrl } from "./context_window.ts";
 * showUrl("https://ollama.com/v1"); // "https://ollama.com/api/show"
 * ```
 */
export function showUrl(baseUrl: string): string {
  return `${normalizeBaseUrl(baseUrl).replace(/\/v1$/, "")}/api/show`;
}

/**
 * Reads `*.context_length` out of an `/api/show` body's `model_info`, or null.
 *
 * @example
 * ```ts
 * import { contextLengthFromShow } from "./context_window.ts";
 * contextLengthFromShow({ model_info: { "general.architecture": "gptoss", "gptoss.context_length": 131072 } });
 * // 131072
 * ```
 */
export function contextLengthFromShow(body: unknown): number | null {
  const info = (body as { model_info?: Record<string, unknown> } | null)?.model_info;
  if (!info || typeof info !== "object") return null;
  const arch = info["general.architecture"];
  const exact = typeof arch === "string" ? info[`${arch}.context_length`] : undefined;
  const any = exact ??
    Object.entries(info).find(([k, v]) => k.endsWith(".context_length") && typeof v === "number")
      ?.[1];
  return typeof any === "number" && Number.isInteger(any) && any > 0 ? any : null;
}

/**
 * Asks an Ollama server for a model's context window (`POST /api/show`); null when the server
 * does not say (an error, no `model_info`, a timeout of 5 s).
 *
 * @example
 * ```ts ignore
 * await ollamaContextWindow("https://ollama.com/v1", "gpt-oss:120b", key); // 131072
 * ```
 */
export async function ollamaContextWindow(
  baseUrl: string,
  model: string,
  apiKey?: string,
): Promise<number | null> {
  try {
    const res = await fetch(showUrl(baseUrl), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      body: JSON.stringify({ model }),
      signal: AbortSignal.timeout(5000),
    });
    if (!res.ok) {
      await res.body?.cancel();
      return null;
    }
    return contextLengthFromShow(await res.json());
  } catch {
    return null;
  }
}
