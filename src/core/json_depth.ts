/**
 * Nesting depth of JSON, measured without recursion, so a value or text nested millions of levels
 * deep is measured (and refused) instead of exhausting the stack.
 *
 * Depth counts open containers: `1`, `"x"` and `null` have depth 0, `{}` and `[]` depth 1,
 * `{"a":[1]}` depth 2.
 *
 * @module
 */

/**
 * The nesting depth of JSON text: the largest number of `[`/`{` open at once outside strings.
 * Scans the text once; never recurses. (The text is not validated: pair with `JSON.parse`.)
 *
 * @example
 * ```ts
 * import { jsonTextDepth } from "./json_depth.ts";
 * import assert from "node:assert/strict";
 * assert.equal(jsonTextDepth('{"a":[1,"[["]}'), 2);
 * assert.equal(jsonTextDepth("[".repeat(5000) + "]".repeat(5000)), 5000);
 * ```
 */
export function jsonTextDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) max = depth;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

/**
 * The nesting depth of a JavaScript value as JSON would carry it (arrays and plain objects count),
 * measured with an explicit stack. Stops early and returns `limit + 1` once deeper than `limit`.
 *
 * @example
 * ```ts
 * import { jsonValueDepth } from "./json_depth.ts";
 * import assert from "node:assert/strict";
 * assert.equal(jsonValueDepth({ a: [1, { b: null }] }), 3);
 * assert.equal(jsonValueDepth("text"), 0);
 * let deep: unknown = 1;
 * for (let i = 0; i < 100_000; i++) deep = [deep];
 * assert.equal(jsonValueDepth(deep, 64), 65);
 * ```
 */
export function jsonValueDepth(value: unknown, limit = Number.MAX_SAFE_INTEGER): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    const depth = d + 1;
    if (depth > max) max = depth;
    if (max > limit) return limit + 1;
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    for (const c of children) {
      if (c !== null && typeof c === "object") stack.push([c, depth]);
    }
  }
  return max;
}
