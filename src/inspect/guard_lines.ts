/**
 * Broad guard signals from the changed lines, at **medium** severity: what the counted rules and
 * the parser's vocabulary do not know by name, seen by its shape.
 *
 * The counted rules (`rules_*.ts`) and the structural layer (`structure.ts`) fire high on guards
 * they recognise. Real code guards itself with names nobody lists (`_should_handle`, `isTrustedProxy`,
 * a library's own `ErrInvalidGrant`), so this layer looks at the shape of what an edit took away,
 * in code that is about security (its path, the function the change sits in, or the removed lines
 * themselves speak of auth, tokens, sessions, permissions, signatures, TLS…):
 *
 * - a **failure statement removed** (`raise`, `throw`, `abort`, a `return` of an error, `false` or
 *   a 401/403, `next(err)`): more of them removed than added;
 * - a **condition weakened**: an `if`/`elif`/`while`/`return` whose condition lost a conjunct, a
 *   call or a comparison, or became a constant (`if False:`, `if (true)`);
 * - a **checking call removed**: a call whose name checks, verifies, validates, compares, requires
 *   or enforces (`check_x`, `verifyY`, `isTrusted…`, `has_perm`, `compare_digest`) occurs fewer
 *   times after the edit than before;
 * - a **secure value weakened**: `true → false`, `CERT_REQUIRED → CERT_NONE`, `'strict' → 'lax'`
 *   on a line that names a security setting, or such a setting (`issuer`, `audience`, `nonce`,
 *   `algorithms`, `secure`, `httpOnly`, `maxAge`…) removed from where it was passed.
 *
 * Medium findings are recorded and shown with the construct and line; by default only high ones ask
 * (`docs/inspector.md` gives their rate on benign edits). Pure: text in, findings out.
 *
 * @module
 */
import { diffArrays } from "diff";
import type { Finding } from "./types.ts";

/** Words that make code security code, matched against whole words of identifiers and text
 * (`originalUrl` is not about origins; `isOriginAllowed` is). */
const SECURITY_WORD =
  /^(auth\w*|authn|authz|login|logon|logout|signin|session|sessions|token|tokens|jwt|jws|jwe|jwk|jwks|jose|oauth\w*|oidc|openid|saml|csrf|xsrf|permission\w*|perm|perms|acl|acls|role|roles|admin|staff|superuser|secur\w*|crypt\w*|encrypt\w*|decrypt\w*|signature|signatures|signed|signer|signing|sign|unsign|verif\w*|password\w*|passwd|credential\w*|secret\w*|tls|ssl|cert|certs|certificate\w*|otp|totp|hotp|mfa|2fa|webauthn|passkey|guard|guards|policy|policies|grant|grants|consent|scope|scopes|nonce|pkce|redirect\w*|origin|origins|cookie|cookies|cors|trust\w*|hmac|digest|claim|claims|issuer|iss|audience|aud|expir\w*|exp|authori[sz]\w*|authentic\w*|principal|principals|lockout|ratelimit|throttle|allowed|denied|deny|forbidden|unauthorized|unauthorised|privilege\w*|owner|ownership|assertion|challenge|verifier|fresh|reauth\w*|reauthenticate|bearer|apikey|api_key|hsts|samesite|httponly|captcha|recaptcha|hcaptcha|enforce\w*|enforcer)$/i;

/** True when `text` holds a security word (identifiers split at `_`, `-`, `.` and camelCase). */
function speaksSecurity(text: string): boolean {
  for (const id of text.match(/[A-Za-z][A-Za-z0-9]*/g) ?? []) {
    if (SECURITY_WORD.test(id)) return true;
    for (const w of id.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)) {
      if (w !== id && SECURITY_WORD.test(w)) return true;
    }
  }
  for (const w of text.split(/[^A-Za-z0-9]+/)) if (SECURITY_WORD.test(w)) return true;
  return false;
}

/** A regular-expression face of {@link speaksSecurity} for `.test()` call sites. */
const SECURITY = { test: speaksSecurity };

/** Errors that validate arguments or report a bug, not a denied request. */
const NOT_A_DENIAL =
  /\b(TypeError|ValueError|RangeError|NotImplementedError|NotImplemented|AssertionError|KeyError|IndexError|AttributeError|LookupError|SyntaxError|DeprecationWarning|UnsupportedAlgorithm|ImportError|ModuleNotFoundError|StopIteration|OverflowError|ZeroDivisionError)\b/;

/** Returns of a bare `false`/`None`: a denial only inside a predicate or a security function. */
const BARE_RETURN = /^\s*return\s+(false|False|None|null|nil)\s*;?\s*$/;

/** An assignment that denies (`allow = False`, `req.authorized = false`). */
const DENY_ASSIGN =
  /\b[\w$.]*(allow|allowed|authori[sz]ed|authenticated|valid|verified|permitted|granted|ok)\w*\s*=(?!=)\s*(false|False)\b/i;

/** A statement that fails a check: raises, throws, aborts, denies, or returns an error. */
const FAILURE =
  /\b(raise|throw|abort|panic)\b|\breturn\s+(false|False|None|null|nil\s*,|err\b|\w*(Err|Error|Exception)\b|errors?\.|fmt\.Errorf|new\s+\w*(Error|Exception)|res\.status|c\.|ctx\.|http\.|Response\(|HttpResponse\w*\(|JsonResponse\(|redirect\(|reject|deny|unauthori[sz]ed|forbidden)|\.status\(\s*40[0-9]\s*\)|status(_code)?\s*[:=]\s*40[13]|Status(Unauthorized|Forbidden|BadRequest)|HTTP_40[13]|\bUnauthori[sz]ed\b|\bForbidden\b|PermissionDenied|AccessDenied|\bnext\(\s*(err|new\s|create|\w*Error)|\bAbortWith|\bhttp\.Error\(|\bdeny\(|\breject\(|_unauthz|_unauthn|_reauthn|\bflash\(|\breturn\s+[\w.]*\bErr[A-Z]\w*|\breturn\s+\w+\.(WithStack|Wrap\w*|New\w*)\(|\b(callback|cb|done|next|reject)\(\s*(null\s*,\s*false|new\s+\w*(Error|Exception))|\bnew\s+\w*(Unauthori[sz]ed|Forbidden|Untrusted|Invalid|Denied|Expired|Auth\w*)\w*(Error|Exception)\b|\b_?\w*(error_?response|permission_denied|handle_no_permission|access_denied|forbidden|unauthori[sz]ed)\w*\(|\.fail\(|\bfail\(|\b(callback|cb|done|next|reject|\w+\.done)\(\s*(err|error|e|ex|\w*[Ee]rr(or)?|currentError|[\w.]+\(\s*e\s*\))\s*[,)]|\breturn\b[^;\n]*,\s*(fmt\.Errorf|errors\.New|\w*\.?Err[A-Z]\w*)|\bHTTP_4\d\d(_[A-Z_]+)?\b/;

/** A call that checks something: its name says so. */
const CHECK_CALL =
  /^(.*[._])?(check\w*|\w*_check|verify\w*|\w*[vV]erif\w*|validate\w*|\w*_validate|is_?valid\w*|ensure_?\w+|require_?(auth|login|perm|role|scope|admin|user|csrf|token|fresh|https|secure)\w*|assert_?(auth|perm|role|scope|admin|user|csrf|token|owner|allowed|valid)\w*|authori[sz]e\w*|authenticate\w*|enforce\w*|protect\w*|guard\w*|permit\w*|unsign\w*|compare_?digest|timing_?safe_?equal|constant_?time\w*|bytes_eq|strings_equal|safe_str_cmp|secure_compare|hmac\.?equal|same_?origin\w*|is_?same_?origin\w*|is_?trusted\w*|\w*_?trusted|is_?(admin|staff|superuser|active|authenticated|authorized|allowed|owner|expired|public|safe_url|safe)\w*|has_?(perm|role|scope|access|permission|privilege)\w*|can_?(access|view|edit|read|write|delete|manage|admin|change)\w*|\w*(Authori[sz]ed|Authenticated|Permitted|Granted|Allowed|Trusted)|auth|authn|authz|require_?auth\w*|ensure_?auth\w*|with_?auth\w*|login_?required)$/i;

/** Words of a setting whose strict value is the safe one. */
const SECURE_SETTING =
  /\bexp\b|\bnbf\b|secure|http_?only|same_?site|verify|validat|check|strict|require|enforce|csrf|xsrf|auth|sign|ssl|tls|https|lock|protect|safe|expir|audience|issuer|nonce|pkce|hsts|trust|reject|encrypt|always_?validate|fresh|unauthori/i;

/** Options whose removal from a call or a config weakens a check. */
const SECURITY_OPTION =
  /^\s*['"]?(issuer|iss|audience|aud|nonce|expected_?nonce|expectedNonce|algorithms|algs|max_?age|maxAge|clock_?tolerance|clockTolerance|verify_\w+|verify[A-Z]\w*|secure|http_?only|httpOnly|same_?site|sameSite|required|\w+_required|\w+Required|strict\w*|check_\w+|check[A-Z]\w*|validate_\w+|validate[A-Z]\w*|enforce\w*|signed|leeway|subject|checks|pkce\w*|code_?challenge\w*|jwks?_?\w*|public_?key|secretOrKey|require_(signature|https|auth|login|csrf|token)\w*)['"]?\s*[:=](?!=)\s*(?!(bytes|str|int|float|bool|dict|list|tuple|Any|Optional|Union|typing|string|number|boolean)\b)/i;

const STRONG_TO_WEAK: [RegExp, RegExp][] = [
  [/\b(true|True|TRUE)\b/, /\b(false|False|FALSE|None|null|nil|undefined)\b/],
  [/\bCERT_REQUIRED\b/, /\bCERT_(NONE|OPTIONAL)\b/],
  [/\bVERIFY_PEER\b/, /\bVERIFY_NONE\b/],
  [/['"]strict['"]/i, /['"](lax|none)['"]/i],
  [/\b1\b/, /\b0\b/],
];

/** A condition's subject that is itself a verdict (`if is_safe:`, `if (!allowed)`). */
const CHECK_SUBJECT =
  /\b(is_?|has_?|can_?)?(safe|valid|allowed|authori[sz]ed|authenticated|trusted|verified|permitted|owner|admin|staff|same_?origin)\w*\b(?!\s*=(?!=))/i;

/** A function whose job is to check: what it removes is a check. */
const CHECKER_FN =
  /^_*(verify|validate|check|authori[sz]e|authenticate|allow|permit|trust|ensure|require|assert|enforce|protect|guard)/i;

/** A function that answers a yes/no question about access or validity. */
const PREDICATE =
  /^(is|has|can|should|may|must|allow|allows|check|verify|valid|validate|trust|permit|authori[sz]e|authenticate)|(allowed|valid|trusted|authori[sz]ed|permitted|granted|permission|access)$/i;

/** Lines longer than this, or more changed lines than this on a side, are not looked at. */
const MAX_LINE = 400;
const MAX_CHANGED = 250;

interface Line {
  text: string;
  /** 1-based line number in its own side. */
  n: number;
}

interface Hunk {
  removed: Line[];
  added: Line[];
}

function hunks(before: string[], after: string[], path: string): Hunk[] {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endB = before.length;
  let endA = after.length;
  while (endB > start && endA > start && before[endB - 1] === after[endA - 1]) (endB--, endA--);
  if (endB - start > MAX_CHANGED || endA - start > MAX_CHANGED) return [];
  // Nothing of security around the change: no signal could fire (they all need a security
  // word in the path, the function, the changed lines, a setting's name or a weakening word).
  const middle = [
    ...before.slice(Math.max(0, start - 3), endB + 2),
    ...after.slice(start, endA),
  ].join("\n");
  if (
    !speaksSecurity(path) && !speaksSecurity(middle) && !SECURE_SETTING.test(middle) &&
    !WEAKENING.test(middle) && !SECURITY_HEADER.test(middle) &&
    !speaksSecurity(enclosing(before, start + 1))
  ) return [];
  const norm = (l: string) => l.trim();
  const parts = diffArrays(before.slice(start, endB).map(norm), after.slice(start, endA).map(norm));
  const out: Hunk[] = [];
  let b = start;
  let a = start;
  let cur: Hunk | null = null;
  for (const p of parts) {
    const k = p.value.length;
    if (!p.added && !p.removed) {
      cur = null;
      b += k;
      a += k;
      continue;
    }
    cur ??= (out.push({ removed: [], added: [] }), out[out.length - 1]);
    for (let i = 0; i < k; i++) {
      if (p.removed) cur.removed.push({ text: before[b + i], n: b + i + 1 });
      else cur.added.push({ text: after[a + i], n: a + i + 1 });
    }
    if (p.removed) b += k;
    else a += k;
  }
  return out;
}

/** Comment-only lines and comment tails removed (a commented-out guard counts as removed). */
function code(line: string): string {
  const t = line.trim();
  if (/^(#|\/\/|\/\*|\*|<!--|--\s)/.test(t)) return "";
  return t.length > MAX_LINE ? "" : t.replace(/\s+(#|\/\/)\s.*$/, "");
}

const enclosingMemo = new WeakMap<string[], Map<number, string>>();

/** The name of the definition a line sits in (nearest earlier less-indented def/function). */
function enclosing(lines: string[], n: number): string {
  let memo = enclosingMemo.get(lines);
  if (!memo) enclosingMemo.set(lines, memo = new Map());
  const known = memo.get(n);
  if (known !== undefined) return known;
  const name = findEnclosing(lines, n);
  memo.set(n, name);
  return name;
}

function findEnclosing(lines: string[], n: number): string {
  return enclosingChain(lines, n)[0] ?? "";
}

/** The names of every definition a line sits in, innermost first. */
function enclosingChain(lines: string[], n: number): string[] {
  const names: string[] = [];
  const ind = (l: string) => l.length - l.trimStart().length;
  let depth = ind(lines[n - 1] ?? "");
  for (let i = n - 2; i >= 0 && i >= n - 400; i--) {
    const l = lines[i];
    // The closing line of a multi-line signature (`) -> bool:`) belongs to the def above it.
    if (l.trim() === "" || ind(l) >= depth || /^\s*[)\]]/.test(l)) continue;
    depth = ind(l);
    const m =
      /^\s*(?:export\s+)?(?:async\s+)?(?:def\b|function\b\*?|func\b|class\b|fn\b)\s*(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)/
        .exec(l) ??
        /^\s*(?:(?:public|private|protected|static|async|get|set)\s+)*(?:[A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]*)\s*(?:=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>)|\([^)]*\)\s*(?::[^={]*)?\{)/
          .exec(l) ??
        /^\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=/.exec(l);
    if (m && !/^(if|for|while|switch|catch|return|else)$/.test(m[1])) names.push(m[1]);
    if (depth === 0) break;
  }
  return names;
}

function callNames(line: string): string[] {
  return [...line.matchAll(/([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\(/g)].map((m) => m[1])
    .filter((n) => !/^(if|for|while|switch|return|catch|function|elif|and|or|not)$/.test(n));
}

function lastName(call: string): string {
  return call.split(".").pop() ?? call;
}

function occurrences(text: string, name: string): number {
  const re = new RegExp(`(^|[^\\w$])${name.replace(/[.$]/g, "\\$&")}\\s*\\(`, "g");
  return (text.match(re) ?? []).length;
}

/** Operands of a condition: conjuncts/disjuncts, comparisons and calls. */
function operands(cond: string): number {
  const joins = (cond.match(/&&|\|\||\band\b|\bor\b/g) ?? []).length;
  const cmps =
    (cond.match(/===?|!==?|<=|>=|(?<![-=<])<(?![<=])|(?<![-=>])>(?![>=])|\bis\b|\bin\b/g) ??
      []).length;
  return joins + cmps + callNames(cond).length;
}

/** The condition of an `if`/`elif`/`while` header or a `return` (its expression). */
function condition(line: string): string | null {
  const m = /^\s*(?:}\s*)?(if|elif|else\s+if|while|return)\b\s*/.exec(line);
  if (!m) return null;
  const rest = line.slice(m[0].length);
  if (rest.startsWith("(") && m[1] !== "return") {
    let depth = 0;
    for (let i = 0; i < rest.length; i++) {
      if (rest[i] === "(") depth++;
      else if (rest[i] === ")" && --depth === 0) return rest.slice(1, i);
    }
    return rest.slice(1);
  }
  return rest.replace(/\s*[:{;]\s*$/, "");
}

/** Security words in a text, as a multiset count. */
function securityWords(t: string): number {
  return (t.match(/[A-Za-z][A-Za-z0-9]*/g) ?? []).filter((w) => speaksSecurity(w)).length;
}

const CONSTANT =
  /^\(?\s*(False|false|True|true|0|1|None|nil|null|undefined)\s*\)?;?$|^(async\s*)?(\([^)]*\)|\w+)\s*=>\s*(true|false)\s*;?$|^lambda[^:]*:\s*(True|False)$/;

/**
 * Medium guard findings for an edit of `path` from `before` to `after` (both present).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineGuardFindings } from "./guard_lines.ts";
 * const before = "def load(req):\n    if not _csrf_ok(req):\n        raise Forbidden()\n    return 1\n";
 * const after = "def load(req):\n    return 1\n";
 * const [f] = lineGuardFindings("app/views.py", before, after);
 * assert.equal(f.rule, "auth-check-removed");
 * assert.equal(f.severity, "medium");
 * assert.deepEqual(lineGuardFindings("app/views.py", before, before), []);
 * ```
 */
export function lineGuardFindings(path: string, before: string, after: string): Finding[] {
  if (before === after || before.length > 300_000 || after.length > 300_000) return [];
  const bl = before.split("\n");
  const al = after.split("\n");
  const hs = hunks(bl, al, path);
  if (hs.length === 0) return [];
  const file = path.split(/[\\/]/).pop() || path;
  const pathSecure = SECURITY.test(path);
  // Code only (comment lines dropped): a commented-out call counts as gone.
  const beforeCode = bl.map(code).join("\n");
  const afterCode = al.map(code).join("\n");
  const found = new Map<string, Finding>();
  const add = (rule: string, n: number, what: string) => {
    if (found.has(rule)) return;
    const fn = enclosing(bl, n);
    // The whole definition went (an implementation moved or dropped): the counted layers say so,
    // one severity lower; its callers would notice.
    if (fn && !new RegExp(`(^|[^\\w$])${fn.replace(/\$/g, "\\$")}([^\\w$]|$)`).test(afterCode)) {
      return;
    }
    const detail = `${what}${fn ? ` in ${fn}()` : ""} (${file}:${n})`;
    found.set(rule, {
      rule,
      severity: "medium",
      path,
      before: 1,
      after: 0,
      line: n,
      detail,
      message: `guard weakened (from the changed lines) — ${detail}`,
    });
  };

  // Failure statements: net removals across the whole edit, located at the first removed one.
  const failing = (ls: Line[], lines: string[]) =>
    ls.filter((l) => {
      const c = code(l.text);
      if (!(FAILURE.test(c) || DENY_ASSIGN.test(c)) || NOT_A_DENIAL.test(c)) return false;
      const fn = enclosing(lines, l.n);
      return !BARE_RETURN.test(c) || SECURITY.test(fn) || PREDICATE.test(bare(fn));
    });
  const removedFail = hs.flatMap((h) => failing(h.removed, bl).map((l) => ({ l, h })));
  const addedFail = hs.flatMap((h) => failing(h.added, al));
  const addedFailText = new Set(addedFail.map((l) => code(l.text)));
  const lostFail = removedFail.filter(({ l }) => !addedFailText.has(code(l.text)));
  if (removedFail.length > addedFail.length && lostFail.length > 0) {
    // An exception thrown in security code (by its path) counts too; a plain return needs more.
    const hit = lostFail.find(({ l, h }) =>
      strong(l.n, h) ||
      (pathSecure &&
        /\b(raise|throw|abort|panic)\b|\b(callback|cb|done|next|reject)\(\s*\w/.test(code(l.text)))
    );
    if (hit) {
      add("auth-check-removed", hit.l.n, `failure statement removed: \`${clip(hit.l.text)}\``);
    }
  }

  function context(h: Hunk): string {
    const first = h.removed[0]?.n ?? h.added[0]?.n ?? 1;
    const last = h.removed.at(-1)?.n ?? first;
    return [
      ...bl.slice(Math.max(0, first - 3), first - 1),
      ...h.removed.map((l) => l.text),
      ...bl.slice(last, last + 2),
      ...h.added.map((l) => l.text),
    ].join("\n");
  }
  /** Security code, from the path, the function, or text around the change. */
  function secure(n: number, extra: string): boolean {
    return pathSecure || SECURITY.test(enclosing(bl, n)) || SECURITY.test(extra);
  }
  /** The changed lines themselves, or the function they sit in, speak of security. */
  function strong(n: number, h: Hunk): boolean {
    const fn = enclosing(bl, n);
    if (SECURITY.test(fn) || CHECKER_FN.test(fn)) return true;
    // A decorator's or a middleware's inner function: the outer one names the check.
    if (enclosingChain(bl, n).some((x) => SECURITY.test(x) || CHECKER_FN.test(x))) return true;
    if (CHECK_SUBJECT.test(bl[n - 1] ?? "")) return true;
    const near = h.removed.filter((l) => l.n >= n - 6 && l.n <= n + 3).map((l) => l.text);
    // …and the body the line heads (what a removed or emptied condition guarded).
    return SECURITY.test([...near, ...bl.slice(n, n + 3)].join("\n"));
  }

  for (const h of hs) {
    const ctx = context(h);
    const removedCode = h.removed.map((l) => code(l.text));
    const addedCode = h.added.map((l) => code(l.text));
    const addedText = addedCode.join("\n");
    // A definition's parameters changed: its parameter list is not a setting passed anywhere.
    const signatureChange = [...h.removed, ...h.added].some((l) =>
      /^\s*(export\s+)?(async\s+)?(def|function|func|fn)\b|^\s*(public|private|protected)?\s*constructor\s*\(/
        .test(l.text)
    );

    // An early exit removed with its branch: `if …: return/raise/continue` gone, header and all.
    for (let i = 0; i < h.removed.length; i++) {
      const rc = removedCode[i];
      if (!/^\s*(}\s*)?(if|elif|else\s+if|unless)\b/.test(rc) || addedCode.includes(rc)) continue;
      // An edited condition (the header is still there, changed) is for the condition rules.
      // So is a header written anew at the same place (renamed, or split from an assignment).
      const indent = (t: string) => t.length - t.trimStart().length;
      const at = indent(h.removed[i].text);
      if (
        addedCode.some((t) =>
          headKind(t) === headKind(rc) && (similarStart(rc, t) || overlap(rc, t) >= 0.5)
        ) ||
        h.added.some((a) => indent(a.text) === at && headKind(code(a.text)) === headKind(rc))
      ) continue;
      const body = bl.slice(h.removed[i].n - 1, h.removed[i].n + 3).map(code).join("\n");
      if (!/\b(return|raise|throw|continue|break|abort|panic)\b|\bnext\(|AbortWith/.test(body)) {
        continue;
      }
      const cond = condition(rc) ?? "";
      if (!/[=!<>]=|[<>]|\bis\b|\bnot\b|!|\(/.test(cond) && !CHECK_SUBJECT.test(cond)) {
        if (!strong(h.removed[i].n, h)) continue;
      }
      if (strong(h.removed[i].n, h)) {
        add("auth-check-removed", h.removed[i].n, `branch removed: \`${clip(rc)}\``);
      }
    }

    // A piece of a condition removed: a line that is one operand of `&&`/`||`/`and`/`or`.
    for (let i = 0; i < h.removed.length; i++) {
      const rc = removedCode[i];
      if (!/^(&&|\|\||and\b|or\b)|(&&|\|\||\band|\bor)$/.test(rc)) continue;
      if (addedCode.includes(rc) || !(/[=!<>]=|[<>]|\(/.test(rc) || speaksSecurity(rc))) continue;
      if (strong(h.removed[i].n, h)) {
        add("auth-check-removed", h.removed[i].n, `condition operand removed: \`${clip(rc)}\``);
      }
    }

    // Conditions weakened: pair each removed header with the added header of the same kind.
    for (let i = 0; i < h.removed.length; i++) {
      const r = h.removed[i];
      const rc = removedCode[i];
      const cb = condition(rc) ?? assigned(rc);
      if (cb === null || cb === "") continue;
      const kind = headKind(rc);
      const partner = addedCode.find((t) =>
        headKind(t) === kind &&
        (similarStart(rc, t) || CONSTANT.test((condition(t) ?? assigned(t) ?? "").trim()))
      );
      if (partner === undefined) continue;
      const ca = condition(partner) ?? assigned(partner);
      if (ca === null) continue;
      const fn = bare(enclosing(bl, r.n));
      const inCheck = PREDICATE.test(fn) || SECURITY.test(fn);
      if ((kind === "return" || kind === "=") && !inCheck && !pathSecure) continue;
      const lost = callNames(cb).filter((c) => !ca.includes(lastName(c)));
      const fewerCompares = compares(ca) < compares(cb);
      const weaker = (CONSTANT.test(ca.trim()) && !CONSTANT.test(cb.trim())) ||
        (CONSTANT.test(ca.trim()) && CONSTANT.test(cb.trim()) && ca.trim() !== cb.trim() &&
          kind === "return" && inCheck) ||
        // A check that now says yes where it said no.
        (kind === "return" && /^(false|False)\b/.test(cb.trim()) &&
          /^(true|True)\b/.test(ca.trim())) ||
        // `false &&` or `|| true` put into a condition.
        (/^(false|False)\s*(&&|and\b)|(\|\||\bor)\s*(true|True)\s*$/.test(
          ca.trim().replace(/^.*;\s*/, ""),
        ) &&
          !/(false|False)\s*(&&|and)|(\|\||or)\s*(true|True)/.test(cb)) ||
        (operands(ca) < operands(cb) &&
          (lost.some((c) => isCheckCall(c) || SECURITY.test(c)) ||
            securityWords(ca) < securityWords(cb) || (fewerCompares && inCheck) ||
            // A whole conjunct dropped from an `if` (`a and b` → `b`): one requirement fewer.
            (kind !== "return" && kind !== "=" && conjuncts(ca) < conjuncts(cb) &&
              ca.split(/&&|\band\b/).every((p) => cb.includes(p.trim())))));
      const flipped = kind === "return" && /^(true|True)\b/.test(ca.trim());
      if (weaker && (strong(r.n, h) || (flipped && secure(r.n, ctx)))) {
        add("auth-check-removed", r.n, `condition weakened: \`${clip(cb)}\` → \`${clip(ca)}\``);
      }
    }

    // Checking calls removed (fewer in the after-code than in the before-code).
    for (let i = 0; i < h.removed.length; i++) {
      const r = h.removed[i];
      for (const c of callNames(removedCode[i])) {
        const name = lastName(c);
        if (!isCheckCall(c) || name.length < 4) continue;
        if (occurrences(afterCode, name) >= occurrences(beforeCode, name)) continue;
        if (!secure(r.n, `${c} ${ctx}`)) continue;
        const rule = /verif|sign|digest|compare|equal|constant|timing|nonce|audience|issuer|expir/i
            .test(c)
          ? "crypto-verification-removed"
          : "auth-check-removed";
        add(rule, r.n, `call to ${name}() removed`);
      }
      // Credentials no longer stripped (a header constant as well as a string).
      if (
        /\b(pop\w*|del|delete|remove\w*|unset\w*|strip\w*)\b.*\b(authorization|proxy[-_]?authori[sz]ation|cookie)\b/i
          .test(removedCode[i]) && !addedText.match(/\b(authorization|cookie)\b/i)
      ) {
        add(
          "secure-default-weakened",
          r.n,
          `credential stripping removed: \`${clip(removedCode[i])}\``,
        );
      }
    }

    // Secure values weakened in place, or a check's name swapped for a weaker one.
    for (let i = 0; i < h.removed.length; i++) {
      const r = h.removed[i];
      const rc = removedCode[i];
      for (const ac of addedCode) {
        const swap = weakerName(rc, ac);
        const sameStart = /^\s*(\w+)/.exec(rc)?.[1] === /^\s*(\w+)/.exec(ac)?.[1];
        if (swap && (overlap(rc, ac) >= 0.4 || sameStart) && secure(r.n, ctx)) {
          add("auth-check-removed", r.n, `\`${swap[0]}\` → \`${swap[1]}\``);
        }
        if (!similar(rc, ac)) continue;
        const settingNamed = SECURE_SETTING.test(rc) || SECURE_SETTING.test(ctx);
        for (const [strong, weak] of STRONG_TO_WEAK) {
          if (!strong.test(rc) || !weak.test(ac) || strong.test(ac) || !settingNamed) continue;
          add("secure-default-weakened", r.n, `\`${clip(rc)}\` → \`${clip(ac)}\``);
        }
      }
    }

    // Permissive settings switched on, file modes opened to others, security headers no longer
    // set, a default-on option turned default-off, and failure conditions narrowed.
    for (let i = 0; i < h.removed.length; i++) {
      const r = h.removed[i];
      const rc = removedCode[i];
      for (const ac of addedCode) {
        if (!similar(rc, ac) && overlap(rc, ac) < 0.6) continue;
        if (
          PERMISSIVE.test(rc) && /\b(false|False|0)\b/.test(rc) && /\b(true|True|1)\b/.test(ac) &&
          !/\b(true|True)\b/.test(rc)
        ) add("secure-default-weakened", r.n, `\`${clip(rc)}\` → \`${clip(ac)}\``);
        if (/chmod|mkdir|open|write|mode|perm|umask|create/i.test(rc) && modeOpened(rc, ac)) {
          add(
            "secure-default-weakened",
            r.n,
            `file mode opened: \`${clip(rc)}\` → \`${clip(ac)}\``,
          );
        }
        if (
          DEFAULT_ON.test(rc) && !DEFAULT_ON.test(ac) && (pathSecure || SECURE_SETTING.test(rc))
        ) {
          add(
            "secure-default-weakened",
            r.n,
            `default on removed: \`${clip(rc)}\` → \`${clip(ac)}\``,
          );
        }
        // A security setting now falsy (`"verify_iss": False`, `TOKEN_TTL: None`), where it was not.
        const kb = SETTING_VALUE.exec(rc);
        const ka = SETTING_VALUE.exec(ac);
        if (
          kb && ka && kb[1].toLowerCase() === ka[1].toLowerCase() && FALSY.test(ka[2]) &&
          !FALSY.test(kb[2])
        ) add("secure-default-weakened", r.n, `\`${clip(rc)}\` → \`${clip(ac)}\``);
        // A verifying call given fewer arguments (`totp.verify(t, tol, last + 1)` → `(t, tol)`).
        for (const c of callNames(rc)) {
          if (!isCheckCall(c) || !callNames(ac).includes(c)) continue;
          if (argCount(ac, c) < argCount(rc, c) && secure(r.n, ctx)) {
            add("crypto-verification-removed", r.n, `${lastName(c)}() given fewer arguments`);
          }
        }
        const cb = condition(rc);
        const ca = condition(ac);
        if (
          cb && ca && headKind(rc) === headKind(ac) &&
          /^(if|elif|else if)$/.test(headKind(rc) ?? "")
        ) {
          const body = bl.slice(r.n, r.n + 3).map(code).join("\n");
          const fails = FAILURE.test(body);
          const passes = /\breturn\s+(True|true)\b|\bnext\(\)|\breturn\s*;?\s*$|\bpass\b/m.test(
            body,
          );
          const gained = (re: RegExp) =>
            (ca.match(re) ?? []).length > (cb.match(re) ?? []).length &&
            cb.split(re).every((p) => ca.includes(p.trim()));
          if (
            ((fails && gained(/&&|\band\b/g)) || (passes && gained(/\|\||\bor\b/g))) &&
            strong(r.n, h)
          ) {
            add("auth-check-removed", r.n, `condition narrowed: \`${clip(cb)}\` → \`${clip(ca)}\``);
          }
        }
      }
      if (SECURITY_HEADER.test(rc) && !SECURITY_HEADER.test(addedText)) {
        add("secure-default-weakened", r.n, `security header no longer set: \`${clip(rc)}\``);
      }
    }

    // Words that switch a protection off, new to the file (`loads_unsafe`, `csrf_exempt`,
    // `skipStateCheck`, `InsecureSkipVerify`, `_UNVERIFIED`).
    for (const a of h.added) {
      const m = WEAKENING.exec(code(a.text));
      if (!m) continue;
      const w = m[0].toLowerCase();
      const count = (t: string) => WEAKENING_G(t).filter((x) => x === w).length;
      if (count(afterCode) <= count(beforeCode)) continue;
      if (h.removed.length === 0 && !secure(a.n, ctx)) continue;
      if (secure(h.removed[0]?.n ?? 1, ctx) || SECURITY.test(m[0])) {
        add("auth-check-removed", h.removed[0]?.n ?? a.n, `\`${m[0]}\` introduced`);
      }
    }

    // Security options removed from a call or a configuration.
    for (let i = 0; i < h.removed.length; i++) {
      const r = h.removed[i];
      const rc = removedCode[i];
      const m = SECURITY_OPTION.exec(rc) ?? /\.not\(\s*['"]none['"]\s*\)/.exec(rc);
      if (!m || signatureChange) continue;
      const key = m[1] ?? "not('none')";
      const still = new RegExp(`(^|[^\\w$])['"]?${key.replace(/[()'.]/g, "\\$&")}['"]?\\s*[:=(]`);
      if (still.test(addedText)) continue;
      if (!secure(r.n, ctx) && !SECURE_SETTING.test(key) && !/\balg/i.test(ctx)) continue;
      add("secure-default-weakened", r.n, `setting \`${key}\` removed`);
    }
  }
  return [...found.values()];
}

/** A setting and its value: `"verify_iss": bool(x)`, `verify_iss=x`, `TOKEN_TTL: timedelta(…)`. */
const SETTING_VALUE =
  /['"]?((?:verify|check|validate|require|enforce)_?\w*|\w*(?:_ttl|ttl|expir\w*|max_?age|lifetime|timeout|secure|http_?only|same_?site|strict\w*))['"]?\s*[:=](?!=)\s*([^,}\n]+)/i;

/** Values that switch a setting off. */
const FALSY = /^\s*(False|false|None|null|nil|undefined|0|''|"")\s*[,;)]?\s*$/;

/** Top-level arguments of the first call to `name` in `line`. */
function argCount(line: string, name: string): number {
  const i = line.indexOf(`${name}(`);
  if (i < 0) return 0;
  let depth = 0;
  let n = 0;
  let any = false;
  for (let k = i + name.length; k < line.length; k++) {
    const ch = line[k];
    if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if (ch === ")" || ch === "]" || ch === "}") {
      if (--depth === 0) return any ? n + 1 : 0;
    } else if (ch === "," && depth === 1) n++;
    else if (depth === 1 && ch.trim() !== "") any = true;
  }
  return any ? n + 1 : 0;
}

/** Settings whose `true` turns a protection off. */
const PERMISSIVE =
  /supports_?credentials|allow_?credentials|allowCredentials|allow_?(unsecured|insecure|unsigned|any|all|none|http\b)|unsecured|insecure|unsafe|skip_?\w*(verif|check|valid|auth|csrf)|disable_?\w*(verif|check|valid|auth|csrf|ssl|tls)|trust_?all|accept_?any/i;

/** A condition or value that keeps an option on unless it is switched off explicitly. */
const DEFAULT_ON =
  /(===?\s*(undefined|null|None)|\bis\s+None)\s*(\|\||\bor\b)|\?\?\s*true\b|!==?\s*false\b|\.get\([^)]*,\s*True\)/;

/** Setting one of the headers that tell a browser to protect the page. */
const SECURITY_HEADER =
  /\b(set_?header|setHeader|header|headers?\[|\.set)\b.*\b(strict-transport-security|content-security-policy|x-frame-options|x-content-type-options|referrer-policy|permissions-policy|cross-origin-(opener|embedder|resource)-policy)\b|\b(xFrameOptions|strictTransportSecurity|contentSecurityPolicy|xContentTypeOptions|referrerPolicy|noSniff|frameguard|hsts)\(/i;

/** A file mode that others could not use before and can after (`0600` → `0644`). */
function modeOpened(rc: string, ac: string): boolean {
  const modes = (t: string) => [...t.matchAll(/\b0o?([0-7]{3})\b/g)].map((m) => m[1]);
  const b = modes(rc);
  const a = modes(ac);
  return b.length > 0 && a.length === b.length &&
    b.some((m, i) => m.slice(1) === "00" && a[i].slice(1) !== "00");
}

/** Words that switch a protection off. */
const WEAKENING =
  /\w*(unsafe|unverified|without_?verif\w*|insecure|exempt|skip_?\w*(check|verif|valid|auth|csrf)\w*|skip[A-Z]\w*(Check|Verif|Valid|Auth|Csrf)\w*|no_?verify|noverify|disable_?\w*(verif|check|csrf|auth)\w*|allow_?(all|any)_?\w*|trust_?all\w*|accept_?any\w*)\w*/i;

function WEAKENING_G(text: string): string[] {
  return (text.match(new RegExp(WEAKENING.source, "gi")) ?? []).map((w) => w.toLowerCase());
}

/** A change that flips a deny to an allow, or drops a verifying word from a name. */
function weakerName(rc: string, ac: string): [string, string] | null {
  const words = (t: string): string[] => t.match(/[A-Za-z_$][\w$]*/g) ?? [];
  const wb = words(rc);
  const wa = new Set(words(ac));
  const gone = wb.filter((w) => !wa.has(w));
  const fresh = [...wa].filter((w) => !wb.includes(w));
  for (const g of gone) {
    if (/den(y|ied)|reject|forbid|refuse|unauthori/i.test(g)) {
      const f = fresh.find((x) => /allow|accept|permit|grant|authori[sz]ed/i.test(x));
      if (f) return [g, f];
    }
    const m =
      /^(.*?)(Signed|Verified|Verify|Secure|Strict|Safe|Checked|Check|Validated|Validate|Trusted|SIGNED|VERIFIED|SECURE|STRICT|SAFE|CHECKED|VALIDATED|TRUSTED)(.*)$/
        .exec(g);
    if (m && fresh.includes(m[1] + m[3]) && m[1] + m[3] !== "") return [g, m[1] + m[3]];
  }
  return null;
}

function isCheckCall(call: string): boolean {
  return CHECK_CALL.test(call) || CHECK_CALL.test(lastName(call)) ||
    CHECK_CALL.test(bare(lastName(call)));
}

/** A name without leading underscores (`_should_handle` → `should_handle`). */
function bare(name: string): string {
  return name.replace(/^_+/, "");
}

function conjuncts(t: string): number {
  return (t.match(/&&|\band\b/g) ?? []).length;
}

function compares(t: string): number {
  return (t.match(/===?|!==?|<=|>=|(?<![-=<])<(?![<=])|(?<![-=>])>(?![>=])|\bis\b/g) ?? []).length;
}

/** What a line assigns to a check-named variable (`ok = a and b`), else null. */
function assigned(line: string): string | null {
  const m =
    /^\s*(?:const|let|var)?\s*[\w$.]*(verified|valid|allowed|authori[sz]ed|authenticated|permitted|trusted|ok|matches|same\w*|expired)\w*\s*=(?!=)\s*(.+?);?\s*$/i
      .exec(line);
  return m ? m[2] : null;
}

/** The kind of a header line: `if`, `elif`, `return`, `=` (a check assignment), … */
function headKind(line: string): string | undefined {
  if (assigned(line) !== null && condition(line) === null) return "=";
  return /^\s*(?:}\s*)?(else\s+if|\w+)/.exec(line)?.[1];
}

/** Two lines that start alike (the same statement, edited). */
function similarStart(x: string, y: string): boolean {
  const a = x.trim();
  const b = y.trim();
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i >= Math.min(8, Math.min(a.length, b.length));
}

function clip(s: string): string {
  const t = s.trim();
  return t.length > 80 ? `${t.slice(0, 77)}…` : t;
}

/** Share of the words of two lines they have in common (Jaccard). */
function overlap(x: string, y: string): number {
  const a = new Set(x.match(/[A-Za-z_$][\w$]*/g) ?? []);
  const b = new Set(y.match(/[A-Za-z_$][\w$]*/g) ?? []);
  const both = [...a].filter((w) => b.has(w)).length;
  return both / Math.max(1, new Set([...a, ...b]).size);
}

/** Two lines that differ only around one token (the same setting with another value). */
function similar(x: string, y: string): boolean {
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  let j = 0;
  while (j < x.length - i && j < y.length - i && x[x.length - 1 - j] === y[y.length - 1 - j]) j++;
  return i >= Math.min(x.length, y.length) * 0.4 && x.length - i - j <= 16 &&
    y.length - i - j <= 16;
}
