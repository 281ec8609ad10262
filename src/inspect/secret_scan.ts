/**
 * Secret formats from a maintained rule set: gitleaks' default configuration, converted to
 * `data/gitleaks_rules.json` by `scripts/gitleaks_rules_convert.ts` (see docs/inspector.md for the
 * version and how to update it). Each rule is applied as gitleaks applies it: keyword pre-filter,
 * regular expression, secret group, minimum Shannon entropy, the rule's allow-lists and the global
 * allow-list; then our own allow-list of placeholders, examples and redacted values.
 *
 * @module
 */
import data from "./data/gitleaks_rules.json" with { type: "json" };
import { nearKeyword, nearMatches, type NearRule } from "./secret_near.ts";

interface RawRegex {
  source: string;
  flags: string;
}
interface RawAllow {
  regexes: RawRegex[];
  stopwords: string[];
  target: string;
  and: boolean;
}
interface RawRule {
  id: string;
  source: string;
  flags: string;
  group: number;
  entropy: number;
  keywords: string[];
  allow: RawAllow[];
}

interface Allow {
  regexes: RegExp[];
  stopwords: string[];
  target: string;
  and: boolean;
}
interface CompiledRule {
  id: string;
  re: RegExp;
  /** Whether a match can span lines (then the whole text is scanned). */
  multiline: boolean;
  group: number;
  entropy: number;
  keywords: string[];
  /** Indices of the keywords in {@link KeywordIndex.words}. */
  keywordIds: number[];
  allow: Allow[];
  /**
   * For a rule of the shape `[\w.-]{0,50}?(?:KEYWORDS)…`: where its keywords start (a lookahead)
   * and the rule anchored (sticky), to try only the positions a match can start at.
   */
  near?: NearRule;
}

/**
 * Every rule keyword, indexed by its first two characters, so one pass over a text finds which
 * keywords it holds (instead of one substring search per keyword and rule).
 */
interface KeywordIndex {
  words: string[];
  /** 1 where some keyword starts with this pair of (low bytes of) character codes. */
  pairs: Uint8Array;
  byPair: Map<number, number[]>;
  /** Keywords shorter than two characters (searched for on their own). */
  short: number[];
}

/** One secret found in a text. */
export interface SecretHit {
  /** The rule that found it, e.g. `github-pat`, `generic-api-key`, `keyword-literal`. */
  rule: string;
  /** The secret itself (compared before vs after; never shown). */
  value: string;
  /** 1-based line. */
  line: number;
}

/** Rule set name and version, for docs and `retie inspect --rules`. */
export const SECRET_RULESET = `${data.source} ${data.version} (${data.commit.slice(0, 12)})`;

let compiled: CompiledRule[] | null = null;
let globalAllow: RegExp[] = [];
let globalStopwords: string[] = [];
let keywordIndex: KeywordIndex = {
  words: [],
  pairs: new Uint8Array(0),
  byPair: new Map(),
  short: [],
};

function rx(r: RawRegex): RegExp {
  return new RegExp(r.source, r.flags);
}

/** The pair code of `s` at `i`: the low bytes of two character codes. */
function pairAt(s: string, i: number): number {
  return ((s.charCodeAt(i) & 0xff) << 8) | (s.charCodeAt(i + 1) & 0xff);
}

function rules(): CompiledRule[] {
  if (compiled) return compiled;
  globalAllow = data.global.regexes.map(rx);
  globalStopwords = data.global.stopwords.map((w) => w.toLowerCase());
  const words: string[] = [];
  const ids = new Map<string, number>();
  const idOf = (k: string) => {
    let id = ids.get(k);
    if (id === undefined) ids.set(k, id = words.push(k) - 1);
    return id;
  };
  compiled = (data.rules as RawRule[]).map((r) => {
    // gitleaks compares keywords case-insensitively.
    const keywords = r.keywords.map((k) => k.toLowerCase());
    return {
      id: r.id,
      re: new RegExp(r.source, r.flags + "g"),
      multiline: /\\n|\\r|\(\?s|-----BEGIN|\[\\s\\S\]|\\s[*+]|\\s\{\d*,\}/.test(r.source),
      group: r.group,
      entropy: r.entropy,
      keywords,
      keywordIds: keywords.map(idOf),
      allow: r.allow.map((a) => ({ ...a, regexes: a.regexes.map(rx) })),
      near: nearKeyword(r.source, r.flags),
    };
  });
  const pairs = new Uint8Array(1 << 16);
  const byPair = new Map<number, number[]>();
  const short: number[] = [];
  words.forEach((w, id) => {
    if (w.length < 2) return void short.push(id);
    const p = pairAt(w, 0);
    pairs[p] = 1;
    const list = byPair.get(p);
    if (list) list.push(id);
    else byPair.set(p, [id]);
  });
  keywordIndex = { words, pairs, byPair, short };
  return compiled;
}

/**
 * Which keywords (by index) occur in `lower`, in one pass: a position is looked at closely only
 * when the two characters there start some keyword.
 */
function keywordsIn(lower: string): Uint8Array {
  const { words, pairs, byPair, short } = keywordIndex;
  const found = new Uint8Array(words.length);
  for (const id of short) if (lower.includes(words[id])) found[id] = 1;
  const n = lower.length - 1;
  let prev = lower.charCodeAt(0) & 0xff;
  for (let i = 0; i < n; i++) {
    const next = lower.charCodeAt(i + 1) & 0xff;
    const p = (prev << 8) | next;
    prev = next;
    if (pairs[p] === 0) continue;
    for (const id of byPair.get(p)!) {
      if (found[id] === 0 && lower.startsWith(words[id], i)) found[id] = 1;
    }
  }
  return found;
}

/**
 * Shannon entropy of a string, in bits per character.
 *
 * @example
 * ```ts
 * shannon("aaaa"); // 0
 * shannon("abcd"); // 2
 * ```
 */
export function shannon(s: string): number {
  const freq = new Map<string, number>();
  for (const ch of s) freq.set(ch, (freq.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of freq.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/**
 * Values that are placeholders, examples, templates or redactions, not credentials.
 *
 * @example
 * ```ts
 * isPlaceholder("<your-api-key>"); // true
 * isPlaceholder("AKIAIOSFODNN7EXAMPLE"); // true
 * isPlaceholder("hunter2-Zq8!x"); // false
 * ```
 */
export function isPlaceholder(v: string): boolean {
  return PLACEHOLDER.test(v) || /^(.)\1*$/.test(v) || /^(.{1,4})\1{3,}$/.test(v) ||
    SEQUENCE.test(v) || /\[\^|\{\d*,\d*\}|\(\?[:=!<]/.test(v) ||
    /(\w{3,})[-_.:]\1[-_.:]\1/.test(v) || hasRun(v, 7);
}

/** Whether `v` has `n` consecutive characters in alphabet order (`klmnopq`, `3456789`). */
function hasRun(v: string, n: number): boolean {
  let run = 1;
  for (let i = 1; i < v.length; i++) {
    run = v.charCodeAt(i) === v.charCodeAt(i - 1) + 1 ? run + 1 : 1;
    if (run >= n) return true;
  }
  return false;
}

/**
 * Whether a keyword-context match is one gitleaks' generic rule allow-lists (names such as
 * `publicToken`, `csrf-token`, `keyVaultToStoreSecrets`, identifiers as values), applied to the
 * inspector's own keyword patterns too.
 *
 * @example
 * ```ts
 * genericAllowed('publicToken = "9Cnzj4p4WGeKLs1Pt8QuKUpRKfFLfRYC9AIKjbJTWit"', "9Cnzj4p4WGeKLs1Pt8QuKUpRKfFLfRYC9AIKjbJTWit"); // true
 * ```
 */
export function genericAllowed(match: string, secret: string): boolean {
  const g = rules().find((r) => r.id === "generic-api-key");
  if (!g) return false;
  return g.allow.some((a) => allowed(a, secret, match, match));
}

const PLACEHOLDER =
  /example|sample|dummy|fake|placeholder|change[_-]?me|changeit|your[_-]?|xxxx|\*{3}|•{3}|redacted|masked|hidden|removed|<[^>]*>|\$\{|\{\{|\$\(|%\(|%s|^\$[A-Za-z_]|\benv\b|insert|replace[_-]?(?:me|with|this)|secret[_-]?here|key[_-]?here|token[_-]?here|lorem|foo[_-]?bar|^(?:foo|bar|baz|qux)$|not[_-]?(?:a|real|set)|^none$|^null$|^undefined$|^todo|^tbd$|do[_-]?not[_-]?use|^n\/a$|^test$|^testing$|^password\d?$|^pass(?:word)?123$|^my[_-]?(?:password|secret|token|key)/i;
const SEQUENCE = /0123456789|123456789|abcdefghij|ABCDEFGHIJ|qwertyuiop/;

/** Whether a hit of a provider-specific rule is an example token by its own text. */
function exampleToken(v: string): boolean {
  return /EXAMPLE|example|FAKE|fake|DUMMY|dummy|SAMPLE|sample|XXXXXXXX|xxxxxxxx|0{12,}|1{12,}/.test(
    v,
  );
}

function lineAt(starts: number[], index: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/**
 * Line start offsets of a text, for turning match offsets into line numbers.
 *
 * @example
 * ```ts
 * lineStarts("a\nb\n"); // [0, 2, 4]
 * ```
 */
export function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) out.push(i + 1);
  return out;
}

function allowed(a: Allow, secret: string, match: string, line: string): boolean {
  const target = a.target === "match" ? match : a.target === "line" ? line : secret;
  const byRegex = a.regexes.length > 0 ? a.regexes.some((r) => r.test(target)) : null;
  const low = secret.toLowerCase();
  const byStop = a.stopwords.length > 0 ? a.stopwords.some((w) => low.includes(w)) : null;
  const checks = [byRegex, byStop].filter((x): x is boolean => x !== null);
  if (checks.length === 0) return false;
  return a.and ? checks.every(Boolean) : checks.some(Boolean);
}

/**
 * The secrets the rule set finds in `text`.
 *
 * @example
 * ```ts
 * const tok = "gh" + "p_" + "Zx8kQ2mV9nR4tY7uW1aB3cD5eF6gH0jK2lM4";
 * scanSecrets(`token = "${tok}"\n`).map((h) => h.rule); // ["github-pat"]
 * ```
 */
export function scanSecrets(text: string): SecretHit[] {
  const out: SecretHit[] = [];
  if (text.length < 8) return out;
  const lower = text.toLowerCase();
  let starts: number[] | null = null;
  const seen = new Set<string>();
  const all = rules();
  const found = keywordsIn(lower);
  // The lines of each keyword, found once per text (rules share keywords).
  const spansOf = new Map<string, [number, number][]>();
  for (const r of all) {
    // gitleaks' pre-filter: a rule with keywords runs only when one of them occurs.
    if (r.keywordIds.length > 0 && !r.keywordIds.some((id) => found[id] === 1)) continue;
    // Single-line rules run on the lines holding a keyword only (offsets kept by padding the
    // other lines' text away is not needed: each window is scanned at its own offset).
    const windows = r.keywords.length > 0 && !r.multiline
      ? keywordLines(text, lower, r.keywords, spansOf)
      : [[0, text.length]];
    for (const [ws, we] of windows) {
      const chunk = ws === 0 && we === text.length ? text : text.slice(ws, we);
      r.re.lastIndex = 0;
      for (const mm of r.near ? nearMatches(r.near, chunk) : chunk.matchAll(r.re)) {
        const m = mm;
        const base = ws;
        let secret = r.group > 0 ? m[r.group] : m.slice(1).find((g) => g !== undefined && g !== "");
        secret ??= m[0];
        if (!secret) continue;
        if (r.entropy > 0 && shannon(secret) < r.entropy) continue;
        if (globalAllow.some((g) => g.test(secret!))) continue;
        if (globalStopwords.length > 0) {
          const low = secret.toLowerCase();
          if (globalStopwords.some((w) => low.includes(w))) continue;
        }
        const idx = base + (m.index ?? 0);
        const ls = text.lastIndexOf("\n", idx) + 1;
        const le = text.indexOf("\n", idx + m[0].length);
        const line = text.slice(ls, le < 0 ? text.length : le);
        if (r.allow.some((a) => allowed(a, secret!, m[0], line))) continue;
        if (line.includes("gitleaks:allow")) continue; // gitleaks' inline suppression
        if (isPlaceholder(secret) || exampleToken(secret)) continue;
        if (r.id.startsWith("generic") && /test|mock|stub/i.test(secret)) continue;
        const key = `${secret}`;
        if (seen.has(key)) continue;
        seen.add(key);
        starts ??= lineStarts(text);
        out.push({ rule: r.id, value: secret, line: lineAt(starts, idx + m[0].indexOf(secret)) });
      }
    }
  }
  return out;
}

/** Merged [start, end) spans of the lines containing any of the keywords. */
function keywordLines(
  text: string,
  lower: string,
  keywords: string[],
  known: Map<string, [number, number][]>,
): [number, number][] {
  const spans: [number, number][] = [];
  for (const k of keywords) {
    let own = known.get(k);
    if (!own) {
      own = [];
      for (let i = lower.indexOf(k); i >= 0; i = lower.indexOf(k, i + k.length)) {
        const s = text.lastIndexOf("\n", i) + 1;
        const e0 = text.indexOf("\n", i);
        const e = e0 < 0 ? text.length : e0;
        own.push([s, e]);
        i = e;
      }
      known.set(k, own);
    }
    for (const [s, e] of own) spans.push([s, e]);
  }
  if (spans.length <= 1) return spans;
  spans.sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [spans[0]];
  for (const [s, e] of spans.slice(1)) {
    const last = out[out.length - 1];
    if (s <= last[1] + 1) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}
