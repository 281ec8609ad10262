/**
 * The per-construct scanners of structural guard counting (`structure.ts`): calls, branches,
 * decorators, secure defaults and predicate returns, each turned into the guard facts it holds.
 *
 * @module
 */
import { type Grammar, type SyntaxNode } from "./parser.ts";
import { clipText, lastName, receiver, stringValue, words } from "./structure_nodes.ts";
import {
  AUTH_CALL,
  AUTH_DECORATOR,
  AUTH_MW,
  COND_WORDS,
  CRED_HEADER,
  FAIL,
  familyOf,
  HASH_RECEIVER,
  ROUTE_METHOD,
  SEC_PARAM,
  SECURE_CONST,
  snake,
  STRONG_FAIL_STMT,
  STRONG_WORDS,
  TOKEN_RECEIVER,
  VERIFY_CALL,
} from "./structure_vocab.ts";
import {
  assertionFact,
  CMP_RULE,
  FAMILY_RULE,
  GO_ROUTE,
  GO_VERIFY_OPTION,
  goMiddlewareFacts,
  SEC_MIDDLEWARE_CLASS,
} from "./structure_extra.ts";
import {
  authTerms,
  checkedCall,
  GUARD_FN,
  LOOKUP_CALL,
  lookupWord,
  STRONG_GUARD_FN,
} from "./structure_signals.ts";

import type { GuardRuleId } from "./structure.ts";
import { yesKeepsOut } from "./name_polarity.ts";

/** What the scanners need from the walk: where to record a fact, the function around a node,
 * the grammar, and whether the text names anything comparisons are about. */
export interface ScanCtx {
  add: (rule: GuardRuleId, key: string, what: string, n: SyntaxNode, high?: boolean) => void;
  fnOf: (n: SyntaxNode) => string;
  grammar: Grammar;
  hasCmpWord: boolean;
}

/** Callee names worth a closer look (a superset of every call pattern below). */
const CALL_PREFILTER =
  /auth|perm|role|login|logged|csrf|password|passwd|pw|digest|compare|equal|verif|valid|check|require|ensure|allow|access|owner|restrict|deny|api_key|token|sig|hostname|construct_event|bytes_eq|^(?:get|pop|setdefault|getattr|get_bool|getboolean|remove|delete|del|unset|remove_header|del_header|post|put|patch|all|use|route|options|head|can|cannot|includes|index_of|has|contains|contains_key|assert|with|group|handle|handle_func|any|method|method_func|mount|add_hook|default)$|^with_|middleware/;

/** Role, permission and ownership reads in a text (`user.is_staff`, `req.user.roles`). */
export const ROLE_IN_TEXT =
  /\.(is_admin|isAdmin|is_staff|isStaff|is_superuser|isSuperuser|isSuperUser|is_active|isActive|is_authenticated|isAuthenticated|is_anonymous|is_owner|isOwner|is_verified|isVerified|is_banned|is_locked|has_role|hasRole|roles?|owner|owner_id|ownerId|permissions)\b/g;

/** The facts a call holds: check, verify and assertion calls, route middleware, options. */
export function callFact(ctx: ScanCtx, n: SyntaxNode) {
  const fn = n.childForFieldName("function") ?? n.childForFieldName("constructor");
  if (!fn) return;
  // The last name of the callee from its text: one wasm read instead of a walk.
  const raw = /([A-Za-z_$][\w$]*)\s*$/.exec(fn.text)?.[1] ?? "";
  const name = snake(raw);
  if (!name || !CALL_PREFILTER.test(name)) return;
  const args = n.childForFieldName("arguments");
  if (AUTH_CALL.test(name)) {
    ctx.add("auth-check-removed", `call:${name}`, `${raw}() call`, n);
  } else if (
    /^(?:compare|compare_sync|verify|check|verify_sync)$/.test(name) &&
    HASH_RECEIVER.test(receiver(fn))
  ) {
    ctx.add(
      "auth-check-removed",
      `call:${receiver(fn)}.${name}`,
      `${receiver(fn)}.${raw}() call`,
      n,
    );
  } else if (name === "equal" && /^(?:hmac|subtle|bytes_eq)$/i.test(receiver(fn))) {
    ctx.add("crypto-verification-removed", `call:${receiver(fn)}.equal`, `${fn.text}() call`, n);
  } else if (VERIFY_CALL.test(name)) {
    ctx.add("crypto-verification-removed", `call:${name}`, `${raw}() call`, n);
  } else if (
    /^(?:is_valid|valid|is_expired|has_expired|allow_scopes|has_scopes?)$/.test(name) &&
    TOKEN_RECEIVER.test(snake(receiver(fn)))
  ) {
    const who = `${receiver(fn)}.${raw}`;
    ctx.add("crypto-verification-removed", `call:${snake(who)}`, `${who}() call`, n);
  } else if (/^(?:get|pop|setdefault|getattr|get_bool|getboolean)$/.test(name) && args) {
    const list = args.namedChildren.filter((c): c is SyntaxNode => !!c);
    const key = list.length >= 2 ? stringValue(list[list.length - 2]) : null;
    if (key && SEC_PARAM.test(snake(key)) && /^(?:True|true)$/.test(list[list.length - 1].text)) {
      ctx.add("secure-default-weakened", "default", `${key} defaulting to True`, n);
    }
  }
  if (name === "assert" && args) assertionFact(n, args.text, ctx.add);
  if (name === "add_hook" && args) {
    // Fastify `app.addHook("onRequest", app.authenticate)`
    const hook = args.namedChildren[1];
    const label = hook ? (hook.childForFieldName("function")?.text ?? hook.text) : "";
    if (label && AUTH_MW.test(snake(label.replace(/.*\./, "")))) {
      ctx.add(
        "auth-check-removed",
        `mw:${clipText(label, 40)}`,
        `\`${clipText(label, 40)}\` hook`,
        n,
      );
    }
  } else if (name === "default" && /\.auth\.default$/.test(fn.text)) {
    // hapi `server.auth.default("jwt")`: every route authenticates unless it opts out
    ctx.add("auth-check-removed", "mw:auth.default", "server.auth.default() strategy", n);
  }
  if (/^(?:add_middleware|middleware|wrap_middleware)$/.test(name) && args) {
    // Starlette/FastAPI `app.add_middleware(AuthenticationMiddleware, …)`, `Middleware(X)`
    const first = args.namedChildren[0];
    const label = first && /identifier|attribute|member_expression/.test(first.type)
      ? first.text
      : "";
    if (label && SEC_MIDDLEWARE_CLASS.test(label)) {
      ctx.add("auth-check-removed", `mw:${label}`, `${label} middleware`, n);
    }
  }
  if (ctx.grammar === "go" && GO_VERIFY_OPTION.test(name)) {
    ctx.add("crypto-verification-removed", `opt:${name}`, `${raw}() option`, n);
  }
  if (ctx.hasCmpWord && LOOKUP_CALL.test(name)) {
    const w = lookupWord(n.text);
    if (w) {
      const strong = STRONG_GUARD_FN.test(ctx.fnOf(n));
      ctx.add(CMP_RULE(w), `cmp:${w}`, `\`${clipText(n.text, 50)}\` check`, n, strong);
    }
  }
  if (/^(?:pop|remove|delete|del|unset|remove_header|del_header)$/.test(name) && args) {
    const first = args.namedChildren[0];
    const v = first ? stringValue(first) : null;
    if (v && CRED_HEADER.test(v)) {
      ctx.add("auth-check-removed", `strip:${v.toLowerCase()}`, `${v} header stripping`, n);
    }
  }
  if (ctx.grammar === "go" && args && fn?.type === "selector_expression" && GO_ROUTE.test(raw)) {
    goMiddlewareFacts(fn, args, ctx.add);
  }
  // Route middleware: app.get("/path", mw1, mw2, handler)
  if (
    ctx.grammar !== "python" && ctx.grammar !== "go" && ROUTE_METHOD.test(raw) && args && fn &&
    /member_expression/.test(fn.type)
  ) {
    const list = args.namedChildren.filter((c): c is SyntaxNode => !!c);
    const hasPath = list.length > 0 && /string|template_string|regex/.test(list[0].type);
    const mids = list.slice(
      hasPath ? 1 : 0,
      raw === "use" && !hasPath ? list.length : list.length - 1,
    );
    for (const m of mids.flatMap((x) => x.type === "array" ? x.namedChildren : [x])) {
      if (!m || !/identifier|member_expression|call_expression/.test(m.type)) continue;
      const label = m.type === "call_expression"
        ? (m.childForFieldName("function")?.text ?? m.text)
        : m.text;
      const named = AUTH_MW.test(snake(label.replace(/.*\./, ""))) ||
        AUTH_MW.test(snake(label.replace(/\..*/, "")));
      if (!named && (raw === "use" || !hasPath)) continue;
      ctx.add(
        "auth-check-removed",
        `mw:${clipText(label, 40)}`,
        `\`${clipText(label, 40)}\` middleware on ${clipText(fn.text, 30)}(${
          hasPath ? clipText(list[0].text, 30) : ""
        })`,
        m,
        named,
      );
    }
  }
}

/** The facts an `if` holds: failure branches under an auth condition, role reads. */
export function branchFact(ctx: ScanCtx, n: SyntaxNode) {
  const cond = n.childForFieldName("condition");
  const cons = n.childForFieldName("consequence");
  if (!cond || !cons) return;
  for (const m of cond.text.matchAll(ROLE_IN_TEXT)) {
    ctx.add("auth-check-removed", `role:${snake(m[1])}`, `${m[1]} check`, n, false);
  }
  const init = n.childForFieldName("initializer")?.text ?? "";
  const alt = n.childForFieldName("alternative");
  const elseText = alt && alt.type === "else_clause" ? alt.text.slice(0, 400) : "";
  // In a predicate whose yes keeps someone out (`is_revoked`), `return True` is the refusal.
  const body = answersFlipped(ctx.fnOf(n), cons.text.slice(0, 600) + "\n" + elseText);
  const w = words(init + " " + cond.text);
  const authy = [...w].some((x) => COND_WORDS.has(x));
  const strong = STRONG_FAIL_STMT.test(body);
  let sure = strong || [...w].some((x) => STRONG_WORDS.has(x));
  // The family is read off the body's words only when the branch turns out to count.
  let fam: ReturnType<typeof familyOf> | null = null;
  const fails = strong || FAIL.test(body);
  if (!(strong || (authy && fails))) {
    // No auth words: still a check when the branch fails on the result of a verify/validate
    // call, or when it sits in a function whose name says it guards.
    if (!fails) {
      // A branch that grants (`if check_password(p) and can_authenticate(u): return user`)
      // inside an authenticate/verify function: each of its terms is a condition of access.
      const fnName = ctx.fnOf(n);
      if (!STRONG_GUARD_FN.test(fnName)) return;
      const terms = authTerms(cond.text, COND_WORDS);
      const f = FAMILY_RULE[familyOf(words(`${fnName} ${cond.text}`))];
      for (let i = 0; i < terms; i++) {
        ctx.add(f, "term", `term of \`if ${clipText(cond.text, 40)}\` in ${fnName}()`, n, false);
      }
      return;
    }
    const checked = checkedCall(n, cond.text);
    const fnName = checked ? "" : ctx.fnOf(n);
    if (!checked && !GUARD_FN.test(fnName)) return;
    sure = checked === "strong" || STRONG_GUARD_FN.test(fnName);
    fam = familyOf(words(`${fnName} ${init} ${cond.text} ${body}`));
    if (fam === "auth" && /verif|valid|sign|token|jw[st]|decode|claim/.test(fnName)) {
      fam = "token";
    }
  }
  fam ??= familyOf(authy ? w : words(body));
  // A failure branch on a generic subject (`if (!user)`) inside an authenticate/verify/login
  // function is surely a check.
  if (!sure && authy && fails) sure = STRONG_GUARD_FN.test(ctx.fnOf(n));
  // Each auth term of the condition counts: dropping one (`err || !user` → `err`) is a drop.
  const terms = authTerms(cond.text, COND_WORDS);
  for (let i = 0; i < terms; i++) {
    ctx.add(FAMILY_RULE[fam], "term", `auth term of \`if ${clipText(cond.text, 40)}\``, n, false);
  }
  const head = ctx.grammar === "python"
    ? `if ${clipText(cond.text, 50)}:`
    : `if (${clipText(cond.text.replace(/^\((.*)\)$/s, "$1"), 50)})`;
  const fail = /\braise\b|\bthrow\b/.test(body)
    ? (ctx.grammar === "python" ? "raise" : "throw")
    : /\breturn\b/.test(body)
    ? "return"
    : "fail";
  ctx.add(FAMILY_RULE[fam], `branch`, `\`${head} ${fail}\` branch`, n, sure);
}

/** `text` with its boolean returns swapped when function `fn`'s yes keeps someone out. */
function answersFlipped(fn: string, text: string): string {
  if (!yesKeepsOut(fn)) return text;
  return text.replace(
    /\breturn(\s+)(true|false|True|False)\b/g,
    (_, s, v) =>
      `return${s}${({ true: "false", false: "true", True: "False", False: "True" })[v as "true"]}`,
  );
}

/** An auth decorator (`@login_required`, `@UseGuards(…)`). */
export function decoratorFact(ctx: ScanCtx, n: SyntaxNode) {
  const expr = n.namedChildren[0];
  if (!expr) return;
  const callee = expr.type === "call" || expr.type === "call_expression"
    ? expr.childForFieldName("function")
    : expr;
  const name = lastName(callee) || callee?.text || "";
  if (
    AUTH_DECORATOR.test(snake(name)) &&
    !/^(?:route|property|cached_property|staticmethod|classmethod)$/.test(name)
  ) {
    ctx.add("auth-check-removed", `decorator:${snake(name)}`, `@${name} decorator`, n);
  }
}

/** A security parameter or option whose value is the strict one (`verify=True`). */
export function secureDefaultFact(
  ctx: ScanCtx,
  k: SyntaxNode | null,
  v: SyntaxNode | null,
  at: SyntaxNode,
) {
  if (!k || !v) return;
  const name = snake((lastName(k) || k.text).replace(/^["'`]|["'`]$/g, ""));
  if (!SEC_PARAM.test(name)) return;
  const val = v.text;
  const fallback =
    /\?\s*(?:true|True)\s*:|\?\?\s*true\s*$|\bor\s+True\s*$|\|\|\s*true\s*$|!==?\s*false\s*$|\.get\(\s*["'][\w-]+["']\s*,\s*True\s*\)$/;
  if (
    /^(?:True|true|!0|1)$/.test(val) || fallback.test(val) ||
    SECURE_CONST.test(val.replace(/.*\./, ""))
  ) {
    // One key for every secure default: renaming a parameter or local keeps the count.
    ctx.add("secure-default-weakened", "default", `${name}=${clipText(val, 30)} default`, at);
  }
}

/** What a predicate function decides by (`has_permission` returning a computed value). */
export function predicateFact(ctx: ScanCtx, n: SyntaxNode, name: string) {
  const rule: GuardRuleId = /verif|signature|(?:^|_)sig(?:_|$)|token|hmac|digest/.test(name)
    ? "crypto-verification-removed"
    : "auth-check-removed";
  if (n.type === "return_statement") {
    const v = n.namedChildren[0];
    if (v && (yesKeepsOut(name) ? /^(?:True|true)$/ : /^(?:False|false)$/).test(v.text)) {
      // A fail-closed return: replacing it with `return !req` or `return True` opens the check.
      ctx.add(rule, "closed", `\`return ${v.text}\` in ${name}()`, n, false);
    }
    if (v && !/^(?:True|False|true|false|None|null|nil|undefined)$/.test(v.text)) {
      ctx.add(rule, `predicate:${name}`, `computed return of ${name}()`, n);
      for (const m of v.text.matchAll(ROLE_IN_TEXT)) {
        ctx.add("auth-check-removed", `role:${snake(m[1])}`, `${m[1]} check`, n, false);
      }
    }
  } else if (/^(?:should|has|is|can|user_can)_/.test(name)) {
    ctx.add(rule, `predicate:${name}`, `condition in ${name}()`, n);
  }
}
