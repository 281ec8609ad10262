/**
 * Canonical JSON: object keys sorted by UTF-16 code units, no insignificant whitespace, no
 * `undefined` members. The same value always gives the same bytes, so hashes and signatures over it
 * are stable. Numbers must be finite; anything JSON cannot carry is refused.
 *
 * @module
 */

/**
 * Serialises a value as canonical JSON.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canonicalJson } from "./canonical_json.ts";
 * assert.deepEqual(canonicalJson({ b: 1, a: [true, null] }), '{"a":[true,null],"b":1}');
 * ```
 */
export function canonicalJson(value: unknown): string {
  return write(value, "$");
}

function write(v: unknown, at: string): string {
  if (v === null) return "null";
  switch (typeof v) {
    case "boolean":
      return v ? "true" : "false";
    case "number":
      if (!Number.isFinite(v)) throw new TypeError(`canonical JSON: ${at} is not a finite number`);
      return JSON.stringify(v);
    case "string":
      return JSON.stringify(v);
    case "object": {
      if (Array.isArray(v)) {
        return `[${v.map((x, i) => write(x ?? null, `${at}[${i}]`)).join(",")}]`;
      }
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${write(o[k], `${at}.${k}`)}`).join(",")}}`;
    }
    default:
      throw new TypeError(`canonical JSON: ${at} has type ${typeof v}, which JSON cannot carry`);
  }
}
