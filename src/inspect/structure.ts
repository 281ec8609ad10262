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
import { clipText, inStripList, lastName, stringValue, words } from "./structure_nodes.ts";
import {
  CRED_HEADER,
  familyOf,
  PREDICATE_FN,
  SEC_MIDDLEWARE_STRING,
  SECURE_CONST,
  snake,
  STRONG_FAIL,
} from "./structure_vocab.ts";
import {
  assertionFact,
  CMP_HINT,
  CMP_TYPES,
  compareFact,
  FAMILY_RULE,
  FLAG_HINT,
  flagFacts,
  FN_EXPR,
  FRAME,
  type Frame,
  GO_ASSIGN,
  named,
  OPTION_HINT,
  optionFact,
  SCOPE,
} from "./structure_extra.ts";
import { enclosingFn } from "./structure_signals.ts";
import {
  branchFact,
  callFact,
  decoratorFact,
  predicateFact,
  ROLE_IN_TEXT,
  type ScanCtx,
  secureDefaultFact,
} from "./structure_scan.ts";

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
  whole?: { text: string; range: readonly [number, number] },
): { facts: GuardFact[]; defs: Set<string> } {
  const out: GuardFact[] = [];
  const defs = new Set<string>();
  const scopes: string[] = [];
  const preds: string[] = []; // predicate function names, innermost last ("" = not a predicate)
  // A window of a statement (`structure_window.ts`) reads its words from the whole statement.
  const text = whole ? whole.text : root.text;
  const at = whole ? whole.range : range;
  const hasConst = /CERT_REQUIRED|VERIFY_PEER|VERIFY_FAIL_IF_NO_PEER_CERT|VerifyClientCert/.test(
    text,
  );
  const hasMwString = grammar === "python" && text.includes("Middleware");
  const hasDelete = text.includes("delete");
  const hasCredHeader = /authorization|cookie/i.test(text);
  // Comparisons and flags are looked at only when the text names something they are about.
  // Only nodes overlapping the range are looked at: their words sit near it.
  const near = at && text.length > 4000
    ? text.slice(Math.max(0, at[0] - 1500), at[1] + 1500)
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
  // What the per-construct scanners (`structure_scan.ts`) need; `fnOf` may be switched below.
  const ctx: ScanCtx = { add, fnOf: (n) => fnOf(n), grammar, hasCmpWord };

  const handle = (type: string, n: SyntaxNode, pred: string) => {
    if (FAIL_STMT.has(type)) {
      const t = n.text;
      if (t.length < 400 && STRONG_FAIL.test(t)) {
        const fam = TOKEN_FAIL.test(t) ? "token" : familyOf(words(t));
        add(FAMILY_RULE[fam], "failure", `\`${clipText(t, 50)}\``, n);
      }
    }
    if (pred && (type === "return_statement" || IF.has(type))) predicateFact(ctx, n, pred);
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
    if (CALL.has(type)) callFact(ctx, n);
    else if (IF.has(type)) branchFact(ctx, n);
    else if (type === "comparison_operator" || type === "binary_expression") {
      compareFact(n, fnOf, add);
    } else if (type === "assert_statement") assertionFact(n, n.text.slice(6), add);
    else if (type === "assignment_statement" || type === "short_var_declaration") {
      const l = n.childForFieldName("left")?.namedChildren ?? [];
      const r = n.childForFieldName("right")?.namedChildren ?? [];
      if (l.length === 1 && r.length === 1) {
        secureDefaultFact(ctx, l[0], r[0], n);
        flagFacts(add, l[0], r[0], n);
      }
    } else if (type === "var_spec") {
      const v = n.childForFieldName("value")?.namedChildren ?? [];
      if (v.length === 1) {
        secureDefaultFact(ctx, n.childForFieldName("name"), v[0], n);
        flagFacts(add, n.childForFieldName("name"), v[0], n);
      }
    } else if (type === "decorator") decoratorFact(ctx, n);
    else if (type === "default_parameter" || type === "typed_default_parameter") {
      secureDefaultFact(ctx, n.childForFieldName("name"), n.childForFieldName("value"), n);
    } else if (type === "assignment_pattern" || type === "object_assignment_pattern") {
      secureDefaultFact(ctx, n.childForFieldName("left"), n.childForFieldName("right"), n);
    } else if (type === "required_parameter" || type === "optional_parameter") {
      secureDefaultFact(ctx, n.childForFieldName("pattern"), n.childForFieldName("value"), n);
    } else if (type === "variable_declarator") {
      secureDefaultFact(ctx, n.childForFieldName("name"), n.childForFieldName("value"), n);
      if (hasFlagWord) flagFacts(add, n.childForFieldName("name"), n.childForFieldName("value"), n);
    } else if (type === "pair" && grammar !== "python") {
      secureDefaultFact(ctx, n.childForFieldName("key"), n.childForFieldName("value"), n);
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
        secureDefaultFact(ctx, left, n.childForFieldName("right"), n);
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
}
