/**
 * The learned guard signal: a logistic model over what an edit's changed lines took away and
 * brought (`guard_features.ts`), trained on the guard corpus (guards removed, and the same edits
 * reversed), on ordinary commits of security projects and on benign release edits
 * (`scripts/guard_model_train.ts`). It catches weakenings no shape names, by the words they take
 * away from security code (`is_active`, `compare`, `state`, `used`, an `if` that raised).
 *
 * It speaks only where the rule-based changed-line signals found nothing, at medium severity,
 * naming the removed line that weighs most and the features behind the score. The weights are
 * data (`data/guard_model.json`), read once; docs/inspector.md gives the held-out measures and
 * how to retrain.
 *
 * @module
 */
import data from "./data/guard_model.json" with { type: "json" };
import { editFeatures } from "./guard_features.ts";
import { clip, code, type Hunk } from "./guard_text.ts";
import { tokensOf } from "./term_diff.ts";
import { NOT_A_DENIAL } from "./guard_vocab.ts";

/** A trained model as `data/guard_model.json` holds it. */
export interface GuardModel {
  version: number;
  threshold: number;
  bias: number;
  weights: Record<string, number>;
}

const MODEL: GuardModel = data as GuardModel;

/** What the model says of one edit. */
export interface LearnedSignal {
  rule: "auth-check-removed" | "crypto-verification-removed" | "secure-default-weakened";
  score: number;
  /** The before-line that weighs most. */
  n: number;
  what: string;
}

/** Features that say which guard family a weakening belongs to. */
const CRYPTO = /verif|sign|digest|hmac|compare|equal|token|jwt|alg|nonce|claim|aud|iss|exp\b|hash/;
const DEFAULTS = /ssl|tls|cert|secure|cookie|httponly|same|https|strict|default/;

/**
 * The model's score for a list of features (its log-odds).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoreOf } from "./guard_model.ts";
 * const m = { version: 1, threshold: 1, bias: -1, weights: { "-active": 2.5 } };
 * assert.equal(scoreOf(["-active", "+ok"], m), 1.5);
 * ```
 */
export function scoreOf(features: readonly string[], model: GuardModel = MODEL): number {
  let z = model.bias;
  for (const f of features) z += model.weights[f] ?? 0;
  return z;
}

/**
 * The learned signal for an edit whose hunks are `hs`, or null when its score stays under the
 * model's threshold or, given the after-lines, the edit only renames (a name taken out of the file
 * for one it did not have, the same way everywhere).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { learnedSignal } from "./guard_model.ts";
 * const before = ["def ok(u):", "    return u.ok and u.is_active"];
 * const hunk = { removed: [{ n: 2, text: before[1] }], added: [{ n: 2, text: "    return u.ok" }] };
 * const m = { version: 1, threshold: 1, bias: -1, weights: { "-active": 2.5 } };
 * const s = learnedSignal("auth/views.py", before, [hunk], m)!;
 * assert.equal(s.n, 2);
 * assert.match(s.what, /learned signal \(score 1\.50: -active\)/);
 * ```
 */
export function learnedSignal(
  path: string,
  before: string[],
  hs: readonly Hunk[],
  model: GuardModel = MODEL,
  after?: string[],
): LearnedSignal | null {
  if (after && renamesOnly(hs, before, after)) return null;
  const features = editFeatures(path, before, hs);
  const score = scoreOf(features, model);
  if (score <= model.threshold) return null;
  const top = features.map((f) => [f, model.weights[f] ?? 0] as const)
    .filter(([, w]) => w > 0).sort((a, b) => b[1] - a[1]).slice(0, 3).map(([f]) => f);
  // The removed line that carries most of the weight of what went away.
  let n = hs[0]?.removed[0]?.n ?? hs[0]?.added[0]?.n ?? 1;
  let line = "";
  let best = -Infinity;
  for (const h of hs) {
    for (const l of h.removed) {
      const c = code(l.text);
      if (c === "") continue;
      const weight = top.reduce((s, f) => s + (c.toLowerCase().includes(word(f)) ? 1 : 0), 0);
      if (weight > best) [best, n, line] = [weight, l.n, c];
    }
  }
  // An argument check (`raise TypeError`) is no denial, whatever the words around it say.
  if (NOT_A_DENIAL.test(line) && /\b(raise|throw)\b/.test(line)) return null;
  const words = top.join(", ");
  const rule = CRYPTO.test(words)
    ? "crypto-verification-removed"
    : DEFAULTS.test(words)
    ? "secure-default-weakened"
    : "auth-check-removed";
  const at = line ? `\`${clip(line)}\` ` : "";
  return { rule, score, n, what: `${at}learned signal (score ${score.toFixed(2)}: ${words})` };
}

/** The word a feature is about (`-if|active` → `active`, `-b:is_active` → `active`). */
function word(feature: string): string {
  const w = feature.replace(/^[-+](k:|b:|[a-z@]+\|)?/, "");
  return w.includes("_") ? w.split("_").pop()! : w;
}

/**
 * Whether every hunk only renames: each removed line has an added line with the same tokens
 * except names, each old name always becomes the same new one, in two places at least, leaves the
 * file and is replaced by a name the file did not have (a rename changes no logic).
 */
function renamesOnly(hs: readonly Hunk[], before: string[], after: string[]): boolean {
  const map = new Map<string, string>();
  const seen = new Map<string, number>();
  const toks = (t: string) => tokensOf([{ l: { n: 0 }, c: code(t) }]).map((x) => x.t);
  const KEYWORD = /^(true|false|True|False|None|null|nil|undefined|and|or|not|in|is|if|return)$/;
  for (const h of hs) {
    if (h.removed.length !== h.added.length || h.removed.length === 0) return false;
    for (let i = 0; i < h.removed.length; i++) {
      const a = toks(h.removed[i].text);
      const b = toks(h.added[i].text);
      if (a.length !== b.length) return false;
      for (let k = 0; k < a.length; k++) {
        if (a[k] === b[k]) continue;
        if (!/^[A-Za-z_$]/.test(a[k]) || !/^[A-Za-z_$]/.test(b[k])) return false;
        if (KEYWORD.test(a[k]) || KEYWORD.test(b[k])) return false;
        if ((map.get(a[k]) ?? b[k]) !== b[k]) return false;
        map.set(a[k], b[k]);
        seen.set(a[k], (seen.get(a[k]) ?? 0) + 1);
      }
    }
  }
  // A rename takes the old name out of the file and brings a name it did not have: swapping one
  // existing name for another (`is_manager` → `is_member`) is not one.
  const has = (lines: string[], name: string) =>
    new RegExp(`(^|[^\\w$])${name.replace(/\$/g, "\\$")}([^\\w$]|$)`).test(lines.join("\n"));
  // (A name declared and used is renamed in two places at least; one value swapped for another,
  // `"lax"` → `"none"`, is not a rename.)
  return map.size > 0 &&
    [...map].every(([o, n]) => (seen.get(o) ?? 0) >= 2 && !has(after, o) && !has(before, n));
}
