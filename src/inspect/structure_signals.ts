/**
 * Structural signals that do not depend on a protection's name being in the vocabulary: a
 * failure branch inside a function whose name says it guards (`authenticate`, `Validate`,
 * `_decode_signed_value`), a branch deciding on the result of a verify/validate call (Go's
 * `if err := v.Validate(); err != nil`), the terms of a failure branch's condition (dropping
 * `!user` from `if (err || !user) throw …`), comparisons and allow-list lookups of security
 * values (`kid`, `nonce`, `alg`, `host`, `origin`, …), and fail-closed flags (`is_valid_host =
 * False`, `allowed = email in emails`).
 *
 * @module
 */
import type { SyntaxNode } from "./parser.ts";
import { snake } from "./structure_vocab.ts";
import { words } from "./structure_nodes.ts";

const FN = new Set([
  "function_definition",
  "function_declaration",
  "generator_function_declaration",
  "method_definition",
  "method_declaration",
  "func_literal",
  "function_expression",
  "function",
  "generator_function",
  "arrow_function",
]);

/** Function names that say the function is a guard: its failure branches are checks. */
export const GUARD_FN =
  /(?:^|_)(?:authenticat\w*|authori[sz]\w*|auth|verif\w*|validat\w*|check|decode|unsign|login|logon|permission\w*|perms?|middleware|guard|csrf|xsrf|allowed|require|ensure|signed|signature|token|jwt|jws|claims?|nonce|origin|secret_provider|handle_request|can_activate)(?:_|$)/;

/** Of those, names specific enough that a failure branch in them is surely a security check. */
export const STRONG_GUARD_FN =
  /(?:^|_)(?:authenticat\w*|authori[sz]\w*|auth|verif\w*|login|logon|permission\w*|perms?|csrf|xsrf|signed|signature|token|jwt|jws|claims?|nonce|secret_provider|can_activate)(?:_|$)/;

/**
 * The snake_case name of the innermost function or method around `n`, "" at module level; an
 * anonymous function takes the name it is assigned to, if any.
 *
 * @example
 * ```ts
 * import { loadParsers, parse } from "./parser.ts";
 * await loadParsers();
 * const r = parse("def _verify_sig(x):\n    if x:\n        return None\n", "python");
 * // enclosingFn(<the if statement>) === "verify_sig"
 * ```
 */
export function enclosingFn(n: SyntaxNode): string {
  for (let p = n.parent; p; p = p.parent) {
    if (!FN.has(p.type)) continue;
    const name = p.childForFieldName("name")?.text ??
      p.parent?.childForFieldName("name")?.text ?? p.parent?.childForFieldName("key")?.text ??
      p.parent?.childForFieldName("left")?.text ?? "";
    if (name) return snake(name.replace(/.*\./, ""));
    if (p.type !== "arrow_function" && p.type !== "func_literal") return "";
  }
  return "";
}

/** Callees whose result, tested by a branch that fails, is a verification or an auth check. */
const CHECKED_CALLEE =
  /(?:^|_)(?:verif\w*|validat\w*|authenticat\w*|authori[sz]\w*|unsign\w*|check\w*|compare\w*|has_perm\w*|permission\w*|is_valid\w*|allow\w*|parse\w*|decode\w*)(?:_|$)/;
const STRONG_CALLEE =
  /(?:^|_)(?:verif\w*|authenticat\w*|authori[sz]\w*|unsign\w*|has_perm\w*|permission\w*)(?:_|$)|(?:^|_)(?:validat\w*|parse\w*|decode\w*|check\w*|is_valid\w*)_?\w*(?:token|jwt|jws|sig\w*|claim\w*|cert\w*|auth\w*|password|credential\w*|csrf|xsrf)/;
const CALLEE = /([A-Za-z_$][\w$]*)\s*\(/g;

/**
 * Whether a branch decides on the result of a check call: the call sits in the branch's Go
 * initializer or condition, or in the statement just before it that assigns a name the condition
 * reads. Returns "strong", "weak" or "".
 *
 * @example
 * ```ts
 * // `if err := v.Validate(ctx, t); err != nil { return err }` → "weak"
 * // `ok := jws.Verify(b, k); if !ok { return errBad }` → "strong"
 * ```
 */
export function checkedCall(n: SyntaxNode, cond: string): "strong" | "weak" | "" {
  const texts = [n.childForFieldName("initializer")?.text ?? "", cond];
  // The statement before is looked at only when the condition tests a plain name (`!ok`,
  // `err != nil`, `not valid`), and only when it is short (reading a node's text costs).
  const prev =
    /^[\s(!]*(?:not\s+)?[\w$.]+(?:\s*[!=]==?\s*(?:nil|null|None|false|False|true|True|undefined))?[\s)]*$/
        .test(cond)
      ? n.previousNamedSibling
      : null;
  if (
    prev && prev.endIndex - prev.startIndex < 300 &&
    /assignment|declaration|expression_statement|short_var/.test(prev.type)
  ) {
    const t = prev.text;
    const eq = t.search(/:?=(?!=)/);
    if (eq > 0) {
      const left = words(t.slice(0, eq));
      if ([...words(cond)].some((w) => left.has(w) && w.length > 1)) texts.push(t.slice(eq));
    }
  }
  let best: "strong" | "weak" | "" = "";
  for (const t of texts) {
    for (const m of t.matchAll(CALLEE)) {
      const name = snake(m[1]);
      if (STRONG_CALLEE.test(name)) return "strong";
      if (CHECKED_CALLEE.test(name)) best = "weak";
    }
  }
  return best;
}

/**
 * The terms of a condition (operands of its top-level `and`/`or`/`&&`/`||`) that name an auth
 * subject or call a helper: each is counted, so dropping one (`if (err || !user)` → `if (err)`)
 * is a drop, while moving a term into a helper that is still called keeps the count.
 *
 * @example
 * ```ts
 * authTerms("err || !user", new Set(["user"])); // 1
 * ```
 */
export function authTerms(cond: string, vocab: ReadonlySet<string>): number {
  let n = 0;
  for (const t of cond.split(/\|\||&&|\bor\b|\band\b/)) {
    // a call is a check refactored into a helper: it keeps the count
    if (/[\w$]\s*\(/.test(t) || [...words(t)].some((w) => vocab.has(w))) n++;
  }
  return n;
}

/** Operand words of a comparison or lookup that make it a security check. */
const SEC_OPERAND = new Set(
  (
    "kid nonce aud audience iss issuer alg algorithm algorithms signature sig digest mac hmac " +
    "origin host hostname csrf xsrf fingerprint password passwd secret claim azp at_hash " +
    "allowed_hosts trusted_hosts whitelist allowlist"
  ).split(" "),
);
const COMPARE_OP = /(?:===?|!==?|\bnot\s+in\b|\bin\b)/;

/**
 * The security word a comparison (`k.kid === kid`, `host == pattern`, `alg in allowed`) or an
 * allow-list lookup (`supportedAlg.includes(header.alg)`) is about, or null.
 *
 * @example
 * ```ts
 * comparedWord("k.kid === kid"); // "kid"
 * comparedWord("a + b"); // null
 * ```
 */
export function comparedWord(text: string): string | null {
  if (text.length > 300 || !COMPARE_OP.test(text)) return null;
  for (const w of words(text)) if (SEC_OPERAND.has(w)) return w;
  // A value from the request compared with one kept in the session or a cookie: an OAuth
  // `state`, a CSRF token, a one-time code (`r.FormValue("state") != sess.State`).
  if (REQUEST_SIDE.test(text) && STORED_SIDE.test(text)) return "request-vs-session";
  return null;
}

const REQUEST_SIDE =
  /\b(?:FormValue|PostFormValue|URL\.Query|query|args|params|GET|POST|form|body|headers?|get_argument|get_query_argument)\b/;
const STORED_SIDE =
  /\b(?:sess|session|cookies?|get_cookie|get_secure_cookie|stored|saved|expected)\b/i;

/** Membership calls whose receiver or argument, when a security value, make an allow-list check. */
export const LOOKUP_CALL = /^(?:includes|index_of|has|contains|contains_key|__contains__)$/;

/**
 * The security word of an allow-list lookup call's text, or null.
 *
 * @example
 * ```ts
 * lookupWord("supportedAlg.includes(decoded.header.alg)"); // "alg"
 * ```
 */
export function lookupWord(text: string): string | null {
  if (text.length > 300) return null;
  for (const w of words(text)) if (SEC_OPERAND.has(w)) return w;
  return null;
}

/** Nouns that make an "allowed"/"valid" flag or predicate about access, not about data. */
export const SEC_NOUN =
  "(?:host|origin|user|token|sig\\w*|signature|referr?er|redirect\\w*|domain|email|cert\\w*|password|credential\\w*|session|scopes?|client|ip|auth\\w*|access|login|csrf|xsrf|nonce|hmac|mac|digest|key|request|state|jwt|claims?)";
/** Names of flags that hold whether access is granted (fail-closed when initialised False). */
export const GUARD_FLAG = new RegExp(
  "^(?:is_)?(?:(?:allowed|authori[sz]ed|authenticated|verified|trusted|permitted|access_granted|" +
    "has_access|has_permission|is_admin)|(?:valid|allowed|trusted|verified|permitted)_" + SEC_NOUN +
    "|" + SEC_NOUN + "_(?:valid|allowed|trusted|verified|permitted|ok))$",
);
const STRONG_FLAG =
  /authori|authentic|verified|trusted|permitted|allowed|access|permission|admin|host|origin|sig|token/;

/**
 * A fact for an assignment to a guard flag: initialised `False` (fail closed) or set from a
 * computed check; `True` is no fact, so flipping either to `True` drops one. Returns the
 * severity ("strong" / "weak") or "".
 *
 * @example
 * ```ts
 * flagFact("is_valid_host", "False"); // "strong"
 * flagFact("is_valid_host", "True"); // ""
 * ```
 */
export function flagFact(name: string, value: string): "strong" | "weak" | "" {
  if (!GUARD_FLAG.test(name)) return "";
  const v = value.trim();
  if (/^(?:True|true|1|!0)$/.test(v)) return "";
  if (
    !/^(?:False|false|0|!1)$/.test(v) &&
    !/[=<>!]=|\bin\b|\(|&&|\|\||\band\b|\bor\b|\bnot\b|!/.test(v)
  ) {
    return "";
  }
  return STRONG_FLAG.test(name) ? "strong" : "weak";
}
