/**
 * Pieces of the structural counter that the signals without vocabulary add: the function frames
 * a query's captures sit in (their names and scopes, computed on demand), comparisons and
 * allow-list lookups of security values, guard flags and allow-list settings, assertions about an
 * auth subject, and Go router middleware. `structure.ts` calls these with its `add`.
 *
 * @module
 */
import type { SyntaxNode } from "./parser.ts";
import type { GuardRuleId } from "./structure.ts";
import { clipText, lastName, words } from "./structure_nodes.ts";
import {
  AUTH_MW,
  COND_WORDS,
  familyOf,
  PREDICATE_FN,
  snake,
  STRONG_WORDS,
} from "./structure_vocab.ts";
import { comparedWord, flagFact, STRONG_GUARD_FN } from "./structure_signals.ts";

/** Records one fact (the counter's `add`). */
export type AddFact = (
  rule: GuardRuleId,
  key: string,
  what: string,
  n: SyntaxNode,
  high?: boolean,
) => void;

/** The rule of each family of facts. */
export const FAMILY_RULE = {
  auth: "auth-check-removed",
  token: "crypto-verification-removed",
  tls: "tls-check-removed",
} as const;

/** Function expressions: named by what they are assigned to. */
export const FN_EXPR = new Set([
  "arrow_function",
  "function_expression",
  "func_literal",
  "function",
]);

/** Definitions that open a scope of their own. */
export const SCOPE = new Set([
  "function_definition",
  "class_definition",
  "function_declaration",
  "generator_function_declaration",
  "method_definition",
  "method_declaration",
  "class_declaration",
]);

/** Allow-list settings: trusted hosts, allowed origins, redirect allow-lists. */
export const ALLOW_LIST =
  /^(?:trusted|allowed|permitted)_(?:hosts?|origins?|domains?|ips?|redirect\w*|issuers?|audiences?|algorithms?)$|(?:white|allow)_?list/;
/** Go router methods that take middleware (chi, gin, echo, gorilla, net/http). */
export const GO_ROUTE =
  /^(?:Use|With|Group|Route|Handle|HandleFunc|GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|Any|Get|Post|Put|Patch|Delete|Head|Options|Method|MethodFunc|Mount)$/;
/** Words a security comparison or lookup is about (a superset, as raw text). */
export const CMP_HINT =
  /\b(?:kid|nonce|aud|iss|alg|sig|mac|azp|at_hash)\b|signature|digest|hmac|origin|\bhost|csrf|xsrf|fingerprint|passw|secret|claim|trusted|white_?list|allow_?list|\bsess|cookie/i;
/** Words of a guard flag or a secure default (a superset, as raw text). */
export const FLAG_HINT =
  /valid|allow|authori|authentic|verif|trust|permit|access|admin|strict|secure|check|requir|enforce|csrf|sign|cert|http_?only|reject|white|list/i;
export const CMP_TYPES = new Set(["comparison_operator", "binary_expression"]);
export const GO_ASSIGN = new Set(["assignment_statement", "short_var_declaration", "var_spec"]);
const EQ_OP = new Set(["==", "===", "!=", "!=="]);
/** Which guard rule a compared security word belongs to. */
export const CMP_RULE = (w: string): GuardRuleId =>
  /^(?:fingerprint|hostname)$/.test(w)
    ? "tls-check-removed"
    : /^(?:kid|nonce|aud|audience|iss|issuer|alg|algorithm|algorithms|signature|sig|digest|mac|hmac|claim|azp|at_hash|secret)$/
        .test(w)
    ? "crypto-verification-removed"
    : "auth-check-removed";

/** A function or class around the nodes of a query, while its span lasts. */
export interface Frame {
  end: number;
  node: SyntaxNode;
  type: string;
  outer: Frame | undefined;
  /** Innermost function name, snake_case, for guard-named functions ("" at module level). */
  fn?: string;
  /** Predicate name for returns and conditions directly inside ("" when not a predicate). */
  pred?: string;
  /** The qualified scope facts inside are reported in (`Class.method`; a function expression by what it is assigned to). */
  scope?: string;
}

/** Function nodes that do not name a scope of their own. */
const FN_TYPES = new Set(["func_literal", "function_expression", "function", "generator_function"]);
/** Fills in a frame's names the first time they are asked for (most frames never are). */
export function named(f: Frame): Frame {
  if (f.fn !== undefined) return f;
  const { node: n, type, outer } = f;
  const outerScope = outer ? named(outer).scope! : "";
  const own = n.childForFieldName("name")?.text ?? "";
  if (type === "class_definition" || type === "class_declaration") {
    f.fn = outer ? named(outer).fn : "";
    f.pred = "";
    f.scope = outerScope ? `${outerScope}.${own}` : own;
    return f;
  }
  if (SCOPE.has(type)) {
    f.fn = snake(own.replace(/.*\./, ""));
    f.pred = PREDICATE_FN.test(f.fn) ? f.fn : "";
    f.scope = outerScope ? `${outerScope}.${own}` : own;
    return f;
  }
  const p = n.parent;
  const pname = p?.childForFieldName("name")?.text ?? p?.childForFieldName("key")?.text ??
    p?.childForFieldName("left")?.text ?? "";
  f.scope = FN_EXPR.has(type) ? pname || outerScope : outerScope;
  const assigned = own || p?.childForFieldName("name")?.text ||
    p?.childForFieldName("key")?.text || p?.childForFieldName("left")?.text || "";
  f.fn = assigned
    ? snake(assigned.replace(/.*\./, ""))
    : (type === "arrow_function" || type === "func_literal") && outer
    ? named(outer).fn
    : "";
  f.pred = "";
  return f;
}

/** Every node type that opens a frame. */
export const FRAME = new Set([...SCOPE, ...FN_EXPR, ...FN_TYPES]);

/**
 * A comparison (`k.kid === kid`, `host == pattern`, `alg in allowed`) of a security value.
 *
 * @example
 * ```ts
 * // compareFact(<node of `k.kid === kid`>, () => "", add) records `cmp:kid`
 * ```
 */
export function compareFact(n: SyntaxNode, fnOf: (n: SyntaxNode) => string, add: AddFact) {
  if (n.type === "binary_expression") {
    const op = n.childForFieldName("operator")?.text ?? "";
    if (!EQ_OP.has(op)) return;
  }
  const w = comparedWord(n.text);
  if (!w) return;
  const strong = STRONG_GUARD_FN.test(fnOf(n));
  add(CMP_RULE(w), `cmp:${w}`, `\`${clipText(n.text, 50)}\` comparison`, n, strong);
}

/**
 * An assertion about an auth subject fails the request like a failure branch does.
 *
 * @example
 * ```ts
 * // assertionFact(<node of `assert request.host`>, " request.host", add) records `assert`
 * ```
 */
export function assertionFact(n: SyntaxNode, cond: string, add: AddFact) {
  const w = words(cond.split(/,\s*["'`]/)[0]);
  const hit = [...w].find((x) => COND_WORDS.has(x) || x === "host");
  if (!hit) return;
  const sure = [...w].some((x) => STRONG_WORDS.has(x));
  add(FAMILY_RULE[familyOf(w)], "assert", `\`assert ${clipText(cond, 40)}\``, n, sure);
}

/**
 * A guard flag (`is_valid_host = False`, `allowed = email in emails`) or an allow-list setting
 * (`trusted_hosts = [...]`).
 *
 * @example
 * ```ts
 * // flagFacts(add, <is_valid_host>, <False>, <assignment>) records `flag`
 * ```
 */
export function flagFacts(
  add: AddFact,
  k: SyntaxNode | null,
  v: SyntaxNode | null,
  at: SyntaxNode,
  known?: string,
) {
  if (!k || !v) return;
  const name = known ?? snake(lastName(k) || k.text);
  if (ALLOW_LIST.test(name) && !/^\[\s*["'`]\*["'`]\s*\]$/.test(v.text)) {
    add("auth-check-removed", "allowlist", `${name} allow-list`, at, false);
  }
  const f = flagFact(name, v.text);
  if (f) {
    add("auth-check-removed", "flag", `${name} = ${clipText(v.text, 30)}`, at, f === "strong");
  }
}

/**
 * Go routers: `r.Use(mw)`, `r.With(mw).Get(…)`, `r.Group("/x", mw)`, `e.GET(p, h, mw)`.
 *
 * @example
 * ```ts
 * // goMiddlewareFacts(<r.Use>, <(jwtauth.Verifier(ta))>, add) records `mw:jwtauth.Verifier`
 * ```
 */
export function goMiddlewareFacts(fn: SyntaxNode, args: SyntaxNode, add: AddFact) {
  for (const m of args.namedChildren) {
    if (!m || !/identifier|selector_expression|call_expression/.test(m.type)) continue;
    const label = m.type === "call_expression"
      ? (m.childForFieldName("function")?.text ?? m.text)
      : m.text;
    const last = snake(label.replace(/.*\./, ""));
    const pkg = label.includes(".") ? label.replace(/\..*/, "").toLowerCase() : "";
    if (!AUTH_MW.test(last) && !/jwt|auth|csrf|xsrf|session|guard|acl|rbac|perm/.test(pkg)) {
      continue;
    }
    add(
      "auth-check-removed",
      `mw:${clipText(label, 40)}`,
      `\`${clipText(label, 40)}\` middleware on ${clipText(fn.text, 30)}()`,
      m,
    );
  }
}

/** Options of a verify/decode call that make it check something (snake_case names). */
export const VERIFY_OPTION =
  /^(?:audience|issuer|algorithms|valid_methods|max_age|max_token_age|required_claims|require|subject|nonce|jwtid|typ|access_token)$/;
/** Go option constructors of JWT parsers and validators (snake_case). */
export const GO_VERIFY_OPTION =
  /^with_(?:audience|issuer|valid_methods|subject|expiration_required|issued_at|required_claim|validator|verify|key|key_set|key_provider|acceptable_skew)$/;
/** Callees whose options above are checks (snake_case last name). */
const VERIFYING_CALLEE = /verif|decode|validat|loads|unsign|parse|jwt_verify|check/;
/** Raw-text hint that an option above may be near. */
export const OPTION_HINT =
  /audience|issuer|algorithms|validMethods|valid_methods|max_?age|maxTokenAge|required_?claims|require|subject|nonce|jwtid|\btyp\b|access_token|With[A-Z]/i;

/**
 * A checking option given to a verify/decode call: `jwt.decode(t, k, audience=aud)`,
 * `jwt.verify(t, k, { algorithms: ["RS256"], issuer })`, `s.loads(t, max_age=3600)`. Dropping
 * it leaves the call in place and the check gone. `key` is the option's name node, `at` the
 * keyword argument or pair.
 *
 * @example
 * ```ts
 * // optionFact(<audience>, <audience=aud>, add) records `opt:audience`
 * ```
 */
export function optionFact(key: SyntaxNode | null, at: SyntaxNode, add: AddFact) {
  if (!key) return;
  const name = snake(key.text.replace(/^["'`]|["'`]$/g, ""));
  if (!VERIFY_OPTION.test(name)) return;
  // keyword_argument → argument_list → call; pair → object → arguments → call_expression
  let call: SyntaxNode | null = at.parent;
  for (let k = 0; k < 3 && call && !/^(?:call|call_expression)$/.test(call.type); k++) {
    call = call.parent;
  }
  const fn = call?.childForFieldName("function");
  if (!fn) return;
  const callee = snake(/([A-Za-z_$][\w$]*)\s*$/.exec(fn.text)?.[1] ?? "");
  if (!VERIFYING_CALLEE.test(callee)) return;
  add(
    "crypto-verification-removed",
    `opt:${name}`,
    `${name} option of ${clipText(fn.text, 30)}()`,
    at,
  );
}

/** Middleware classes that authenticate, authorise or protect (Starlette, FastAPI, Django, …). */
export const SEC_MIDDLEWARE_CLASS =
  /Auth\w*|Csrf|CSRF|Session|TrustedHost|HTTPSRedirect|Security|Permission|Login|Jwt|JWT|Guard|Acl|RBAC/;
