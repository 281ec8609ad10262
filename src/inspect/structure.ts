/**
 * Structural guard counting: walks a tree-sitter syntax tree and lists the protections in it —
 * credential and permission check calls, token and signature verification calls, failure
 * branches guarded by an auth condition, auth decorators, route middleware, role reads,
 * secure defaults, secure constants, predicate returns and credential-header stripping — each
 * with its line and the function it sits in.
 *
 * Comments are not nodes of interest, so a commented-out guard is gone; strings are only looked
 * at where a protection is a string (settings middleware lists, header names).
 *
 * @module
 */
import type { Grammar, SyntaxNode } from "./parser.ts";
import {
  AUTH_CALL,
  AUTH_DECORATOR,
  AUTH_MW,
  COND_WORDS,
  CRED_HEADER,
  FAIL,
  familyOf,
  HASH_RECEIVER,
  PREDICATE_FN,
  ROLE_ATTR,
  ROUTE_METHOD,
  SEC_MIDDLEWARE_STRING,
  SEC_PARAM,
  SECURE_CONST,
  snake,
  STRONG_FAIL,
  VERIFY_CALL,
} from "./structure_vocab.ts";

/** The guard rule a fact belongs to. */
export type GuardRuleId =
  | "auth-check-removed"
  | "crypto-verification-removed"
  | "tls-check-removed"
  | "secure-default-weakened";

/** One protection found in a file. */
export interface GuardFact {
  rule: GuardRuleId;
  /** What is counted: facts with the same key are compared before vs after. */
  key: string;
  /** Human description of the construct, e.g. `check_permissions() call`. */
  what: string;
  /** 1-based line. */
  line: number;
  /** Enclosing function or class (`initial`, `APIView.initial`), or `` at module level. */
  scope: string;
  /** High unless the construct is only possibly a guard (unnamed middleware: medium). */
  high: boolean;
}

const FAMILY_RULE = {
  auth: "auth-check-removed",
  token: "crypto-verification-removed",
  tls: "tls-check-removed",
} as const;

const CALL = new Set(["call", "call_expression", "new_expression"]);
const IF = new Set(["if_statement", "elif_clause"]);
const SCOPE = new Set([
  "function_definition",
  "class_definition",
  "function_declaration",
  "generator_function_declaration",
  "method_definition",
  "method_declaration",
  "class_declaration",
]);

/** The last name of a callee or attribute chain: `a.b.check_perm` → `check_perm`. */
function lastName(n: SyntaxNode | null): string {
  if (!n) return "";
  const f = n.childForFieldName("attribute") ?? n.childForFieldName("property") ??
    n.childForFieldName("field");
  if (f) return f.text;
  if (n.type === "identifier" || n.type === "field_identifier") return n.text;
  return "";
}

/** The receiver of a member call: `bcrypt.compare` → `bcrypt`. */
function receiver(n: SyntaxNode | null): string {
  if (!n) return "";
  const o = n.childForFieldName("object") ?? n.childForFieldName("operand");
  return o ? lastName(o) || o.text.slice(-40) : "";
}

function words(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
    const s = snake(m[0]);
    out.add(s);
    for (const part of s.split("_")) if (part) out.add(part);
  }
  return out;
}

function clipText(s: string, n = 60): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > n ? one.slice(0, n - 1) + "…" : one;
}

function stringValue(n: SyntaxNode): string | null {
  if (n.type !== "string" && n.type !== "template_string" && n.type !== "interpreted_string_literal" && n.type !== "raw_string_literal") return null;
  return n.text.replace(/^[rbuf]*(["'`]{1,3})/i, "").replace(/["'`]{1,3}$/, "");
}

/** Whether `n` sits in the condition of an if/while/ternary/assert, or is returned. */
function inCondition(n: SyntaxNode): boolean {
  let c: SyntaxNode | null = n;
  for (let i = 0; c && i < 8; i++) {
    const p: SyntaxNode | null = c.parent;
    if (!p) return false;
    if (IF.has(p.type) || p.type === "while_statement" || p.type === "ternary_expression" || p.type === "conditional_expression") {
      const cond = p.childForFieldName("condition");
      return !!cond && cond.startIndex <= n.startIndex && n.endIndex <= cond.endIndex;
    }
    if (p.type === "assert_statement" || p.type === "return_statement") return true;
    if (SCOPE.has(p.type) || p.type === "block" && p.parent && SCOPE.has(p.parent.type)) return false;
    c = p;
  }
  return false;
}

/**
 * Lists the guard facts of a parsed file.
 *
 * @example
 * ```ts
 * import { loadParsers, parse } from "./parser.ts";
 * await loadParsers();
 * const r = parse("def f(u):\n    if not u.is_admin:\n        raise PermissionError()\n", "python");
 * if (r.ok) guardFacts(r.root, "python").map((f) => f.key); // ["branch", "role:is_admin"]
 * ```
 */
export function guardFacts(root: SyntaxNode, grammar: Grammar): GuardFact[] {
  const out: GuardFact[] = [];
  const scopes: string[] = [];
  const add = (rule: GuardRuleId, key: string, what: string, n: SyntaxNode, high = true) =>
    out.push({ rule, key, what, line: n.startPosition.row + 1, scope: scopes.at(-1) ?? "", high });

  const visit = (n: SyntaxNode) => {
    let pushed = false;
    if (SCOPE.has(n.type)) {
      const name = n.childForFieldName("name")?.text ?? "";
      scopes.push(name);
      pushed = true;
      if (n.type !== "class_definition" && n.type !== "class_declaration") predicate(n, snake(name));
    } else if (n.type === "arrow_function" || n.type === "function_expression" || n.type === "func_literal" || n.type === "function") {
      const p = n.parent;
      const name = p?.childForFieldName("name")?.text ?? p?.childForFieldName("key")?.text ?? p?.childForFieldName("left")?.text ?? "";
      scopes.push(name || (scopes.at(-1) ?? ""));
      pushed = true;
    }
    if (CALL.has(n.type)) call(n);
    else if (IF.has(n.type)) branch(n);
    else if (n.type === "decorator") decorator(n);
    else if (n.type === "default_parameter" || n.type === "typed_default_parameter") {
      secureDefault(n.childForFieldName("name"), n.childForFieldName("value"), n);
    } else if (n.type === "assignment_pattern" || n.type === "object_assignment_pattern") {
      secureDefault(n.childForFieldName("left"), n.childForFieldName("right"), n);
    } else if (n.type === "required_parameter" || n.type === "optional_parameter") {
      secureDefault(n.childForFieldName("pattern"), n.childForFieldName("value"), n);
    } else if (n.type === "variable_declarator") {
      secureDefault(n.childForFieldName("name"), n.childForFieldName("value"), n);
    } else if (n.type === "pair" && grammar !== "python") {
      secureDefault(n.childForFieldName("key"), n.childForFieldName("value"), n);
    } else if (n.type === "assignment" || n.type === "assignment_expression") {
      const left = n.childForFieldName("left");
      if (left && /attribute|member_expression/.test(left.type)) {
        secureDefault(left, n.childForFieldName("right"), n);
      }
      const name = snake(lastName(left) || left?.text || "");
      if (/^(?:permission_classes|authentication_classes)$/.test(name)) {
        for (const c of n.childForFieldName("right")?.namedChildren ?? []) {
          if (c) add("auth-check-removed", `class:${c.text}`, `${c.text} in ${name}`, c);
        }
      }
    } else if (n.type === "attribute" || n.type === "member_expression" || n.type === "selector_expression") {
      const a = lastName(n);
      if (ROLE_ATTR.test(snake(a)) && inCondition(n)) {
        add("auth-check-removed", `role:${snake(a)}`, `${a} check`, n);
      }
    } else if (n.type === "identifier" || n.type === "field_identifier" || n.type === "property_identifier") {
      if (SECURE_CONST.test(n.text)) add("secure-default-weakened", `const:${n.text}`, n.text, n);
    } else if (n.type === "delete_statement" || (n.type === "unary_expression" && n.text.startsWith("delete"))) {
      const m = /["'`]?([\w-]*(?:authorization|cookie)[\w-]*)["'`]?/i.exec(n.text);
      if (m && CRED_HEADER.test(m[1])) {
        add("auth-check-removed", `strip:${m[1].toLowerCase()}`, `${m[1]} header stripping`, n);
      }
    } else if (n.type === "string" && grammar === "python") {
      const v = stringValue(n) ?? "";
      const m = SEC_MIDDLEWARE_STRING.exec(v);
      if (m) add("auth-check-removed", `mwstr:${m[0]}`, `${m[0]} setting`, n);
    }
    for (const c of n.namedChildren) if (c) visit(c);
    if (pushed) scopes.pop();
  };

  const call = (n: SyntaxNode) => {
    const fn = n.childForFieldName("function") ?? n.childForFieldName("constructor");
    const raw = lastName(fn);
    const name = snake(raw);
    if (!name) return;
    const args = n.childForFieldName("arguments");
    if (AUTH_CALL.test(name) && !(name === "authenticate" && grammar !== "python" && false)) {
      add("auth-check-removed", `call:${name}`, `${raw}() call`, n);
    } else if (/^(?:compare|compare_sync|verify|check|verify_sync)$/.test(name) && HASH_RECEIVER.test(receiver(fn))) {
      add("auth-check-removed", `call:${receiver(fn)}.${name}`, `${receiver(fn)}.${raw}() call`, n);
    } else if (VERIFY_CALL.test(name)) {
      add("crypto-verification-removed", `call:${name}`, `${raw}() call`, n);
    } else if (/^(?:get|pop|setdefault|getattr|get_bool|getboolean)$/.test(name) && args) {
      const list = args.namedChildren.filter((c): c is SyntaxNode => !!c);
      const key = list.length >= 2 ? stringValue(list[list.length - 2]) : null;
      if (key && SEC_PARAM.test(snake(key)) && /^(?:True|true)$/.test(list[list.length - 1].text)) {
        add("secure-default-weakened", `default:${snake(key)}`, `${key} defaulting to True`, n);
      }
    }
    if (/^(?:pop|remove|delete|del|unset|remove_header|del_header)$/.test(name) && args) {
      const first = args.namedChildren[0];
      const v = first ? stringValue(first) : null;
      if (v && CRED_HEADER.test(v)) {
        add("auth-check-removed", `strip:${v.toLowerCase()}`, `${v} header stripping`, n);
      }
    }
    // Route middleware: app.get("/path", mw1, mw2, handler)
    if (grammar !== "python" && grammar !== "go" && ROUTE_METHOD.test(raw) && args && fn && /member_expression/.test(fn.type)) {
      const list = args.namedChildren.filter((c): c is SyntaxNode => !!c);
      const hasPath = list.length > 0 && /string|template_string|regex/.test(list[0].type);
      const mids = list.slice(hasPath ? 1 : 0, raw === "use" && !hasPath ? list.length : list.length - 1);
      for (const m of mids.flatMap((x) => x.type === "array" ? x.namedChildren : [x])) {
        if (!m || !/identifier|member_expression|call_expression/.test(m.type)) continue;
        const label = m.type === "call_expression"
          ? (m.childForFieldName("function")?.text ?? m.text)
          : m.text;
        const named = AUTH_MW.test(snake(label.replace(/.*\./, ""))) || AUTH_MW.test(snake(label.replace(/\..*/, "")));
        if (!named && (raw === "use" || !hasPath)) continue;
        add(
          "auth-check-removed",
          `mw:${clipText(label, 40)}`,
          `\`${clipText(label, 40)}\` middleware on ${clipText(fn.text, 30)}(${hasPath ? clipText(list[0].text, 30) : ""})`,
          m,
          named,
        );
      }
    }
  };

  const branch = (n: SyntaxNode) => {
    const cond = n.childForFieldName("condition");
    const cons = n.childForFieldName("consequence");
    if (!cond || !cons) return;
    const init = n.childForFieldName("initializer")?.text ?? "";
    const alt = n.childForFieldName("alternative");
    const elseText = alt && alt.type === "else_clause" ? alt.text.slice(0, 400) : "";
    const body = cons.text.slice(0, 600) + "\n" + elseText;
    const w = words(init + " " + cond.text);
    const authy = [...w].some((x) => COND_WORDS.has(x));
    const strong = STRONG_FAIL.test(body);
    if (!(strong || (authy && FAIL.test(body)))) return;
    const fam = familyOf(authy ? w : words(body));
    const head = grammar === "python" ? `if ${clipText(cond.text, 50)}:` : `if (${clipText(cond.text.replace(/^\((.*)\)$/s, "$1"), 50)})`;
    const fail = /\braise\b|\bthrow\b/.test(body)
      ? (grammar === "python" ? "raise" : "throw")
      : /\breturn\b/.test(body)
      ? "return"
      : "fail";
    add(FAMILY_RULE[fam], `branch`, `\`${head} ${fail}\` branch`, n);
  };

  const decorator = (n: SyntaxNode) => {
    const expr = n.namedChildren[0];
    if (!expr) return;
    const callee = expr.type === "call" || expr.type === "call_expression"
      ? expr.childForFieldName("function")
      : expr;
    const name = lastName(callee) || callee?.text || "";
    if (AUTH_DECORATOR.test(snake(name)) && !/^(?:route|property|cached_property|staticmethod|classmethod)$/.test(name)) {
      add("auth-check-removed", `decorator:${snake(name)}`, `@${name} decorator`, n);
    }
  };

  const secureDefault = (k: SyntaxNode | null, v: SyntaxNode | null, at: SyntaxNode) => {
    if (!k || !v) return;
    const name = snake((lastName(k) || k.text).replace(/^["'`]|["'`]$/g, ""));
    if (!SEC_PARAM.test(name)) return;
    const val = v.text;
    const fallback = /\?\s*(?:true|True)\s*:|\?\?\s*true\s*$|\bor\s+True\s*$|\|\|\s*true\s*$|!==?\s*false\s*$|\.get\(\s*["'][\w-]+["']\s*,\s*True\s*\)$/;
    if (/^(?:True|true|!0|1)$/.test(val) || fallback.test(val) || SECURE_CONST.test(val.replace(/.*\./, ""))) {
      add("secure-default-weakened", `default:${name}`, `${name}=${clipText(val, 30)} default`, at);
    }
  };

  const predicate = (fnNode: SyntaxNode, name: string) => {
    if (!PREDICATE_FN.test(name)) return;
    const body = fnNode.childForFieldName("body");
    if (!body) return;
    const rule: GuardRuleId = /verif|sig|token|hmac|digest/.test(name)
      ? "crypto-verification-removed"
      : "auth-check-removed";
    const stack: SyntaxNode[] = [body];
    while (stack.length) {
      const c = stack.pop()!;
      if (c !== body && SCOPE.has(c.type)) continue;
      if (c.type === "return_statement") {
        const v = c.namedChildren[0];
        if (v && !/^(?:True|False|true|false|None|null|nil|undefined)$/.test(v.text)) {
          add(rule, `predicate:${name}`, `computed return of ${name}()`, c);
        }
      } else if (c.type === "raise_statement" || c.type === "throw_statement") {
        add(rule, `predicate:${name}`, `raise in ${name}()`, c);
      } else if (IF.has(c.type)) {
        add(rule, `predicate:${name}`, `condition in ${name}()`, c);
      }
      for (const ch of c.namedChildren) if (ch) stack.push(ch);
    }
  };

  visit(root);
  return out;
}
