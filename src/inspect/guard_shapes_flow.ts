/**
 * Shape signals about what a check lets through afterwards: a requirement dropped from a
 * condition that grants, a comparison turned the other way, a session or credential no longer
 * invalidated, a query no longer filtering out revoked or expired records, a failure handled
 * but no longer returned from. Called by `guard_shapes.ts` for each hunk; pure.
 *
 * @module
 */
import { FAILURE, NOT_A_DENIAL } from "./guard_vocab.ts";
import { callNames, clip, condition, headKind, isCheckCall, similarStart } from "./guard_text.ts";
import { GRANTS, PROTECTING_FN, terms, widened, words } from "./guard_shape_vocab.ts";
import type { HunkView, Shape, ShapeContext } from "./guard_shapes.ts";

/** A requirement term about being allowed: `email['verified']`, `user.is_active`, `hasRole(r)`. */
const REQUIREMENT =
  /allow|verif|valid|active|confirm|approv|authori[sz]|authentic|trust|signed|secure|\bis_?[a-z]|\bhas_?[A-Za-z]|\bcan_?[A-Za-z]|check|perm|role|admin|owner|scope|csrf|expir|revok/i;

/** Comparison operators whose direction or strictness decides who passes. */
const ORDER = /<=|>=|(?<![-=<>])<(?![<=])|(?<![-=<>])>(?![>=])/g;

/** What an ordering in security code compares: times, counters, levels. */
const ORDERED =
  /weight|priority|grade|tier|score|role|expir|\bexp\b|\bnbf\b|\biat\b|now|time|date|ttl|\bage\b|count|attempt|level|mode|rank|access|limit|nonce|\bnc\w*|until|before|after|since|deadline|window/i;

/** A session, token or credential invalidated: deleted, destroyed, revoked, rotated. */
const INVALIDATES =
  /\b(Storage|storage|store|cache|redis|kv)\.(remove|delete|del|unset|expire)\w*\(|\bsession\w*\.(set|put)\([^,]+,\s*(undefined|null|None|nil)\s*\)|\b[\w.]*Header\.Del\(|\bheaders\.delete\(|\.removeHeader\(|\bdel\s+[\w.]*headers\[|\bdel(?:ete)?\s+[\w$.[\]'"]*(session|user|token|cookie|auth|credential|identity|principal)\w*|\b[\w$.]*(session|token|cookie|credential|auth)\w*\.(destroy|invalidate|revoke|clear|flush|regenerate|expire|cycle_?key|rotate)\w*\(|\b(logout|logOut|log_out|revoke\w*|invalidate\w*|clear_?session\w*|flush_?session\w*|regenerate\w*|rotate_?(session|token|key)\w*)\(/i;

/** A record filter that keeps out what may no longer be used. */
const EXCLUDES =
  /\b[\w$]*(revoked|revocation|expires?_?at|expir(y|ed|es|ation)|is_?active|active|disabled|suspended|banned|blocked|deleted_?at|is_?deleted|valid_?until|not_?before)[\w$]*/i;

/** Where a line builds a query or a filter. */
const QUERY =
  /filter|where|exclude|\$or\b|\$and\b|\$eq\b|\$gt\b|\$lt\b|__isnull|__gt|__lt|__lte|__gte|\.eq\(|\.is\(|\bWHERE\b|\bAND\b|_filter\b|Filter\b/;

/** A call that looks records up (a query, a find, a filter). */
const LOOKUP =
  /\b(filter|where|find\w*|get\w*|query|multi_query|lookup|fetch\w*|select|exists|count|first|one)\s*\(|\bobjects\.|\bwhere\s*:/i;

/** A lookup key that ties a record to a credential or an owner. */
const LOOKUP_KEY =
  /token|secret|key|password|hash|digest|signature|nonce|code|user(_?id)?|owner\w*|tenant\w*|team\w*|org\w*|account\w*|project\w*|workspace\w*|scope/i;

/** A setting or variable that holds a secret. */
const SECRET_NAME =
  /\b[\w$]*(secret|SECRET|Secret|signing_?key|SIGNING_?KEY|private_?key|PRIVATE_?KEY|api_?key|API_?KEY|password|PASSWORD)\w*/;

/** Where a secret should come from: generated at random, or the environment, or a key store. */
const SECRET_SOURCE =
  /token_(urlsafe|hex|bytes)|random\w*|urandom|secrets\.|crypto\.|uuid|process\.env|os\.environ|getenv|env\.|Deno\.env|config\.|settings\./i;

/** A permission or privilege verdict set (`accessResults = …`, `results.canAccessAdmin = false`). */
const ACCESS_SET =
  /^(?:(?:const|let|var)\s+)?([\w$.]*(?:access_?results?|accessResults?|can_?[A-Za-z]\w*|is_?(?:admin|staff|superuser|owner)|has_?[A-Za-z]*(?:access|permission|role)\w*|permitted|authori[sz]ed|allowed|granted))\s*(?::=|=(?!=))\s*(.+?);?$/;

/** An argument whose name says it protects (`SecureCookie`, `httpOnly`, `verifySsl`). */
const STRICT_ARG =
  /^(secure\w*|\w*Secure\w*|http_?only\w*|\w*HTTPOnly|\w*HttpOnly|verify\w*|\w*Verify\w*|strict\w*|\w*Strict\w*|require\w*|\w*Required|validate\w*)$/i;

/** What differs between two lines: each one's text between their common prefix and suffix. */
function middles(x: string, y: string): [string, string] {
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  // Back to the start of the token, so a literal or a call is seen whole.
  while (i > 0 && /[\w$.'"`]/.test(x[i - 1])) i--;
  let j = 0;
  while (j < x.length - i && j < y.length - i && x[x.length - 1 - j] === y[y.length - 1 - j]) j++;
  while (j > 0 && /[\w$'"`]/.test(x[x.length - j] ?? "")) j--;
  return [x.slice(i, x.length - j), y.slice(i, y.length - j)];
}

/** Two lines that start with the same name (the same setting or call, its value changed). */
function similarHead(x: string, y: string): boolean {
  const h = (t: string) => /^[^=(:]*[=(:]/.exec(t)?.[0] ?? t.slice(0, 12);
  return h(x) === h(y) || x.slice(0, 20) === y.slice(0, 20);
}

/** An alternative that lets an empty value through: `or not pin`, `|| !secret`, `!hash ||`. */
const EMPTY_PASSES =
  /(\|\||\bor\b)\s*(?:!|\bnot\s+)([\w$]+(?:\.[\w$]+)*)(?![\w$.([])|(?:^|[(\s=])(?:!|\bnot\s+)([\w$]+(?:\.[\w$]+)*)\s*(\|\||\bor\b)/;

/** The nearest less-indented line above before-line `n` (the header of its block). */
function enclosingHeader(ctx: ShapeContext, n: number): string {
  const lines = ctx.beforeLines ?? [];
  const own = lines[n - 1] ?? "";
  const at = own.length - own.trimStart().length;
  for (let i = n - 2; i >= 0 && i >= n - 30; i--) {
    const t = lines[i] ?? "";
    if (t.trim() === "") continue;
    if (t.length - t.trimStart().length < at) return t.trim();
  }
  return "";
}

/** A verdict that says something is wrong, set (`isInsecureConnection = …`, `expired = …`). */
const NEGATIVE_SET =
  /^(?:(?:const|let|var)\s+)?([\w$.]*(?:[Ii]nsecure|[Ee]xpired|[Rr]evoked|[Bb]locked|[Bb]anned|[Ll]ocked|[Dd]enied|[Ii]nvalid|[Ff]orbidden|[Ss]uspended|[Dd]isabled|[Tt]ampered)\w*)\s*(?::=|=(?!=))\s*(.+?);?$/;

/** Names of calls that decide whether a secret or a permission matches. */
const CHECKISH = /compare|check|verif|valid|match|equal|authori|permi|scope|role|required/i;

/** A comparison that takes the same time whatever the inputs. */
const CONSTANT_TIME =
  /\b(timingSafe\w*|timing_safe\w*|constant_?time\w*|ConstantTimeCompare|compare_digest|secure_?compare|safe_str_cmp|tsscmp|scmp|consteq|hmac\.Equal|subtle\.\w+)\s*\(/i;

/** The text of the call starting at `at` in `line`, up to its closing bracket. */
function callText(line: string, at: number): string {
  let depth = 0;
  for (let i = line.indexOf("(", at); i >= 0 && i < line.length; i++) {
    if (line[i] === "(") depth++;
    else if (line[i] === ")" && --depth === 0) return line.slice(at, i + 1);
  }
  return line.slice(at);
}

/** A name that holds a verdict (`matching`, `isValid`, `ok`, `verified`). */
const VERDICT_WORD =
  /\b[\w$]*(?:[Mm]atch(?:ing|es|ed)?|[Vv]alid|[Vv]erified|[Aa]uthori[sz]ed|[Aa]uthenticated|[Aa]llowed|[Pp]ermitted|[Gg]ranted|[Ss]uccess)\b/g;

/** A line with its regular-expression anchors taken away, or its anchoring match call made a
 * search (each a candidate of what the line became), spaces removed; empty when it has none. */
function anchorless(line: string): string[] {
  const squash = (t: string) => t.replace(/\s+/g, "");
  const strings = line.replace(/(['"`])\^(['"`])\s*\+\s*/g, "").replace(/\s*\+\s*(['"`])\$\1/g, "")
    .replace(/(['"`/])\^/g, "$1").replace(/\$(['"`])(?=\s*[,)])/g, "$1");
  const search = line.replace(/\bre\.(fullmatch|match)\(/g, "re.search(");
  return [strings, search].filter((t) => t !== line).map(squash);
}

/** A call that handles a failure: an error handler, a denial, an abort. */
const HANDLES_FAILURE =
  /^return\s+((?:await\s+)?[\w$.]*(?:_?on_?error|onError|error|Error|fail\w*|Fail\w*|deny\w*|Deny\w*|reject\w*|Reject\w*|abort\w*|Abort\w*|unauthori[sz]ed\w*|Unauthori[sz]ed\w*|forbid\w*|Forbid\w*)\s*\(.*\))\s*;?$/;

/** How many lines of `text` read `line` (trimmed). */
function lines(text: string, line: string): number {
  let n = 0;
  for (let i = text.indexOf(line); i >= 0; i = text.indexOf(line, i + 1)) {
    const s = text.lastIndexOf("\n", i - 1) + 1;
    const e = text.indexOf("\n", i);
    if (text.slice(s, e < 0 ? text.length : e).trim() === line) n++;
  }
  return n;
}

/**
 * The flow shapes of one hunk.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { flowShapes } from "./guard_shapes_flow.ts";
 * const line = (n: number, text: string) => ({ l: { n, text }, c: text.trim() });
 * const removed = [line(7, "if (nonceCount > stored.count) {")];
 * const added = [line(7, "if (nonceCount >= stored.count) {")];
 * const v = { h: { removed: [], added: [] }, removed, added, addedCodes: new Set([added[0].c]) };
 * const ctx = {
 *   beforeCode: "", afterCode: "", afterLines: [], secure: () => true, body: () => "",
 *   fn: () => "", block: () => ({ body: "return ok()", after: "" }),
 * };
 * assert.match(flowShapes(v, ctx)[0].what, /comparison changed/);
 * ```
 */
export function flowShapes({ removed, added, addedCodes }: HunkView, ctx: ShapeContext): Shape[] {
  const out: Shape[] = [];
  const push = (n: number, what: string) => out.push({ rule: "auth-check-removed", n, what });
  for (const { l, c } of removed) {
    if (c === "" || addedCodes.has(c)) continue;
    // A session, token or credential no longer invalidated (`delete req.session.user` at logout,
    // `session.regenerate()` at login): the old one stays usable.
    // (A statement: a value read out of the session on its way, `x = session.pop(k)`, is not.)
    const inv = INVALIDATES.test(c) && !/^[\w$.,\s]+(?<![=!<>])=(?!=)/.test(c);
    if (inv && lines(ctx.afterCode, c) < lines(ctx.beforeCode, c) && ctx.secure(l.n)) {
      push(l.n, `session or credential no longer invalidated: \`${clip(c)}\``);
    }
    // A query no longer keeps out revoked, expired or inactive records.
    const ex = EXCLUDES.exec(c)?.[0];
    if (
      ex && (QUERY.test(c) || QUERY.test(ctx.body(Math.max(1, l.n - 3)))) &&
      words(ctx.afterCode, ex) < words(ctx.beforeCode, ex) && ctx.secure(l.n)
    ) push(l.n, `no longer filtered on \`${ex}\`: \`${clip(c)}\``);
    // A failure handled but no longer returned from: execution goes on past it.
    const h = HANDLES_FAILURE.exec(c)?.[1];
    if (h && !NOT_A_DENIAL.test(c) && added.some((a) => a.c.replace(/;$/, "") === h)) {
      push(l.n, `no longer returns after \`${clip(h)}\`: execution goes on`);
    }
    // A lookup no longer matches on a credential or an owner (`{"token": t, "user_id": u}` →
    // `{"user_id": u}`): any record of the others is found.
    const keysOf = (t: string) =>
      new Set([...t.matchAll(/[{,]\s*['"]?([\w$]+)['"]?\s*:(?!:)/g)].map((m) => m[1]));
    const kb = keysOf(c);
    if (kb.size >= 2 && LOOKUP.test(c)) {
      for (const a of added) {
        const ka = keysOf(a.c);
        const gone = [...kb].filter((k) => !ka.has(k));
        if (
          ka.size > 0 && [...ka].every((k) => kb.has(k)) && gone.length > 0 &&
          gone.every((k) => LOOKUP_KEY.test(k)) && ctx.secure(l.n)
        ) push(l.n, `lookup no longer matches on \`${gone.join("`, `")}\`: \`${clip(a.c)}\``);
      }
    }
    // A secret that was generated or read from the environment now a constant in the code
    // (`default=token_urlsafe(64)` → `default='flower-cookie-secret'`, `|| env.DB_URL` → `|| 'x'`).
    if (SECRET_NAME.test(c) && SECRET_SOURCE.test(c)) {
      for (const a of added) {
        const [was, now] = middles(c, a.c);
        if (
          SECRET_SOURCE.test(was) && /^['"`][^'"`$]{3,}['"`]$/.test(now.trim()) &&
          similarHead(c, a.c)
        ) {
          out.push({
            rule: "secure-default-weakened",
            n: l.n,
            what: `secret made a constant: \`${clip(a.c)}\``,
          });
        }
      }
    }
    // A permission or privilege verdict hard-coded to yes, or no longer false by default
    // (`accessResults = … executeAccess(…) : true` → `= true`, `canAccessAdmin = false` → `= isLoggedIn`).
    const vb = ACCESS_SET.exec(c);
    if (vb) {
      for (const a of added) {
        const va = ACCESS_SET.exec(a.c);
        if (!va || va[1] !== vb[1] || va[2] === vb[2]) continue;
        const yes = /^(true|True)$/.test(va[2]) && !/^(true|True)$/.test(vb[2]);
        const unFalsed = /^(false|False)$/.test(vb[2]) &&
          !/^(false|False|None|null|nil)$/.test(va[2]);
        const privileged = /access|permi|admin|staff|superuser|owner|authori|granted/i.test(vb[1]);
        if ((yes || unFalsed) && (privileged || ctx.secure(l.n))) {
          push(l.n, `\`${vb[1]}\` no longer decided by a check: \`${clip(a.c)}\``);
        }
      }
    }
    // A protective argument passed as false instead (`mw.SecureCookie,` → `false,`).
    const arg = /^([\w$.]+),?$/.exec(c)?.[1];
    if (arg && STRICT_ARG.test(arg.split(".").pop()!)) {
      const a = added.find((x) => /^(false|False|0|nil|None|null|undefined),?$/.test(x.c));
      if (a) {
        out.push({
          rule: "secure-default-weakened",
          n: l.n,
          what: `\`${arg}\` passed as \`${a.c.replace(/,$/, "")}\``,
        });
      }
    }
    // A check that now also passes when a value is missing (`check_pin(pin) or not pin`,
    // `!hashed || compare(pw, hashed)`, `a == b` → `(!b || a == b)`): an empty one gets in.
    // Read one way only: in a branch that fails, or a setting that protects, the new
    // alternative makes it stricter (`if !valid || err != nil`, `secure: a || !dev`).
    const failing = /^(if|elif|else if)$/.test(headKind(c) ?? "") &&
      (FAILURE.test(ctx.block(l.n).body) || FAILURE.test(c.replace(/^[^:{]*[:{]/, "")));
    const protective = STRICT_ARG.test(/^[\w$.'"]*?([\w$]+)['"]?\s*[:=]/.exec(c)?.[1] ?? "");
    // (A line that continues a condition or an expression: which way it points is not known.)
    const headed = /^(if|elif|else if|return|=|while)$/.test(headKind(c) ?? "") ||
      /^[\w$.[\]'"]+\s*(:=|=(?!=)|:)/.test(c);
    for (const a of failing || protective || !headed ? [] : added) {
      const m = EMPTY_PASSES.exec(a.c);
      if (
        m && !EMPTY_PASSES.test(c) && similarStart(c, a.c.replace(EMPTY_PASSES, "")) &&
        (/[=!]=|\w\(|match|valid|verif|success|\bok\b|auth/i.test(c)) && ctx.secure(l.n)
      ) push(l.n, `now passes when \`${m[2] ?? m[3]}\` is empty: \`${clip(a.c)}\``);
    }
    // An error caught and now counted as success (`except X: pass` → `except X: return True`).
    const handler = enclosingHeader(ctx, l.n);
    if (/^(except\b|}?\s*catch\b)/.test(handler) && !/^return\s+(true|True)\b/.test(c)) {
      if (added.some((a) => /^return\s+(true|True)\s*;?$/.test(a.c)) && ctx.secure(l.n)) {
        push(l.n, `an error is now success: \`${clip(handler)}\` returns true`);
      }
    }
    // A negative verdict hard-coded to no (`isInsecureConnection = … !== 'https'` → `= false`).
    const nv = NEGATIVE_SET.exec(c);
    if (nv && !/^(false|False)$/.test(nv[2])) {
      const a = added.find((x) => NEGATIVE_SET.exec(x.c)?.[1] === nv[1]);
      if (a && /^(false|False)$/.test(NEGATIVE_SET.exec(a.c)![2]) && ctx.secure(l.n)) {
        push(l.n, `\`${nv[1]}\` now always false: \`${clip(a.c)}\``);
      }
    }
    // A check given an alternative (`compare(pw, hash)` → `compare(pw, hash) || pw === hash`).
    for (const call of callNames(c).filter((x) => isCheckCall(x) || CHECKISH.test(x))) {
      const at = c.indexOf(`${call}(`);
      if (at < 0 || /(!|\bnot\s+)[\w$.]*$/.test(c.slice(0, at))) continue;
      // The whole call, as written (`bcrypt.compare(command.password, user.password)`).
      const whole = callText(c, at);
      const a = added.find((x) =>
        x.c.includes(whole) &&
        (x.c.match(/\|\||\bor\b/g) ?? []).length > (c.match(/\|\||\bor\b/g) ?? []).length &&
        !new RegExp(`(!|\\bnot\\s+)[\\w$.]*${whole.slice(0, 1).replace(/[.$]/g, "\\$&")}`).test(
          x.c.slice(0, x.c.indexOf(whole) + 1),
        )
      );
      if (!a) continue;
      const head = /^(if|elif|else if)$/.test(headKind(c) ?? "");
      if (head && FAILURE.test(ctx.block(l.n).body)) continue;
      if (ctx.secure(l.n)) push(l.n, `\`${call}()\` given an alternative: \`${clip(a.c)}\``);
      break;
    }
    // A constant-time comparison replaced by a plain or a substring one.
    const ct = CONSTANT_TIME.exec(c)?.[0];
    if (ct) {
      const a = added.find((x) =>
        !CONSTANT_TIME.test(x.c) &&
        /[=!]==?|\.includes\(|\.indexOf\(|\.startsWith\(|\bin\b/.test(x.c)
      );
      if (a && ctx.secure(l.n)) push(l.n, `\`${ct}\` replaced by \`${clip(a.c)}\``);
    }
    // Permissions unioned where they were intersected (`app & user` → `app | user`).
    for (const a of added) {
      if (
        /[^&]&[^&=]/.test(c) && c.replace(/([^&|])&([^&=])/g, "$1|$2") === a.c &&
        /perm|scope|role|grant|right|access/i.test(c)
      ) push(l.n, `intersection made a union: \`${clip(a.c)}\``);
    }
    // A verdict handed on given an alternative (`callback(matching)` → `callback(matching || …)`).
    for (const v of c.match(VERDICT_WORD) ?? []) {
      const re = new RegExp(
        `(^|[^\\w$.])${v.replace(/[$]/g, "\\$&")}\\s*(\\|\\||\\bor\\b)\\s*(?!!|not\\b)`,
      );
      const a = added.find((x) => re.test(x.c) && !re.test(c) && similarStart(c, x.c));
      const head = /^(if|elif|else if)$/.test(headKind(c) ?? "");
      if (a && !(head && FAILURE.test(ctx.block(l.n).body)) && ctx.secure(l.n)) {
        push(l.n, `\`${v}\` given an alternative: \`${clip(a.c)}\``);
        break;
      }
    }
    // A query no longer scoped to an owner (`.filter(owner=user)` dropped from the chain).
    for (const m of c.matchAll(/\.(filter|filter_by|where|filterBy)\(([^()]*)\)/g)) {
      const rest = (c.slice(0, m.index) + c.slice(m.index! + m[0].length)).replace(/\s+/g, "");
      if (
        LOOKUP_KEY.test(m[2]) && added.some((a) => a.c.replace(/\s+/g, "") === rest) &&
        ctx.secure(l.n)
      ) push(l.n, `query no longer scoped: \`${clip(m[0])}\` dropped`);
    }
    // A check called with one of its requirements switched off (`all_required=x` → `=False`).
    for (
      const m of c.matchAll(
        /\b([\w$]*(?:required|strict|verify|check|validate|enforce|secure)[\w$]*)\s*[=:]\s*([^,)=][^,)]*)/gi,
      )
    ) {
      if (/^\s*(False|false|None|null|nil|0|undefined)\b/.test(m[2])) continue;
      const off = new RegExp(`\\b${m[1]}\\s*[=:]\\s*(False|false|None|null|nil|0|undefined)\\b`);
      const a = added.find((x) => off.test(x.c) && similarStart(c, x.c));
      if (a && callNames(c).some((x) => isCheckCall(x) || CHECKISH.test(x)) && ctx.secure(l.n)) {
        push(l.n, `check called with \`${m[1]}\` switched off: \`${clip(a.c)}\``);
      }
    }
    // A regular expression no longer anchored (`"^" + p + "$"` → `p`, `re.match` → `re.search`).
    const unanchored = anchorless(c);
    if (unanchored.length > 0 && ctx.secure(l.n)) {
      const a = added.find((x) => unanchored.includes(x.c.replace(/\s+/g, "")));
      if (a) push(l.n, `pattern no longer anchored: \`${clip(a.c)}\``);
    }
    const cb = condition(c);
    if (!cb) continue;
    for (const a of added) {
      const ca = condition(a.c);
      if (!ca || headKind(a.c) !== headKind(c)) continue;
      // A comparison turned round or made (non-)strict (`now < expires` → `now > expires`,
      // `nc > last` → `nc >= last`): who passes changes, in a check about time or counts.
      const ob = cb.match(ORDER) ?? [];
      const oa = ca.match(ORDER) ?? [];
      if (
        ob.length > 0 && ob.length === oa.length && ob.join() !== oa.join() &&
        cb.replace(ORDER, "<").replace(/\s+/g, "") === ca.replace(ORDER, "<").replace(/\s+/g, "") &&
        ORDERED.test(cb) && ctx.secure(l.n)
      ) {
        const k = ob.findIndex((x, i) => x !== oa[i]);
        // Made strict or non-strict: more pass when the branch grants and the test now holds
        // more often (`>` → `>=`), or when it fails and the test holds less often.
        const wider = (ob[k] === ">" && oa[k] === ">=") || (ob[k] === "<" && oa[k] === "<=");
        const narrower = (ob[k] === ">=" && oa[k] === ">") || (ob[k] === "<=" && oa[k] === "<");
        const { body } = ctx.block(l.n);
        const fails = FAILURE.test(body) || FAILURE.test(c.slice(c.indexOf(cb) + cb.length));
        const grants = !fails && (GRANTS.test(body) || headKind(c) === "return");
        if ((wider && fails) || (narrower && grants)) continue;
        push(l.n, `comparison changed: \`${ob[k]}\` → \`${oa[k]}\` in \`${clip(ca)}\``);
      }
      // A check now run only sometimes: a condition whose branch runs a check given one more
      // requirement (`if ssl_verify:` → `if ssl_verify and certificate_file:`).
      if (/^(if|elif|else if)$/.test(headKind(c) ?? "") && widened(cb, ca, "and")) {
        const { body } = ctx.block(l.n);
        const runsCheck = callNames(body).some((x) =>
          isCheckCall(x) || /csrf|xsrf|verif|validat|permission|authori|authenticat/i.test(x)
        ) ||
          /\b(verify|validate|check|enforce|require)\w*\s*[:=(]/i.test(body);
        const extra = terms(ca, "and").filter((t) =>
          !terms(cb, "and").includes(t)
        );
        // (A new term that is itself a check, or its failure, makes a failure branch of it.)
        const plain = extra.every((t) => !/^(!|not)/.test(t) && !callNames(t).some(isCheckCall));
        if (runsCheck && plain && !FAILURE.test(body) && ctx.secure(l.n)) {
          push(l.n, `check now runs only when \`${clip(extra.join(" and "))}\``);
        }
      }
      // A failing branch that tests the container for the thing (`!session.user` → `!session`):
      // a session without a user passes.
      if (/^(if|elif|else if)$/.test(headKind(c) ?? "")) {
        const member = /(?:^|[\s(&|])(?:!|not\s+)([\w$]+(?:\.[\w$]+)*)\.([\w$]+)\b(?!\s*\()/.exec(
          cb,
        );
        if (member) {
          const { body } = ctx.block(l.n);
          const inline = c.slice(c.indexOf(cb) + cb.length);
          const whole = `${member[1]}.${member[2]}`;
          const parent = new RegExp(`(!|not\\s+)${member[1].replace(/[.$]/g, "\\$&")}(?![\\w$.])`);
          if (
            !ca.includes(whole) && parent.test(ca) &&
            (FAILURE.test(body) || FAILURE.test(inline)) && ctx.secure(l.n)
          ) push(l.n, `now tests \`${member[1]}\` instead of \`${whole}\``);
        }
      }
      // A comparison reduced to one of its sides (`user == owner.name` → `user`), or an explicit
      // yes to any truthy value (`res === true` → `res`): more values pass.
      const cmp = /^([\w$.[\]'"()]+)\s*(===?|is)\s*([\w$.[\]'"()]+)$/.exec(cb.trim());
      if (cmp && /^(if|elif|else if)$/.test(headKind(c) ?? "")) {
        const bareA = ca.trim();
        const { body } = ctx.block(l.n);
        const fails = FAILURE.test(body) || FAILURE.test(c.slice(c.indexOf(cb) + cb.length));
        if (
          !fails && (bareA === cmp[1] || bareA === cmp[3]) &&
          (/^(true|True)$/.test(cmp[3]) || ctx.secure(l.n))
        ) {
          push(l.n, `comparison reduced to a truth test: \`${clip(cb)}\` → \`${clip(ca)}\``);
        }
      }
      // A lookup replaced by a truth test of what was looked up (`has(sessions, token)` → `token`).
      const look =
        /^(?:[\w$.]*\.)?(hasOwnProperty\.call|has|includes|contains|exists|in_?\w*|get)\((.*)\)$/
          .exec(cb.trim());
      if (look && /^(if|elif|else if)$/.test(headKind(c) ?? "")) {
        const args = look[2].split(",").map((x) => x.trim());
        if (args.includes(ca.trim()) && ctx.secure(l.n)) {
          push(l.n, `lookup replaced by a truth test: \`${clip(cb)}\` → \`${clip(ca)}\``);
        }
      }
      // An allow-list test turned into a deny-list test (`m == IsMember` → `m != NotMember`): what
      // is neither now passes.
      const eq = /^(.+?)\s*===?\s*([\w$.]+)$/.exec(cb.trim().replace(/,\s*nil$/, ""));
      const ne = /^(.+?)\s*!==?\s*([\w$.]+)$/.exec(ca.trim().replace(/,\s*nil$/, ""));
      if (
        eq && ne && eq[1] === ne[1] && eq[2] !== ne[2] && !/^\d/.test(eq[2] + ne[2]) &&
        ctx.secure(l.n)
      ) {
        push(l.n, `only \`${ne[2]}\` is refused now, where only \`${eq[2]}\` passed`);
      }
      // A failure that needed any bad item now needs them all (`.some(` → `.every(`).
      if (
        /\.some\(/.test(cb) && cb.replace(/\.some\(/, ".every(").replace(/\s+/g, "") ===
          ca.replace(/\s+/g, "")
      ) {
        const { body } = ctx.block(l.n);
        if ((FAILURE.test(body) || /\b(throw|raise)\b/.test(c)) && ctx.secure(l.n)) {
          push(l.n, `failure now needs every item to fail: \`${clip(ca)}\``);
        }
      }
      // A requirement dropped from a condition that grants or selects (`if verified and
      // allowed(e)` → `if allowed(e)`, `return a and b` → `return a`): more pass.
      const tb = terms(cb, "and");
      const ta = terms(ca, "and");
      const dropped = tb.filter((t) => !ta.includes(t));
      if (
        tb.length >= 2 && ta.length >= 1 && ta.every((t) => tb.includes(t)) &&
        dropped.length > 0 &&
        dropped.every((t) => REQUIREMENT.test(t) || /[=!]==?|[<>]/.test(t))
      ) {
        const { body } = ctx.block(l.n);
        const inline = c.slice(c.indexOf(cb) + cb.length);
        // A branch that fails, or runs a check, is stricter when it is entered more often.
        const fails = FAILURE.test(body) || FAILURE.test(inline) ||
          callNames(body).some((x) => isCheckCall(x));
        const isReturn = headKind(c) === "return";
        if (!fails && !(isReturn && PROTECTING_FN.test(ctx.fn(l.n))) && ctx.secure(l.n)) {
          push(l.n, `requirement dropped: \`${clip(dropped.join(" and "))}\` from \`${clip(cb)}\``);
        }
      }
    }
  }
  return out;
}
