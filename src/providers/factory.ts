/**
 * Builds the provider the user asked for, with the key from the environment.
 *
 * @module
 */
import { RetieError } from "../core/errors.ts";
import { createAnthropicProvider } from "./anthropic.ts";
import { createOpenAICompatProvider } from "./openai_compat.ts";
import type { Provider } from "./types.ts";

/** Where each provider lives when `--base-url` is not given. */
export const DEFAULT_BASE_URLS = {
  ollama: "https://ollama.com/v1",
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com",
} as const;

/** The variable holding each provider's key, and where to get one. */
export const KEY_SOURCES = {
  ollama: { variable: "OLLAMA_API_KEY", url: "https://ollama.com/settings/keys" },
  openai: { variable: "OPENAI_API_KEY", url: "https://platform.openai.com/api-keys" },
  anthropic: { variable: "ANTHROPIC_API_KEY", url: "https://console.anthropic.com/settings/keys" },
} as const;

/**
 * Whether a base URL points at this machine (a local Ollama needs no key).
 *
 * @example
 * ```ts
 * import { isLocalBaseUrl } from "./factory.ts";
 * isLocalBaseUrl("http://localhost:11434/v1"); // true
 * ```
 */
export function isLocalBaseUrl(url: string): boolean {
  try {
    const h = new URL(url).hostname;
    return h === "localhost" || h === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(h);
  } catch {
    return false;
  }
}

/**
 * Creates a provider. A missing key is a {@link RetieError} (exit code 2) naming the variable and
 * where to get a key; ollama/openai at a local `baseUrl` run without one (sending "ollama").
 *
 * @example
 * ```ts
 * import { createProvider } from "./factory.ts";
 * const p = createProvider({ provider: "ollama", model: "gpt-oss:120b", env: (n) => Deno.env.get(n) });
 * ```
 */
export function createProvider(opts: {
  provider: "ollama" | "openai" | "anthropic";
  model: string;
  baseUrl?: string;
  env: (name: string) => string | undefined;
  timeoutMs?: number;
}): Provider {
  const { provider, model } = opts;
  if (!(provider in DEFAULT_BASE_URLS)) {
    throw new RetieError(`unknown provider (${provider})`, {
      hint: "use --provider ollama, openai or anthropic",
      exitCode: 2,
    });
  }
  if (!model || !model.trim()) {
    throw new RetieError(`no model given for ${provider}`, {
      hint: "pass --model NAME",
      exitCode: 2,
    });
  }
  const baseUrl = opts.baseUrl ?? DEFAULT_BASE_URLS[provider];
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    parsed = new URL("invalid:");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new RetieError(`bad base URL (${baseUrl}): not an http(s) URL`, {
      hint: `pass --base-url like ${DEFAULT_BASE_URLS[provider]}`,
      exitCode: 2,
    });
  }
  const { variable, url } = KEY_SOURCES[provider];
  let apiKey = opts.env(variable)?.trim();
  if (!apiKey) {
    if (provider !== "anthropic" && opts.baseUrl && isLocalBaseUrl(baseUrl)) apiKey = "ollama";
    else {
      throw new RetieError(`no API key for ${provider}: ${variable} is not set`, {
        hint: `get a key at ${url} and run: export ${variable}=...`,
        exitCode: 2,
      });
    }
  }
  if (provider === "anthropic") {
    return createAnthropicProvider({ baseUrl, apiKey, model, timeoutMs: opts.timeoutMs });
  }
  return createOpenAICompatProvider({
    name: provider,
    baseUrl,
    apiKey,
    model,
    timeoutMs: opts.timeoutMs,
  });
}
