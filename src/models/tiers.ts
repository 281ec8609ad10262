/**
 * Model tiers (usage levels 1..4) derived from live model size, never from a table of names.
 *
 * Ollama documents two anchors only: gpt-oss:20b is level 1 and deepseek-v4-pro is level 4. Every
 * other model is placed between them on a log scale of its size, so a model published today gets
 * a tier today:
 *
 * ```
 * tier = clamp(1..4, round(1 + 3 · ln(size / size₁) / ln(size₄ / size₁)))
 * ```
 *
 * Worked example with the fallback anchors (size₁ = 13.8 GB, size₄ = 1.76 TB) and
 * gpt-oss:120b at 65 GB: ln(65/13.8) = 1.55, ln(1760/13.8) = 4.85, 1 + 3 · 1.55 / 4.85 = 1.96 →
 * tier 2. kimi-k2:1t at 1118 GB: 1 + 3 · ln(81.0) / 4.85 = 3.72 → tier 4.
 *
 * A model's size is its `size` in bytes from `/api/tags`; when that is missing or zero, the
 * parameter count in its tag (`:20b`, `:120b`, `:1t`, `-405b`, `:30m`) times the bytes per
 * parameter observed in the same live list (median over models that have both; else
 * {@link FALLBACK_BYTES_PER_PARAM}); else the tier is unknown (`null`), which `--max-tier`
 * treats as the heaviest.
 *
 * @module
 */

/** The model Ollama documents as usage level 1. */
export const ANCHOR_LEVEL1 = "gpt-oss:20b";
/** The model Ollama documents as usage level 4. */
export const ANCHOR_LEVEL4 = "deepseek-v4-pro";

/**
 * Size in bytes used for gpt-oss:20b when the live list does not carry it: 13.8 GB, the
 * download size ollama.com/library/gpt-oss shows for `gpt-oss:20b` ("14GB", MXFP4 weights).
 */
export const FALLBACK_SIZE_LEVEL1 = 13.8e9;

/**
 * Size in bytes used for deepseek-v4-pro when the live list does not carry it: 1.6 × 10¹²
 * parameters (DeepSeek's V4-Pro model card, total parameters; not verified from this machine)
 * × 1.1 bytes per parameter ({@link FALLBACK_BYTES_PER_PARAM}) = 1.76 TB.
 */
export const FALLBACK_SIZE_LEVEL4 = 1.6e12 * 1.1;

/**
 * Bytes per parameter when the live list gives no model with both a size and a tagged parameter
 * count: 1.1, the ratio of the two entries quoted from the live `/api/tags` in the wire reference
 * (`kimi-k2:1t` 1 118 481 408 000 B → 1.12; `ministral-3:14b` 15 700 000 000 B → 1.12).
 */
export const FALLBACK_BYTES_PER_PARAM = 1.1;

/** One model of the live list, as far as tiers need it. */
export interface SizedModel {
  name: string;
  /** `size` in bytes from `/api/tags`, when present and positive. */
  size?: number;
}

/** A model with its tier and where the size came from. */
export interface TieredModel {
  name: string;
  /** 1..4, or `null` when neither a size nor a parameter count is known. */
  tier: number | null;
  /** The size the tier was computed from (bytes), when known. */
  sizeBytes: number | null;
  /** `size` (live bytes), `params` (tag parameter count), or `unknown`. */
  basis: "size" | "params" | "unknown";
}

/** Anchor sizes in bytes, and where each came from. */
export interface Anchors {
  level1: number;
  level4: number;
  level1From: "live" | "fallback";
  level4From: "live" | "fallback";
}

const UNITS: Record<string, number> = { k: 1e3, m: 1e6, b: 1e9, t: 1e12 };

/**
 * The parameter count written in a model name, or `null`: `gpt-oss:120b` → 1.2e11,
 * `kimi-k2:1t` → 1e12, `llama-3.1-405b` → 4.05e11, `qwen3:0.6b` → 6e8, `glm-4.7` → null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { paramsFromName } from "./tiers.ts";
 * assert.deepEqual(paramsFromName("gpt-oss:120b"), 120000000000);
 * assert.deepEqual(paramsFromName("glm-5.2"), null);
 * ```
 */
export function paramsFromName(name: string): number | null {
  // The tag (after ':') first, then a trailing '-<n>b' in the base name. A size is a number
  // followed by a unit and then the end or a separator, so `a3b`-style "active" counts such as
  // `qwen3:30b-a3b` still read 30b (the first match), and `k2` is not a size.
  const [base, tag] = name.split(":", 2);
  const re = /(?:^|[-_:])(\d+(?:\.\d+)?)([kmbt])(?=$|[-_.])/i;
  for (const part of [tag, base]) {
    if (!part) continue;
    const m = re.exec(part.startsWith("-") ? part : `:${part}`);
    if (m) {
      const n = Number(m[1]) * UNITS[m[2].toLowerCase()];
      if (Number.isFinite(n) && n > 0) return n;
    }
  }
  return null;
}

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * Bytes per parameter observed in the list (median over models with both a size and a tagged
 * parameter count), else {@link FALLBACK_BYTES_PER_PARAM}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bytesPerParam } from "./tiers.ts";
 * assert.deepEqual(bytesPerParam([{ name: "a:10b", size: 2e10 }]), 2);
 * ```
 */
export function bytesPerParam(models: SizedModel[]): number {
  const ratios: number[] = [];
  for (const m of models) {
    const p = paramsFromName(m.name);
    if (p && m.size && m.size > 0) ratios.push(m.size / p);
  }
  return median(ratios) ?? FALLBACK_BYTES_PER_PARAM;
}

/** A model's size in bytes: live `size`, else tag parameters × bytes per parameter. */
function sizeOf(m: SizedModel, bpp: number): { bytes: number | null; basis: TieredModel["basis"] } {
  if (m.size && m.size > 0) return { bytes: m.size, basis: "size" };
  const p = paramsFromName(m.name);
  if (p) return { bytes: p * bpp, basis: "params" };
  return { bytes: null, basis: "unknown" };
}

/** Whether `name` is the anchor `anchor` (exact, or the anchor with any tag: `deepseek-v4-pro:cloud`). */
function isAnchor(name: string, anchor: string): boolean {
  return name === anchor || (!anchor.includes(":") && name.split(":")[0] === anchor);
}

/**
 * The anchor sizes for a live list: each anchor's own size when it is listed with one, else its
 * documented fallback.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { anchorsFor } from "./tiers.ts";
 * assert.deepEqual(anchorsFor([{ name: "gpt-oss:20b", size: 14e9 }]).level1, 14000000000);
 * ```
 */
export function anchorsFor(models: SizedModel[]): Anchors {
  const bpp = bytesPerParam(models);
  const find = (anchor: string) => {
    const m = models.find((x) => isAnchor(x.name, anchor));
    return m ? sizeOf(m, bpp).bytes : null;
  };
  const l1 = find(ANCHOR_LEVEL1);
  const l4 = find(ANCHOR_LEVEL4);
  const a: Anchors = {
    level1: l1 ?? FALLBACK_SIZE_LEVEL1,
    level4: l4 ?? FALLBACK_SIZE_LEVEL4,
    level1From: l1 ? "live" : "fallback",
    level4From: l4 ? "live" : "fallback",
  };
  // A live list that inverts the anchors would make the scale meaningless: fall back.
  if (a.level4 <= a.level1) {
    return {
      level1: FALLBACK_SIZE_LEVEL1,
      level4: FALLBACK_SIZE_LEVEL4,
      level1From: "fallback",
      level4From: "fallback",
    };
  }
  return a;
}

/**
 * The tier for a size in bytes, on the log scale between the anchors, clamped to 1..4.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tierForSize } from "./tiers.ts";
 * assert.deepEqual(tierForSize(65e9, { level1: 13.8e9, level4: 1.76e12, level1From: "fallback", level4From: "fallback" }), 2);
 * ```
 */
export function tierForSize(bytes: number, anchors: Anchors): number {
  const x = 1 + 3 * Math.log(bytes / anchors.level1) / Math.log(anchors.level4 / anchors.level1);
  return Math.min(4, Math.max(1, Math.round(x)));
}

/**
 * Tiers for a whole live list. Anchors are pinned: gpt-oss:20b is 1 and deepseek-v4-pro is 4
 * whatever their sizes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { assignTiers } from "./tiers.ts";
 * const tiered = assignTiers([{ name: "gpt-oss:20b", size: 13.8e9 }, { name: "brand-new:300b" }]);
 * assert.deepEqual(tiered.map((m) => m.tier), [1, 3]);
 * ```
 */
export function assignTiers(models: SizedModel[]): TieredModel[] {
  const anchors = anchorsFor(models);
  const bpp = bytesPerParam(models);
  return models.map((m) => {
    const { bytes, basis } = sizeOf(m, bpp);
    let tier = bytes === null ? null : tierForSize(bytes, anchors);
    if (isAnchor(m.name, ANCHOR_LEVEL1)) tier = 1;
    if (isAnchor(m.name, ANCHOR_LEVEL4)) tier = 4;
    return { name: m.name, tier, sizeBytes: bytes, basis };
  });
}

/**
 * The tier used for sorting and `--max-tier`: unknown counts as heavier than every known tier.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { effectiveTier } from "./tiers.ts";
 * assert.deepEqual(effectiveTier(null), 5);
 * ```
 */
export function effectiveTier(tier: number | null): number {
  return tier ?? 5;
}

/**
 * The usage weight of a tier (tier N weighs N; unknown weighs as the heaviest, 4).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tierWeight } from "./tiers.ts";
 * assert.deepEqual(tierWeight(3), 3);
 * assert.deepEqual(tierWeight(null), 4);
 * ```
 */
export function tierWeight(tier: number | null): number {
  return tier ?? 4;
}
