/**
 * Keyword-context secrets found with the parser: a string literal given to something named for a
 * credential (`password = '…'`, `secretOrKey: 'secret'`, `def f(api_key="…")`,
 * `app.config["SECRET_KEY"] = "…"`) or passed as the key of a signing call (`jwt.sign(payload,
 * 'literal')`, `jwt.encode(claims, "k")`, `hmac.new(b"k", …)`, `createHmac("sha256", "k")`).
 * Short and low-entropy values count too (a guessable signing key is the worst kind); placeholders,
 * templates, environment-variable names and sentences do not.
 *
 * @module
 */
import { captureNodes, type Grammar, type SyntaxNode, walk } from "./parser.ts";
import { isPlaceholder, type SecretHit } from "./secret_scan.ts";
import { snake } from "./structure_vocab.ts";

/** Names that hold a credential (snake_case, the name ends with one of these). */
const CRED_NAME =
  /(?:^|_)(?:password|passwd|pwd|passphrase|secret|secret_key|secret_or_key|secret_or_public_key|client_secret|app_secret|api_secret|api_key|apikey|access_key|secret_access_key|access_token|auth_token|refresh_token|bearer_token|bot_token|token_secret|private_key|signing_key|signing_secret|jwt_secret|jwt_key|session_secret|cookie_secret|encryption_key|master_key|hmac_key|webhook_secret|credentials?|db_pass|db_password|key_secret|consumer_secret)$/;
/** Names that look like credentials but hold something else. */
const NOT_CRED =
  /(?:^|_)(?:field|label|name|type|prompt|url|uri|path|file|env|var|header|prefix|suffix|length|len|min|max|regex|pattern|policy|hint|placeholder|message|msg|error|title|id|format|mode|attr|attribute|param|column|key_name)(?:_|$)/;

const CONTEXT_TYPES = new Set([
  "assignment",
  "assignment_expression",
  "augmented_assignment",
  "variable_declarator",
  "keyword_argument",
  "default_parameter",
  "typed_default_parameter",
  "pair",
  "assignment_pattern",
  "keyed_element",
  "short_var_declaration",
  "const_spec",
  "var_spec",
  "call",
  "call_expression",
]);

/** Calls whose Nth argument is a signing/verification key. */
const SIGNING: { recv: RegExp; name: RegExp; arg: number }[] = [
  { recv: /^(?:jwt|jws|jsonwebtoken|jose|JWT)$/, name: /^(?:sign|verify|encode|decode)$/, arg: 1 },
  { recv: /^hmac$/, name: /^new$/, arg: 0 },
  { recv: /^crypto$/, name: /^createHmac$/, arg: 1 },
  { recv: /^/, name: /^createHmac$/, arg: 1 },
];

function literal(n: SyntaxNode | null | undefined): string | null {
  if (!n) return null;
  if (n.type === "string") {
    // Python f-strings with fields and JS strings are both "string"; interpolation = template.
    if (n.namedChildren.some((c) => c?.type === "interpolation")) return null;
    return n.text.replace(/^[rbuRBU]*(["']{1,3})/, "").replace(/["']{1,3}$/, "");
  }
  if (n.type === "template_string") {
    if (n.namedChildren.some((c) => c?.type === "template_substitution")) return null;
    return n.text.slice(1, -1);
  }
  if (n.type === "interpreted_string_literal" || n.type === "raw_string_literal") {
    return n.text.slice(1, -1);
  }
  return null;
}

/** Whether a literal given to a credential name is a credential rather than a stand-in. */
function credentialValue(v: string, signing: boolean): boolean {
  if (v.length < (signing ? 3 : 4) || v.length > 300) return false;
  if (/\s/.test(v) && !signing) return false; // sentences, prompts, messages
  if (/^[A-Z][A-Z0-9_]{2,}$/.test(v)) return false; // the name of an env variable
  if (/^(?:https?|wss?|file):\/\/[^:@]*$/i.test(v) || /^[./~]/.test(v)) return false; // URLs, paths
  if (/^\w+\.\w+(?:\.\w+)*$/.test(v) && !/\d/.test(v)) return false; // dotted setting names
  if (isPlaceholder(v)) return false;
  if (
    !signing &&
    /^(?:bearer|basic|token|jwt|none|hidden|text|required|optional|default|string|sha\d+|hs\d+|rs\d+|utf-?8|hex|base64|ascii)$/i
      .test(v)
  ) return false;
  return true;
}

function nameOf(n: SyntaxNode | null): string {
  if (!n) return "";
  if (n.type === "subscript" || n.type === "subscript_expression") {
    const idx = n.childForFieldName("subscript") ?? n.childForFieldName("index");
    const s = literal(idx);
    return s ?? "";
  }
  const f = n.childForFieldName("attribute") ?? n.childForFieldName("property");
  const t = (f ?? n).text;
  return t.replace(/^["'`]|["'`]$/g, "");
}

/**
 * Keyword-context secret literals in a parsed file.
 *
 * @example
 * ```ts
 * import { loadParsers, parse } from "./parser.ts";
 * await loadParsers();
 * const r = parse("const opts = { secretOrKey: 'secret' };\n", "javascript");
 * if (r.ok) contextSecrets(r.root, "javascript").length; // 1
 * ```
 */
export function contextSecrets(
  root: SyntaxNode,
  grammar: Grammar,
  range?: readonly [number, number],
): SecretHit[] {
  const out: SecretHit[] = [];
  const hit = (name: string, v: SyntaxNode | null, signing = false) => {
    const s = literal(v);
    if (s === null || !v) return;
    const n = snake(name);
    if (!signing && (!CRED_NAME.test(n) || NOT_CRED.test(n))) return;
    if (!credentialValue(s, signing)) return;
    out.push({ rule: "keyword-literal", value: s, line: v.startPosition.row + 1 });
  };
  const visit = (type: string, n: SyntaxNode) => {
    switch (type) {
      case "assignment":
      case "assignment_expression":
      case "augmented_assignment":
        hit(nameOf(n.childForFieldName("left")), n.childForFieldName("right"));
        break;
      case "variable_declarator":
        hit(nameOf(n.childForFieldName("name")), n.childForFieldName("value"));
        break;
      case "keyword_argument":
      case "default_parameter":
      case "typed_default_parameter":
        hit(nameOf(n.childForFieldName("name")), n.childForFieldName("value"));
        break;
      case "pair":
        hit(nameOf(n.childForFieldName("key")), n.childForFieldName("value"));
        break;
      case "assignment_pattern":
        hit(nameOf(n.childForFieldName("left")), n.childForFieldName("right"));
        break;
      case "keyed_element": {
        const [k, v] = n.namedChildren;
        hit(k?.text ?? "", v?.namedChildren[0] ?? v);
        break;
      }
      case "short_var_declaration":
      case "const_spec":
      case "var_spec": {
        const left = n.childForFieldName("left") ?? n.childForFieldName("name");
        const right = n.childForFieldName("right") ?? n.childForFieldName("value");
        hit(left?.text ?? "", right?.namedChildren[0] ?? right);
        break;
      }
      case "call":
      case "call_expression": {
        const fn = n.childForFieldName("function");
        const args =
          n.childForFieldName("arguments")?.namedChildren.filter((c) =>
            c && c.type !== "comment"
          ) ?? [];
        const prop = fn?.childForFieldName("attribute") ?? fn?.childForFieldName("property");
        const name = prop?.text ?? fn?.text ?? "";
        const recv = (fn?.childForFieldName("object")?.text ?? "").replace(/.*\./, "");
        for (const s of SIGNING) {
          if (s.name.test(name) && s.recv.test(recv)) {
            hit(name, args[s.arg] ?? null, true);
            break;
          }
        }
        if (
          grammar === "python" && /^(?:setdefault|__setitem__|set)$/.test(name) && args.length >= 2
        ) {
          hit(literal(args[0]) ?? "", args[1]);
        }
        break;
      }
    }
  };
  // A query finds the nodes inside WebAssembly (in document order, as the walk would); the walk
  // is the fallback when no query can be made.
  const found = range ? null : captureNodes(root, grammar, CONTEXT_LIST);
  if (found) { for (const n of found) visit(n.type, n); }
  else {
    walk(root, (type, get) => {
      if (CONTEXT_TYPES.has(type)) visit(type, get());
    }, range);
  }
  return out;
}

const CONTEXT_LIST = [...CONTEXT_TYPES];
