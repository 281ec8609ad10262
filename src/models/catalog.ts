/**
 * The live model list: `GET <origin>/api/tags` (public, no key needed), parsed defensively.
 *
 * The list is the service's, not ours: nothing here names a model. The tags URL derives from the
 * OpenAI-compatible base URL, so `https://ollama.com/v1` → `https://ollama.com/api/tags` and an
 * emulator at `http://127.0.0.1:PORT/v1` → `http://127.0.0.1:PORT/api/tags`.
 *
 * @module
 */
import { errorMessage, RetieError } from "../core/errors.ts";
import { deniedByPermissions, LOOPBACK_DENIED_HINT } from "../providers/error_map.ts";

/** The default OpenAI-compatible base URL of Ollama Cloud. */
export const DEFAULT_BASE_URL = "https://ollama.com/v1";

/** One entry of `/api/tags`. */
export interface CatalogEntry {
  /** The exact name the direct API expects (`gpt-oss:120b`, `glm-4.7`). */
  name: string;
  /** Size in bytes, when the service gave a positive number. */
  size?: number;
  modifiedAt?: string;
  digest?: string;
}

/**
 * Normalises a base URL (no trailing slash) and checks it is http(s).
 *
 * @example
 * ```ts
 * import { normalizeBaseUrl } from "./catalog.ts";
 * normalizeBaseUrl("https://ollama.com/v1/"); // "https://ollama.com/v1"
 * ```
 */
export function normalizeBaseUrl(baseUrl: string): string {
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    throw new RetieError(`invalid base URL (${baseUrl}): not a URL`, {
      hint: "pass an http(s) URL such as https://ollama.com/v1",
      exitCode: 2,
    });
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new RetieError(`invalid base URL (${baseUrl}): only http and https are supported`, {
      hint: "pass an http(s) URL such as https://ollama.com/v1",
      exitCode: 2,
    });
  }
  return u.href.replace(/\/+$/, "");
}

/**
 * The `/api/tags` URL for an OpenAI-compatible base URL: a trailing `/v1` is replaced.
 *
 * @example
 * ```ts
 * import { tagsUrl } from "./catalog.ts";
 * tagsUrl("https://ollama.com/v1"); // "https://ollama.com/api/tags"
 * ```
 */
export function tagsUrl(baseUrl: string): string {
  const base = normalizeBaseUrl(baseUrl).replace(/\/v1$/, "");
  return `${base}/api/tags`;
}

/**
 * Parses an `/api/tags` body. Entries without a usable name are skipped; a body without a
 * `models` array is refused.
 *
 * @example
 * ```ts
 * import { parseTags } from "./catalog.ts";
 * parseTags({ models: [{ name: "gpt-oss:20b", size: 13800000000 }] });
 * // [{ name: "gpt-oss:20b", size: 13800000000 }]
 * ```
 */
export function parseTags(body: unknown): CatalogEntry[] {
  const models = (body as { models?: unknown })?.models;
  if (!Array.isArray(models)) {
    throw new RetieError("unexpected model list: no `models` array in the /api/tags answer", {
      hint: "check --base-url points at an Ollama server (https://ollama.com/v1)",
    });
  }
  const out: CatalogEntry[] = [];
  const seen = new Set<string>();
  for (const raw of models) {
    if (!raw || typeof raw !== "object") continue;
    const r = raw as Record<string, unknown>;
    const name = typeof r.name === "string" && r.name
      ? r.name
      : typeof r.model === "string"
      ? r.model
      : "";
    if (!name || seen.has(name)) continue;
    seen.add(name);
    const e: CatalogEntry = { name };
    if (typeof r.size === "number" && Number.isFinite(r.size) && r.size > 0) e.size = r.size;
    if (typeof r.modified_at === "string") e.modifiedAt = r.modified_at;
    if (typeof r.digest === "string") e.digest = r.digest;
    out.push(e);
  }
  return out;
}

/**
 * Fetches and parses the live list.
 *
 * @example
 * ```ts
 * import { fetchCatalog } from "./catalog.ts";
 * const models = await fetchCatalog("https://ollama.com/v1");
 * models.map((m) => m.name);
 * ```
 */
export async function fetchCatalog(
  baseUrl: string,
  opts: { timeoutMs?: number; fetch?: typeof fetch } = {},
): Promise<CatalogEntry[]> {
  const url = tagsUrl(baseUrl);
  const f = opts.fetch ?? fetch;
  let res: Response;
  try {
    res = await f(url, { signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000) });
  } catch (e) {
    throw new RetieError(`cannot fetch the model list (${url}): ${errorMessage(e)}`, {
      hint: deniedByPermissions(e) ? LOOPBACK_DENIED_HINT : "check the network and --base-url",
      cause: e,
    });
  }
  const text = await res.text();
  if (!res.ok) {
    throw new RetieError(
      `cannot fetch the model list (${url}): HTTP ${res.status} ${text.slice(0, 200)}`,
      {
        hint: "check --base-url points at an Ollama server",
      },
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new RetieError(`unexpected model list (${url}): not JSON`, {
      hint: "check --base-url points at an Ollama server",
    });
  }
  return parseTags(body);
}
