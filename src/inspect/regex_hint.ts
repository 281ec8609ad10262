/**
 * Literal hints for regular expressions: text every match must contain, read off the pattern's
 * source, so that a text lacking it is skipped with a plain substring search (far cheaper than
 * running a pattern that starts with `\b\w*` at every position). The reading is conservative:
 * anything it does not fully understand yields no hint, and a pattern without a hint is always
 * run.
 *
 * @module
 */

/** Any one of these strings is in every match (lower-cased when the pattern ignores case). */
export type Hint = readonly string[];

/** Above this many alternatives a hint costs more substring searches than it saves. */
const MAX_ALTERNATIVES = 12;

class Unknown extends Error {}

const hints = new WeakMap<RegExp, Hint | null>();

/**
 * The literal hint of a pattern (cached per pattern): strings of which every match contains at
 * least one, or null when none can be read off soundly (sticky or Unicode case-insensitive
 * patterns, escapes this reader does not know).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(hintOf(/\b\w*verify_(?:signature|token)\s*\(/g), ["verify_"]);
 * assert.deepEqual(hintOf(/\b(?:ssl|tls)_verify\b/gi), ["_verify"]);
 * assert.equal(hintOf(/\w+/g), null);
 * ```
 */
export function hintOf(re: RegExp): Hint | null {
  let h = hints.get(re);
  if (h === undefined) {
    h = read(re);
    hints.set(re, h);
  }
  return h;
}

/**
 * A text with what the hint checks ask of it, made once: its lower-cased form and which triples
 * of adjacent ASCII characters (case folded) it holds, so that most hints are ruled out without
 * a search through the text.
 */
export class TextIndex {
  #lower: string | null = null;
  #triples: Int32Array | null = null;
  constructor(readonly text: string) {}

  /** The text lower-cased. */
  lower(): string {
    return this.#lower ??= this.text.toLowerCase();
  }

  /** False when `s` (any case) cannot be in the text: one of its letter triples is not. */
  mayHold(s: string): boolean {
    // A short text is searched at once: its table would cost more than it saves.
    if (s.length < 3 || this.text.length < SHORT) return true;
    const p = this.#triples ??= triplesOf(this.text);
    let a = fold(s.charCodeAt(0)), b = fold(s.charCodeAt(1));
    for (let i = 2; i < s.length; i++) {
      const c = fold(s.charCodeAt(i));
      if (a < 128 && b < 128 && c < 128) {
        const k = tripleKey(a, b, c);
        if ((p[k >>> 5] & (1 << (k & 31))) === 0) return false;
      }
      a = b;
      b = c;
    }
    return true;
  }
}

/** Texts shorter than this get no triple table. */
const SHORT = 512;

/** ASCII upper case to lower case; anything else as it is. */
function fold(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

/** Where a triple of ASCII characters goes in the table (a hash: distinct triples may share). */
function tripleKey(a: number, b: number, c: number): number {
  return ((a * 7919) ^ (b * 131) ^ c) & 0xffff;
}

/** Which triples of adjacent ASCII characters (case folded) a text holds, hashed, as bits. */
function triplesOf(text: string): Int32Array {
  const p = new Int32Array(0x10000 >>> 5);
  let a = 128, b = 128;
  for (let i = 0; i < text.length; i++) {
    const c = fold(text.charCodeAt(i));
    if (a < 128 && b < 128 && c < 128) {
      const k = tripleKey(a, b, c);
      p[k >>> 5] |= 1 << (k & 31);
    }
    a = b;
    b = c;
  }
  return p;
}

const recent: TextIndex[] = [];

/**
 * The {@link TextIndex} of a text, kept for the last few texts (the rules count the same pair of
 * texts one after the other).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(textIndex("abc"), textIndex("abc"));
 * ```
 */
export function textIndex(text: string): TextIndex {
  for (const t of recent) if (t.text === text) return t;
  const t = new TextIndex(text);
  recent.unshift(t);
  if (recent.length > 4) recent.length = 4;
  return t;
}

/**
 * Whether a text may hold a match of `re`: false only when it lacks every string of the hint.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(mayMatch(/verify_token\(/g, textIndex("x = 1")), false);
 * assert.equal(mayMatch(/verify_token\(/g, textIndex("verify_token(t)")), true);
 * ```
 */
export function mayMatch(re: RegExp, t: TextIndex): boolean {
  const h = hintOf(re);
  if (h === null) return true;
  for (const s of h) {
    if (!t.mayHold(s)) continue;
    if ((re.ignoreCase ? t.lower() : t.text).includes(s)) return true;
  }
  return false;
}

function read(re: RegExp): Hint | null {
  if (re.sticky) return null;
  // Unicode case folding maps some non-ASCII characters onto ASCII letters (ſ to s): skip.
  if (re.ignoreCase && (re.unicode || re.flags.includes("v"))) return null;
  try {
    const h = alternatives(re.source, 0, re.source.length, re.ignoreCase);
    if (h === null || h.length === 0 || h.some((s) => s === "")) return null;
    return re.ignoreCase ? [...new Set(h.map((s) => s.toLowerCase()))] : h;
  } catch (e) {
    if (e instanceof Unknown) return null;
    throw e;
  }
}

/** The end (exclusive) of the group opened at `i` (`src[i] === "("`). */
function groupEnd(src: string, i: number): number {
  let depth = 0;
  for (let j = i; j < src.length; j++) {
    const c = src[j];
    if (c === "\\") j++;
    else if (c === "[") j = classEnd(src, j) - 1;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return j + 1;
  }
  throw new Unknown();
}

/** The end (exclusive) of the character class opened at `i`. */
function classEnd(src: string, i: number): number {
  for (let j = i + 1; j < src.length; j++) {
    if (src[j] === "\\") j++;
    else if (src[j] === "]") return j + 1;
  }
  throw new Unknown();
}

/** The hint of `src[from, to)`, a disjunction: the union of its alternatives' hints. */
function alternatives(src: string, from: number, to: number, icase: boolean): Hint | null {
  const parts: [number, number][] = [];
  let start = from;
  for (let j = from; j < to; j++) {
    const c = src[j];
    if (c === "\\") j++;
    else if (c === "[") j = classEnd(src, j) - 1;
    else if (c === "(") j = groupEnd(src, j) - 1;
    else if (c === "|") {
      parts.push([start, j]);
      start = j + 1;
    }
  }
  parts.push([start, to]);
  const out = new Set<string>();
  for (const [a, b] of parts) {
    const h = sequence(src, a, b, icase);
    if (h === null) return null;
    for (const s of h) out.add(s);
  }
  return out.size > MAX_ALTERNATIVES ? null : [...out];
}

/** The minimum count of the quantifier at `i` (1 when none) and where it ends. */
function quantifier(src: string, i: number, to: number): { min: number; end: number } {
  const c = src[i];
  let min = 1;
  let end = i;
  if (i >= to) return { min, end };
  if (c === "*" || c === "?") [min, end] = [0, i + 1];
  else if (c === "+") [min, end] = [1, i + 1];
  else if (c === "{") {
    const m = /^\{(\d+)(?:,\d*)?\}/.exec(src.slice(i, to));
    if (!m) throw new Unknown(); // a literal brace: not worth telling apart
    [min, end] = [Number(m[1]), i + m[0].length];
  } else return { min, end };
  if (src[end] === "?" && end < to) end++; // lazy
  return { min, end };
}

/** The best hint of one alternative: its longest literal run, or a required group's hint. */
function sequence(src: string, from: number, to: number, icase: boolean): Hint | null {
  let best: Hint | null = null;
  const offer = (h: Hint | null) => {
    if (h !== null && h.length > 0 && h.every((s) => s !== "") && score(h) > score(best)) {
      best = h;
    }
  };
  let run = "";
  const flush = () => {
    if (run) offer([run]);
    run = "";
  };
  for (let i = from; i < to;) {
    const c = src[i];
    let lit: string | null = null;
    let group: Hint | null = null;
    let next = i + 1;
    if (c === "\\") {
      const e = src[i + 1];
      if (e === undefined) throw new Unknown();
      if (/[A-Za-z0-9]/.test(e)) {
        if (!/[dDwWsSbBnrtfv]/.test(e)) throw new Unknown(); // \x41, \u…, \k<…>, \1, \p{…}
      } else lit = e;
      next = i + 2;
    } else if (c === "[") next = classEnd(src, i);
    else if (c === "(") {
      next = groupEnd(src, i);
      const look = /^\(\?<?[=!]/.test(src.slice(i, i + 4));
      if (!look) {
        let inner = i + 1;
        if (src[inner] === "?") {
          if (src[inner + 1] === ":") inner += 2;
          else if (src[inner + 1] === "<") {
            const close = src.indexOf(">", inner);
            if (close < 0 || close >= next) throw new Unknown();
            inner = close + 1;
          } else throw new Unknown(); // modifiers and the like
        }
        group = alternatives(src, inner, next - 1, icase);
      }
    } else if (c === "." || c === "^" || c === "$") {
      // not literal
    } else if (c === "*" || c === "+" || c === "?" || c === "{" || c === ")" || c === "|") {
      throw new Unknown();
    } else lit = c;
    // Case-insensitive matching of non-ASCII letters is not worth reasoning about.
    if (lit !== null && icase && lit.charCodeAt(0) > 127) lit = null;
    const q = quantifier(src, next, to);
    if (lit !== null && q.min >= 1) {
      run += lit;
      if (q.end !== next) flush(); // repeated: what follows is not adjacent
    } else {
      flush();
      if (group !== null && q.min >= 1) offer(group);
    }
    i = q.end;
  }
  flush();
  return best;
}

/** How much a hint is worth: long strings, few of them. */
function score(h: Hint | null): number {
  if (h === null) return -1;
  const shortest = Math.min(...h.map((s) => s.length));
  return shortest / h.length;
}
