/**
 * The live list joined with tiers and cached entitlements: what `retie models` prints, what the
 * ladder is built from, and (from the last saved list) what `retie usage` shows offline.
 *
 * @module
 */
import { type CatalogEntry, fetchCatalog } from "./catalog.ts";
import type { LadderCandidate } from "./ladder.ts";
import type { BaseRecord, Entitlement, ProbeCache } from "./probe_cache.ts";
import { assignTiers, type TieredModel } from "./tiers.ts";

/** One model with its tier and what retie knows of its entitlement. */
export interface ModelStatus extends TieredModel {
  entitlement: Entitlement;
  /** When the entitlement was learnt. */
  at?: string;
  /** The service's message behind a denial or an inconclusive probe. */
  message?: string;
}

/**
 * Joins a live list with the cache for its base URL.
 *
 * @example
 * ```ts
 * import { modelStatuses } from "./model_list.ts";
 * modelStatuses([{ name: "gpt-oss:20b", size: 13.8e9 }], { models: {} })[0].entitlement; // "not_probed"
 * ```
 */
export function modelStatuses(catalog: CatalogEntry[], base: BaseRecord): ModelStatus[] {
  return assignTiers(catalog).map((t) => {
    const rec = base.models[t.name];
    return {
      ...t,
      entitlement: rec?.status ?? "not_probed",
      ...(rec?.at ? { at: rec.at } : {}),
      ...(rec?.message ? { message: rec.message } : {}),
    };
  });
}

/**
 * Fetches the live list, tiers it, joins the cache, and saves the list (with tiers) in the cache
 * so later offline commands can show it.
 *
 * @example
 * ```ts
 * import { liveModels } from "./model_list.ts";
 * import { ProbeCache } from "./probe_cache.ts";
 * const models = await liveModels("https://ollama.com/v1", new ProbeCache());
 * models.filter((m) => m.tier === 1).map((m) => m.name);
 * ```
 */
export async function liveModels(
  baseUrl: string,
  cache: ProbeCache,
  opts: { timeoutMs?: number; fetch?: typeof fetch } = {},
): Promise<ModelStatus[]> {
  const catalog = await fetchCatalog(baseUrl, opts);
  const statuses = modelStatuses(catalog, cache.base(baseUrl));
  cache.setCatalog(
    baseUrl,
    statuses.map((s) => ({ name: s.name, tier: s.tier, sizeBytes: s.sizeBytes, basis: s.basis })),
  );
  return statuses;
}

/**
 * The last saved list for `baseUrl`, joined with the cache, or `null` when none was saved.
 *
 * @example
 * ```ts
 * import { cachedModels } from "./model_list.ts";
 * import { ProbeCache } from "./probe_cache.ts";
 * cachedModels("https://ollama.com/v1", new ProbeCache()); // null before any `retie models`
 * ```
 */
export function cachedModels(baseUrl: string, cache: ProbeCache): ModelStatus[] | null {
  const base = cache.base(baseUrl);
  if (!base.catalog) return null;
  return base.catalog.map((c) => {
    const rec = base.models[c.name];
    return {
      name: c.name,
      tier: c.tier,
      sizeBytes: c.sizeBytes,
      basis: c.basis ?? (c.sizeBytes === null ? "unknown" : "size"),
      entitlement: rec?.status ?? "not_probed",
      ...(rec?.at ? { at: rec.at } : {}),
      ...(rec?.message ? { message: rec.message } : {}),
    };
  });
}

/**
 * Ladder candidates from model statuses.
 *
 * @example
 * ```ts
 * import { toCandidates } from "./model_list.ts";
 * toCandidates([]); // []
 * ```
 */
export function toCandidates(models: ModelStatus[]): LadderCandidate[] {
  return models.map((m) => ({
    name: m.name,
    tier: m.tier,
    entitlement: m.entitlement,
    sizeBytes: m.sizeBytes,
  }));
}
