/**
 * The common head and tail of two texts, found block by block (one comparison of a few
 * thousand characters each) rather than character by character: most edits leave nearly all of
 * a large file as it was.
 *
 * @module
 */

/** Characters compared at once before narrowing down character by character. */
const BLOCK = 2048;

/**
 * The length of the longest common prefix of `a` and `b`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(commonPrefix("abcX", "abcY"), 3);
 * ```
 */
export function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let p = 0;
  while (p + BLOCK <= max && a.substring(p, p + BLOCK) === b.substring(p, p + BLOCK)) p += BLOCK;
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  return p;
}

/**
 * The length of the longest common suffix of `a` and `b` that leaves at least `keep` characters
 * of each in front of it (pass the common prefix's length so the two do not overlap).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(commonSuffix("Xabc", "Yabc"), 3);
 * assert.equal(commonSuffix("aa", "aaa", 2), 0);
 * ```
 */
export function commonSuffix(a: string, b: string, keep = 0): number {
  const max = Math.min(a.length, b.length) - keep;
  let q = 0;
  const la = a.length, lb = b.length;
  while (
    q + BLOCK <= max &&
    a.substring(la - q - BLOCK, la - q) === b.substring(lb - q - BLOCK, lb - q)
  ) q += BLOCK;
  while (q < max && a.charCodeAt(la - 1 - q) === b.charCodeAt(lb - 1 - q)) q++;
  return q;
}
