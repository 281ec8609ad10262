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
import { captureNodes, type Grammar, type SyntaxNode, walk } from "./parser.ts";
import {
  clipText,
  inStripList,
  lastName,
  receiver,
  stringValue,
  words,
} from "./structure_nodes.ts";
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
  ROUTE_METHOD,
  SEC_MIDDLEWARE_STRING,
  SEC_PARAM,
  SECURE_CONST,
  snake,
  STRONG_FAIL,
  STRONG_FAIL_STMT,
  STRONG_WORDS,
  TOKEN_RECEIVER,
  VERIFY_CALL,
} from "./structure_vocab.ts";
import {
  assertionFact,
  CMP_HINT,
  CMP_RULE,
  CMP_TYPES,
  compareFact,
  FAMILY_RULE,
  FLAG_HINT,
  flagFacts,
  FN_EXPR,
  FRAME,
  type Frame,
  GO_ASSIGN,
  GO_ROUTE,
  GO_VERIFY_OPTION,
  goMiddlewareFacts,
  named,
  OPTION_HINT,
  optionFact,
  SCOPE,
  SEC_MIDDLEWARE_CLASS,
} from "./structure_extra.ts";
import {
  authTerms,
  checkedCall,
  enclosingFn,
  GUARD_FN,
  LOOKUP_CALL,
  lookupWord,
  STRONG_GUARD_FN,
} from "./structure_signals.ts";

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

const CALL = new Set(["call", "call_expression", "new_expression"]);
const IF = new Set(["if_statement", "elif_clause"]);
/** Callee names worth a closer look (a superset of every call pattern below). */
const CALL_PREFILTER =
  /auth|perm|role|login|logged|csrf|password|passwd|pw|digest|compare|equal|verif|valid|check|require|ensure|allow|access|owner|restrict|deny|api_key|token|sig|hostname|construct_event|bytes_eq|^(?:get|pop|setdefault|getattr|get_bool|getboolean|remove|delete|del|unset|remove_header|del_header|post|put|patch|all|use|route|options|head|can|cannot|includes|index_of|has|contains|contains_key|assert|with|group|handle|handle_func|any|method|method_func|mount|add_hook|default)$|^with_|middleware/;

const INTERESTING = new Set([
  "call",
  "call_expression",
  "new_expression",
  "if_statement",
  "elif_clause",
  "return_statement",
  "decorator",
  "default_parameter",
  "typed_default_parameter",
  "assignment_pattern",
  "object_assignment_pattern",
  "required_parameter",
  "optional_parameter",
  "variable_declarator",
  "pair",
  "assignment",
  "assignment_expression",
  "identifier",
  "field_identifier",
  "property_identifier",
  "delete_statement",
  "raise_statement",
  "throw_statement",
  "unary_expression",
  "string",
  "comparison_operator",
  "binary_expression",
  "assignment_statement",
  "short_var_declaration",
  "var_spec",
  "assert_statement",
  "keyword_argument",
]);
/** Failures that belong to token/signature/key verification. */
const TOKEN_FAIL =
  /Invalid(?:Key|Signature|Token|Audience|Issuer|Algorithm)|ExpiredSignature|ImmatureSignature|BadSignature|SignatureExpired|SignatureInvalid|TokenExpired|TokenInvalid|JsonWebTokenError|NotBeforeError|JWT\w*(?:Expired|Invalid|Failed)/;
const IDENTIFIERS = new Set(["identifier", "field_identifier", "property_identifier"]);
const STRINGS = new Set(["string", "interpreted_string_literal"]);

/** Raw-text hint for ROLE_IN_TEXT. */
const ROLE_HINT =
  /\.(?:is_?(?:admin|staff|superuser|active|authenticated|anonymous|owner|verified|banned|locked)|has_?role|roles?|owner|permissions)\b/i;
const FAIL_STMT = new Set(["return_statement", "raise_statement", "throw_statement"]);
const ROLE_IN_TEXT =
  /\.(is_admin|isAdmin|is_staff|isStaff|is_superuser|isSuperuser|isSuperUser|is_active|isActive|is_authenticated|isAuthenticated|is_anonymous|is_owner|isOwner|is_verified|isVerified|is_banned|is_locked|has_role|hasRole|roles?|owner|owner_id|ownerId|permissions)\b/g;

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
  return guardScan(root, grammar).facts;
}

/**
 * The qualified names (`Class.method`) of every function and class a file defines.
 *
 * @example
 * ```ts
 * import { loadParsers, parse } from "./parser.ts";
 * await loadParsers();
 * const r = parse("class A:\n    def f(self):\n        pass\n", "python");
 * if (r.ok) [...definedNames(r.root)]; // ["A", "A.f"]
 * ```
 */
export function definedNames(root: SyntaxNode): Set<string> {
  const names = new Set<string>();
  const stack: string[] = [];
  walk(root, (type, get) => {
    if (!SCOPE.has(type)) return undefined;
    const name = get().childForFieldName("name")?.text ?? "";
    const q = stack.length ? `${stack.at(-1)}.${name}` : name;
    names.add(q);
    stack.push(q);
    return () => {
      stack.pop();
    };
  });
  return names;
}

/**
 * {@link guardFacts} and the names of the functions and classes the file defines (to tell a
 * check whose function went away — moved or dropped — from one removed from code that stays).
 *
 * @example
 * ```ts
 * import { loadParsers, parse } from "./parser.ts";
 * await loadParsers();
 * const r = parse("def f():\n    pass\n", "python");
 * if (r.ok) [...guardScan(r.root, "python").defs]; // ["f"]
 * ```
 */
export function guardScan(
  root: SyntaxNode,
  grammar: Grammar,
  range?: readonly [number, number],
): { facts: GuardFact[]; defs: Set<string> } {
  const out: GuardFact[] = [];
  const defs = new Set<string>();
  const scopes: string[] = [];
  const preds: string[] = []; // predicate function names, innermost last ("" = not a predicate)
  const text = root.text;
  const hasConst = /CERT_REQUIRED|VERIFY_PEER|VERIFY_FAIL_IF_NO_PEER_CERT|VerifyClientCert/.test(
    text,
  );
  const hasMwString = grammar === "python" && text.includes("Middleware");
  const hasDelete = text.includes("delete");
  const hasCredHeader = /authorization|cookie/i.test(text);
  // Comparisons and flags are looked at only when the text names something they are about.
  // Only nodes overlapping the range are looked at: their words sit near it.
  const near = range && text.length > 4000
    ? text.slice(Math.max(0, range[0] - 1500), range[1] + 1500)
    : text;
  const hasCmpWord = CMP_HINT.test(near);
  const hasFlagWord = FLAG_HINT.test(near);
  const hasOption = OPTION_HINT.test(near);
  const hasRoleRead = ROLE_HINT.test(near);
  const hasAppGuard = grammar !== "python" && grammar !== "go" && text.includes("APP_GUARD");
  // Where a fact sits: the walk keeps a stack; the query path asks the node's ancestors.
  let scopeFor: (n: SyntaxNode) => string = () => scopes.at(-1) ?? "";
  // The snake_case name of the innermost function around a node (see `enclosingFn`).
  let fnOf: (n: SyntaxNode) => string = enclosingFn;
  const add = (rule: GuardRuleId, key: string, what: string, n: SyntaxNode, high = true) =>
    out.push({ rule, key, what, line: n.startPosition.row + 1, scope: scopeFor(n), high });

  const handle = (type: string, n: SyntaxNode, pred: string) => {
    if (FAIL_STMT.has(type)) {
      const t = n.text;
      if (t.length < 400 && STRONG_FAIL.test(t)) {
        const fam = TOKEN_FAIL.test(t) ? "token" : familyOf(words(t));
        add(FAMILY_RULE[fam], "failure", `\`${clipText(t, 50)}\``, n);
      }
    }
    if (pred && (type === "return_statement" || IF.has(type))) predicate(n, pred);
    else if (hasRoleRead && type === "return_statement") {
      // A return that decides by a role or permission read (`return self.request.user.is_staff`
      // in a `test_func`, `return user.role === "admin"`): `return True` in its place drops it.
      const t = n.text;
      if (t.length < 300) {
        for (const m of t.matchAll(ROLE_IN_TEXT)) {
          add("auth-check-removed", `role:${snake(m[1])}`, `${m[1]} check in a return`, n, false);
        }
      }
    }
    if (CALL.has(type)) call(n);
    else if (IF.has(type)) branch(n);
    else if (type === "comparison_operator" || type === "binary_expression") {
      compareFact(n, fnOf, add);
    } else if (type === "assert_statement") assertionFact(n, n.text.slice(6), add);
    else if (type === "assignment_statement" || type === "short_var_declaration") {
      const l = n.childForFieldName("left")?.namedChildren ?? [];
      const r = n.childForFieldName("right")?.namedChildren ?? [];
      if (l.length === 1 && r.length === 1) {
        secureDefault(l[0], r[0], n);
        flagFacts(add, l[0], r[0], n);
      }
    } else if (type === "var_spec") {
      const v = n.childForFieldName("value")?.namedChildren ?? [];
      if (v.length === 1) {
        secureDefault(n.childForFieldName("name"), v[0], n);
        flagFacts(add, n.childForFieldName("name"), v[0], n);
      }
    } else if (type === "decorator") decorator(n);
    else if (type === "default_parameter" || type === "typed_default_parameter") {
      secureDefault(n.childForFieldName("name"), n.childForFieldName("value"), n);
    } else if (type === "assignment_pattern" || type === "object_assignment_pattern") {
      secureDefault(n.childForFieldName("left"), n.childForFieldName("right"), n);
    } else if (type === "required_parameter" || type === "optional_parameter") {
      secureDefault(n.childForFieldName("pattern"), n.childForFieldName("value"), n);
    } else if (type === "variable_declarator") {
      secureDefault(n.childForFieldName("name"), n.childForFieldName("value"), n);
      if (hasFlagWord) flagFacts(add, n.childForFieldName("name"), n.childForFieldName("value"), n);
    } else if (type === "pair" && grammar !== "python") {
      secureDefault(n.childForFieldName("key"), n.childForFieldName("value"), n);
      if (hasOption) optionFact(n.childForFieldName("key"), n, add);
      if (hasAppGuard && n.childForFieldName("key")?.text === "provide") {
        const v = n.childForFieldName("value")?.text ?? "";
        if (v === "APP_GUARD") {
          add("auth-check-removed", "mw:APP_GUARD", "global APP_GUARD provider", n);
        }
      }
    } else if (type === "keyword_argument") {
      optionFact(n.childForFieldName("name"), n, add);
    } else if (type === "assignment" || type === "assignment_expression") {
      const left = n.childForFieldName("left");
      if (left && /attribute|member_expression/.test(left.type)) {
        secureDefault(left, n.childForFieldName("right"), n);
      }
      const name = snake(lastName(left) || left?.text || "");
      if (hasFlagWord) flagFacts(add, left, n.childForFieldName("right"), n, name);
      if (/^(?:permission_classes|authentication_classes)$/.test(name)) {
        for (const c of n.childForFieldName("right")?.namedChildren ?? []) {
          if (c) add("auth-check-removed", `class:${c.text}`, `${c.text} in ${name}`, c);
        }
      }
    } else if (
      hasConst &&
      (type === "identifier" || type === "field_identifier" || type === "property_identifier")
    ) {
      if (SECURE_CONST.test(n.text)) add("secure-default-weakened", `const:${n.text}`, n.text, n);
    } else if (
      type === "delete_statement" || (type === "unary_expression" && n.text.startsWith("delete"))
    ) {
      const m = /["'`]?([\w-]*(?:authorization|cookie)[\w-]*)["'`]?/i.exec(n.text);
      if (m && CRED_HEADER.test(m[1])) {
        add("auth-check-removed", `strip:${m[1].toLowerCase()}`, `${m[1]} header stripping`, n);
      }
    } else if (type === "string" || type === "interpreted_string_literal") {
      const v = stringValue(n) ?? "";
      const m = hasMwString ? SEC_MIDDLEWARE_STRING.exec(v) : null;
      if (m) add("auth-check-removed", `mwstr:${m[0]}`, `${m[0]} setting`, n);
      if (hasCredHeader && CRED_HEADER.test(v) && inStripList(n)) {
        add("auth-check-removed", `strip:${v.toLowerCase()}`, `${v} in a header-stripping list`, n);
      }
    }
  };

  // Fast path: a tree-sitter query finds the nodes of interest inside WebAssembly.
  const types = [...INTERESTING].filter((t) =>
    (hasConst || !IDENTIFIERS.has(t)) && (hasMwString || hasCredHeader || !STRINGS.has(t)) &&
    (hasDelete || t !== "unary_expression") && (hasCmpWord || !CMP_TYPES.has(t)) &&
    (hasFlagWord || !GO_ASSIGN.has(t)) && (hasOption || t !== "keyword_argument")
  );
  const found = captureNodes(root, grammar, [...types, ...FRAME], range);
  if (found) {
    // Captures come in document order, so the functions around a node are a stack: its
    // innermost function's name (for guard-named functions) and predicate name come for free.
    const frames: Frame[] = [];
    let top: Frame | undefined;
    fnOf = () => top ? named(top).fn! : "";
    scopeFor = () => top ? named(top).scope! : "";
    for (const n of found) {
      const type = n.type;
      const start = n.startIndex;
      while (frames.length && start >= frames[frames.length - 1].end) frames.pop();
      if (FRAME.has(type)) {
        frames.push({ end: n.endIndex, node: n, type, outer: frames[frames.length - 1] });
        continue;
      }
      top = frames[frames.length - 1];
      const pred = top && (type === "return_statement" || IF.has(type)) ? named(top).pred! : "";
      handle(type, n, pred);
    }
    return { facts: out, defs };
  }

  walk(root, (type, get) => {
    if (SCOPE.has(type)) {
      const n = get();
      const name = n.childForFieldName("name")?.text ?? "";
      const isClass = type === "class_definition" || type === "class_declaration";
      const qualified = scopes.length ? `${scopes.at(-1)}.${name}` : name;
      scopes.push(qualified);
      defs.add(qualified);
      preds.push(!isClass && PREDICATE_FN.test(snake(name)) ? snake(name) : "");
      return () => {
        scopes.pop();
        preds.pop();
      };
    }
    if (FN_EXPR.has(type)) {
      const p = get().parent;
      const name = p?.childForFieldName("name")?.text ?? p?.childForFieldName("key")?.text ??
        p?.childForFieldName("left")?.text ?? "";
      scopes.push(name || (scopes.at(-1) ?? ""));
      preds.push("");
      return () => {
        scopes.pop();
        preds.pop();
      };
    }
    if (!INTERESTING.has(type)) return undefined;
    if (
      !hasConst &&
      (type === "identifier" || type === "field_identifier" || type === "property_identifier")
    ) return undefined;
    if (
      !hasMwString && !hasCredHeader && (type === "string" || type === "interpreted_string_literal")
    ) {
      return undefined;
    }
    if (type === "unary_expression" && !hasDelete) return undefined;
    handle(type, get(), preds.at(-1) ?? "");
    return undefined;
  }, range);
  return { facts: out, defs };

  function call(n: SyntaxNode) {
    const fn = n.childForFieldName("function") ?? n.childForFieldName("constructor");
    if (!fn) return;
    // The last name of the callee from its text: one wasm read instead of a walk.
    const raw = /([A-Za-z_$][\w$]*)\s*$/.exec(fn.text)?.[1] ?? "";
    const name = snake(raw);
    if (!name || !CALL_PREFILTER.test(name)) return;
    const args = n.childForFieldName("arguments");
    if (AUTH_CALL.test(name)) {
      add("auth-check-removed", `call:${name}`, `${raw}() call`, n);
    } else if (
      /^(?:compare|compare_sync|verify|check|verify_sync)$/.test(name) &&
      HASH_RECEIVER.test(receiver(fn))
    ) {
      add("auth-check-removed", `call:${receiver(fn)}.${name}`, `${receiver(fn)}.${raw}() call`, n);
    } else if (name === "equal" && /^(?:hmac|subtle|bytes_eq)$/i.test(receiver(fn))) {
      add("crypto-verification-removed", `call:${receiver(fn)}.equal`, `${fn.text}() call`, n);
    } else if (VERIFY_CALL.test(name)) {
      add("crypto-verification-removed", `call:${name}`, `${raw}() call`, n);
    } else if (
      /^(?:is_valid|valid|is_expired|has_expired|allow_scopes|has_scopes?)$/.test(name) &&
      TOKEN_RECEIVER.test(snake(receiver(fn)))
    ) {
      const who = `${receiver(fn)}.${raw}`;
      add("crypto-verification-removed", `call:${snake(who)}`, `${who}() call`, n);
    } else if (/^(?:get|pop|setdefault|getattr|get_bool|getboolean)$/.test(name) && args) {
      const list = args.namedChildren.filter((c): c is SyntaxNode => !!c);
      const key = list.length >= 2 ? stringValue(list[list.length - 2]) : null;
      if (key && SEC_PARAM.test(snake(key)) && /^(?:True|true)$/.test(list[list.length - 1].text)) {
        add("secure-default-weakened", "default", `${key} defaulting to True`, n);
      }
    }
    if (name === "assert" && args) assertionFact(n, args.text, add);
    if (name === "add_hook" && args) {
      // Fastify `app.addHook("onRequest", app.authenticate)`
      const hook = args.namedChildren[1];
      const label = hook ? (hook.childForFieldName("function")?.text ?? hook.text) : "";
      if (label && AUTH_MW.test(snake(label.replace(/.*\./, "")))) {
        add(
          "auth-check-removed",
          `mw:${clipText(label, 40)}`,
          `\`${clipText(label, 40)}\` hook`,
          n,
        );
      }
    } else if (name === "default" && /\.auth\.default$/.test(fn.text)) {
      // hapi `server.auth.default("jwt")`: every route authenticates unless it opts out
      add("auth-check-removed", "mw:auth.default", "server.auth.default() strategy", n);
    }
    if (/^(?:add_middleware|middleware|wrap_middleware)$/.test(name) && args) {
      // Starlette/FastAPI `app.add_middleware(AuthenticationMiddleware, …)`, `Middleware(X)`
      const first = args.namedChildren[0];
      const label = first && /identifier|attribute|member_expression/.test(first.type)
        ? first.text
        : "";
      if (label && SEC_MIDDLEWARE_CLASS.test(label)) {
        add("auth-check-removed", `mw:${label}`, `${label} middleware`, n);
      }
    }
    if (grammar === "go" && GO_VERIFY_OPTION.test(name)) {
      add("crypto-verification-removed", `opt:${name}`, `${raw}() option`, n);
    }
    if (hasCmpWord && LOOKUP_CALL.test(name)) {
      const w = lookupWord(n.text);
      if (w) {
        const strong = STRONG_GUARD_FN.test(fnOf(n));
        add(CMP_RULE(w), `cmp:${w}`, `\`${clipText(n.text, 50)}\` check`, n, strong);
      }
    }
    if (/^(?:pop|remove|delete|del|unset|remove_header|del_header)$/.test(name) && args) {
      const first = args.namedChildren[0];
      const v = first ? stringValue(first) : null;
      if (v && CRED_HEADER.test(v)) {
        add("auth-check-removed", `strip:${v.toLowerCase()}`, `${v} header stripping`, n);
      }
    }
    if (grammar === "go" && args && fn?.type === "selector_expression" && GO_ROUTE.test(raw)) {
      goMiddlewareFacts(fn, args, add);
    }
    // Route middleware: app.get("/path", mw1, mw2, handler)
    if (
      grammar !== "python" && grammar !== "go" && ROUTE_METHOD.test(raw) && args && fn &&
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
        add(
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

  function branch(n: SyntaxNode) {
    const cond = n.childForFieldName("condition");
    const cons = n.childForFieldName("consequence");
    if (!cond || !cons) return;
    for (const m of cond.text.matchAll(ROLE_IN_TEXT)) {
      add("auth-check-removed", `role:${snake(m[1])}`, `${m[1]} check`, n, false);
    }
    const init = n.childForFieldName("initializer")?.text ?? "";
    const alt = n.childForFieldName("alternative");
    const elseText = alt && alt.type === "else_clause" ? alt.text.slice(0, 400) : "";
    const body = cons.text.slice(0, 600) + "\n" + elseText;
    const w = words(init + " " + cond.text);
    const authy = [...w].some((x) => COND_WORDS.has(x));
    const strong = STRONG_FAIL_STMT.test(body);
    let sure = strong || [...w].some((x) => STRONG_WORDS.has(x));
    let fam = familyOf(authy ? w : words(body));
    const fails = strong || FAIL.test(body);
    if (!(strong || (authy && fails))) {
      // No auth words: still a check when the branch fails on the result of a verify/validate
      // call, or when it sits in a function whose name says it guards.
      if (!fails) {
        // A branch that grants (`if check_password(p) and can_authenticate(u): return user`)
        // inside an authenticate/verify function: each of its terms is a condition of access.
        const fnName = fnOf(n);
        if (!STRONG_GUARD_FN.test(fnName)) return;
        const terms = authTerms(cond.text, COND_WORDS);
        const f = FAMILY_RULE[familyOf(words(`${fnName} ${cond.text}`))];
        for (let i = 0; i < terms; i++) {
          add(f, "term", `term of \`if ${clipText(cond.text, 40)}\` in ${fnName}()`, n, false);
        }
        return;
      }
      const checked = checkedCall(n, cond.text);
      const fnName = checked ? "" : fnOf(n);
      if (!checked && !GUARD_FN.test(fnName)) return;
      sure = checked === "strong" || STRONG_GUARD_FN.test(fnName);
      fam = familyOf(words(`${fnName} ${init} ${cond.text} ${body}`));
      if (fam === "auth" && /verif|valid|sign|token|jw[st]|decode|claim/.test(fnName)) {
        fam = "token";
      }
    }
    // A failure branch on a generic subject (`if (!user)`) inside an authenticate/verify/login
    // function is surely a check.
    if (!sure && authy && fails) sure = STRONG_GUARD_FN.test(fnOf(n));
    // Each auth term of the condition counts: dropping one (`err || !user` → `err`) is a drop.
    const terms = authTerms(cond.text, COND_WORDS);
    for (let i = 0; i < terms; i++) {
      add(FAMILY_RULE[fam], "term", `auth term of \`if ${clipText(cond.text, 40)}\``, n, false);
    }
    const head = grammar === "python"
      ? `if ${clipText(cond.text, 50)}:`
      : `if (${clipText(cond.text.replace(/^\((.*)\)$/s, "$1"), 50)})`;
    const fail = /\braise\b|\bthrow\b/.test(body)
      ? (grammar === "python" ? "raise" : "throw")
      : /\breturn\b/.test(body)
      ? "return"
      : "fail";
    add(FAMILY_RULE[fam], `branch`, `\`${head} ${fail}\` branch`, n, sure);
  }

  function decorator(n: SyntaxNode) {
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
      add("auth-check-removed", `decorator:${snake(name)}`, `@${name} decorator`, n);
    }
  }

  function secureDefault(k: SyntaxNode | null, v: SyntaxNode | null, at: SyntaxNode) {
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
      add("secure-default-weakened", "default", `${name}=${clipText(val, 30)} default`, at);
    }
  }

  function predicate(n: SyntaxNode, name: string) {
    const rule: GuardRuleId = /verif|signature|(?:^|_)sig(?:_|$)|token|hmac|digest/.test(name)
      ? "crypto-verification-removed"
      : "auth-check-removed";
    if (n.type === "return_statement") {
      const v = n.namedChildren[0];
      if (v && /^(?:False|false)$/.test(v.text)) {
        // A fail-closed return: replacing it with `return !req` or `return True` opens the check.
        add(rule, "closed", `\`return ${v.text}\` in ${name}()`, n, false);
      }
      if (v && !/^(?:True|False|true|false|None|null|nil|undefined)$/.test(v.text)) {
        add(rule, `predicate:${name}`, `computed return of ${name}()`, n);
        for (const m of v.text.matchAll(ROLE_IN_TEXT)) {
          add("auth-check-removed", `role:${snake(m[1])}`, `${m[1]} check`, n, false);
        }
      }
    } else if (/^(?:should|has|is|can|user_can)_/.test(name)) {
      add(rule, `predicate:${name}`, `condition in ${name}()`, n);
    }
  }
}
