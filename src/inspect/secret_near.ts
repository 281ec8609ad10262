/**
 * The gitleaks rules of the shape `[\w.-]{0,50}?(?:KEYWORDS)…` (most provider rules and
 * generic-api-key): a match starts at most 50 name characters before one of the keywords, so
 * only those positions are tried, with the rule anchored there, instead of every position of
 * the text. Split from `secret_scan.ts`.
 *
 * @module
 */

/** A rule of that shape: where its keywords start (a lookahead) and the rule anchored (sticky). */
export interface NearRule {
  at: RegExp;
  sticky: RegExp;
}

/** The start of the rules whose keyword follows up to 50 name characters. */
const NEAR_PREFIX = "[\\w.-]{0,50}?(?:";

/**
 * The keyword finder and the anchored rule for a rule source of that shape, else undefined.
 *
 * @example
 * ```ts
 * nearKeyword(String.raw`[\w.-]{0,50}?(?:key|token)\s*=\s*(\w{8,})`, "i")?.at.source; // "(?=(?:key|token))"
 * nearKeyword(String.raw`[\w.-]{0,50}?(?:key)=(\w+)|\bAKIA\w{16}`, ""); // undefined
 * ```
 */
export function nearKeyword(source: string, flags: string): NearRule | undefined {
  if (!source.startsWith(NEAR_PREFIX)) return undefined;
  // The keyword group: up to its closing parenthesis (escapes and character classes skipped).
  let depth = 1;
  let cls = false;
  let i = NEAR_PREFIX.length;
  for (; i < source.length && depth > 0; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (cls) cls = c !== "]";
    else if (c === "[") cls = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
  }
  if (depth !== 0) return undefined;
  const keywords = source.slice(NEAR_PREFIX.length, i - 1);
  // The whole pattern must start so: no alternative at the top level after the keywords.
  for (let j = i; j < source.length; j++) {
    const c = source[j];
    if (c === "\\") j++;
    else if (cls) cls = c !== "]";
    else if (c === "[") cls = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) return undefined;
  }
  try {
    return {
      at: new RegExp(`(?=(?:${keywords}))`, flags + "g"),
      sticky: new RegExp(source, flags + "y"),
    };
  } catch {
    return undefined;
  }
}

/** Whether a character code is one of `[\w.-]` (ASCII word characters, dot, hyphen). */
function nameChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 ||
    c === 46 || c === 45;
}

/**
 * The matches `matchAll` would give for a rule of the `near` shape, found by trying only the
 * positions at most 50 name characters before a keyword: a match starts at one of them, and
 * those are tried in order, so the first that matches is the leftmost.
 *
 * @example
 * ```ts
 * const near = nearKeyword(String.raw`[\w.-]{0,50}?(?:key)=(\w+)`, "")!;
 * [...nearMatches(near, "a my_key=abc b key=d")].map((m) => m[0]); // ["my_key=abc", "key=d"]
 * ```
 */
export function* nearMatches(near: NearRule, text: string): Generator<RegExpExecArray> {
  let next = 0; // the first position not tried yet (or past the last match)
  for (const kw of text.matchAll(near.at)) {
    const k = kw.index ?? 0;
    if (k < next) continue;
    let p = k;
    while (p > next && p > k - 50 && nameChar(text.charCodeAt(p - 1))) p--;
    let found = false;
    for (; p <= k; p++) {
      near.sticky.lastIndex = p;
      const m = near.sticky.exec(text);
      if (m) {
        next = p + Math.max(1, m[0].length);
        found = true;
        yield m;
        break;
      }
    }
    if (!found) next = k + 1;
  }
}
