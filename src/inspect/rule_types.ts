/**
 * What a rule is: an id, a severity, a justification, how it counts, and examples that the tests
 * run through the inspector (positive examples must fire, negative ones must stay silent).
 *
 * @module
 */
import type { Severity } from "./types.ts";
import { mayMatch, textIndex } from "./regex_hint.ts";

/** The languages the rules know; `other` is any other text file (config, env, YAML, …). */
export type Lang = "python" | "js" | "other";

/**
 * How a rule's counts turn into a finding.
 * - `guard`: counts protections; fires when the count in the file drops (`1 → 0`, `3 → 2`).
 * - `pattern`: counts dangerous text; fires when the count rises (`0 → 1`).
 */
export type RuleMode = "guard" | "pattern";

/** One example edit: a positive one must fire the rule, a negative one must not. */
export interface RuleExample {
  /** Short description of the edit. */
  name: string;
  path: string;
  before: string | null;
  after: string | null;
}

/** One match of a pattern rule, compared by value before vs after. */
export interface RuleItem {
  /** What is compared (a secret's value: never shown). */
  value: string;
  /** 1-based line. */
  line: number;
  /** What it is, for the finding's detail (`github-pat`, `credential literal`). */
  label: string;
}

/** One inspector rule. */
export interface Rule {
  /** Stable id, e.g. `auth-check-removed`. */
  id: string;
  severity: Severity;
  mode: RuleMode;
  /** What is counted, plural, for messages: "auth checks", "secrets". */
  subject: string;
  /** Why the rule earns its place: what goes wrong when it fires and is ignored. */
  justification: string;
  /** Languages the rule applies to. */
  langs: readonly Lang[];
  /** Whether comments are removed before counting (a commented-out guard no longer guards). */
  codeOnly: boolean;
  /** Number of matches in `text` (already comment-stripped when `codeOnly`). */
  count(text: string, lang: Lang): number;
  examples: { positive: RuleExample[]; negative: RuleExample[] };
  /**
   * Guard rules only: how many of the before-matches sat inside definitions that no longer exist
   * after the edit (a verifier's implementation moved elsewhere or removed, which callers would
   * notice), as opposed to a caller that stopped checking or a verifier that was gutted.
   */
  inRemovedDefinitions?(before: string, after: string, lang: Lang): number;
  /**
   * Pattern rules only: the matches as items. When given, the rule fires when the after-text has
   * an item whose value the before-text lacks (a new secret, even if another one went), and the
   * finding names its line.
   */
  items?(
    text: string,
    lang: Lang,
    path: string,
    window?: readonly [number, number],
    prior?: string,
  ): RuleItem[];
}

/**
 * Counts the matches of every regex in `patterns` (each must carry the `g` flag).
 *
 * @example
 * ```ts
 * countAll("a verify=False b verify=False", [/verify\s*=\s*False/g]); // 2
 * ```
 */
export function countAll(text: string, patterns: readonly RegExp[]): number {
  let n = 0;
  // A pattern is run only on a text holding a literal all its matches contain (most do not).
  const index = textIndex(text);
  for (const re of patterns) {
    if (!re.global) throw new Error(`inspector pattern ${re} lacks the g flag`);
    if (!mayMatch(re, index)) continue;
    re.lastIndex = 0;
    for (const _ of text.matchAll(re)) n++;
  }
  return n;
}

/**
 * A counter choosing pattern sets by language; `other` files use `any` only, while an unknown
 * language (no path) is counted with every set.
 *
 * @example
 * ```ts
 * const c = byLang({ python: [/verify=False/g], js: [/rejectUnauthorized: false/g] });
 * c("verify=False", "python"); // 1
 * c("verify=False", "js"); // 0
 * ```
 */
export function byLang(
  sets: { python?: RegExp[]; js?: RegExp[]; any?: RegExp[] },
): (text: string, lang: Lang) => number {
  return (text, lang) => {
    const pats = [...(sets.any ?? [])];
    if (lang === "python") pats.push(...(sets.python ?? []));
    if (lang === "js") pats.push(...(sets.js ?? []));
    return countAll(text, pats);
  };
}
