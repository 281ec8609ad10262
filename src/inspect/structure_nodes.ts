/**
 * Small readers of syntax nodes for the structural counter: names of callees and receivers,
 * string values, the words of a condition.
 *
 * @module
 */
import type { SyntaxNode } from "./parser.ts";
import { snake } from "./structure_vocab.ts";

/**
 * The last name of a callee or attribute chain: `a.b.check_perm` → `check_perm`.
 *
 * @example
 * ```ts
 * lastName(null); // ""
 * ```
 */
export function lastName(n: SyntaxNode | null): string {
  if (!n) return "";
  const f = n.childForFieldName("attribute") ?? n.childForFieldName("property") ??
    n.childForFieldName("field");
  if (f) return f.text;
  if (n.type === "identifier" || n.type === "field_identifier") return n.text;
  return "";
}

/**
 * Whether a string sits in a collection assigned to a name about removing/redacting headers.
 *
 * @example
 * ```ts
 * // REMOVE_HEADERS_ON_REDIRECT = frozenset(["Authorization"]) → true for the string node
 * typeof inStripList; // "function"
 * ```
 */
export function inStripList(n: SyntaxNode): boolean {
  let p = n.parent;
  for (let i = 0; p && i < 6; i++, p = p.parent) {
    if (/assignment|variable_declarator|pair|keyword_argument|const_spec|var_spec/.test(p.type)) {
      const name = (p.childForFieldName("left") ?? p.childForFieldName("name") ??
        p.childForFieldName("key"))?.text ?? "";
      return /remove|strip|redact|sensitive|drop|filter|scrub|mask/i.test(name);
    }
  }
  return false;
}

/**
 * The receiver of a member call: `bcrypt.compare` → `bcrypt`.
 *
 * @example
 * ```ts
 * receiver(null); // ""
 * ```
 */
export function receiver(n: SyntaxNode | null): string {
  if (!n) return "";
  const o = n.childForFieldName("object") ?? n.childForFieldName("operand");
  return o ? lastName(o) || o.text.slice(-40) : "";
}

/**
 * The snake_case words of a text and their parts (exception type names left out).
 *
 * @example
 * ```ts
 * [...words("user.isAdmin")]; // ["user", "is_admin", "is", "admin"]
 * ```
 */
export function words(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
    if (/(?:Error|Exception|Warning)$/.test(m[0])) continue; // exception types, not subjects
    const s = snake(m[0]);
    out.add(s);
    for (const part of s.split("_")) if (part) out.add(part);
  }
  return out;
}

/**
 * One line of at most `n` characters.
 *
 * @example
 * ```ts
 * clipText("a\n  b"); // "a b"
 * ```
 */
export function clipText(s: string, n = 60): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > n ? one.slice(0, n - 1) + "…" : one;
}

/**
 * The content of a string literal node, or null when the node is not a string.
 *
 * @example
 * ```ts
 * typeof stringValue; // "function"
 * ```
 */
export function stringValue(n: SyntaxNode): string | null {
  if (
    n.type !== "string" && n.type !== "template_string" &&
    n.type !== "interpreted_string_literal" && n.type !== "raw_string_literal"
  ) return null;
  return n.text.replace(/^[rbuf]*(["'`]{1,3})/i, "").replace(/["'`]{1,3}$/, "");
}
