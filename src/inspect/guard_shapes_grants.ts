/**
 * Shape signals about what a value or a lookup lets through: a lookup no longer matching on a
 * credential or scoped to its owner, a generated secret made a constant, an access verdict
 * hard-coded, a negative verdict hard-coded to no, a protective argument passed as `false`, a
 * constant-time comparison replaced, permissions unioned, a check called with a requirement
 * switched off, a pattern no longer anchored. Called by `guard_shapes_flow.ts` for each removed
 * line; pure.
 *
 * @module
 */
import {
  args,
  callNames,
  clip,
  isCheckCall,
  type Line,
  overlap,
  REQUESTER,
  similarStart,
} from "./guard_text.ts";
import { CHECKISH, durationSeconds, STRICT_ARG, TOLERANCE_NAME } from "./guard_shape_vocab.ts";
import type { Shape, ShapeContext } from "./guard_shapes.ts";

/** A call that looks records up (a query, a find, a filter). */
const LOOKUP =
  /\b(filter|where|find\w*|get\w*|query|multi_query|lookup|fetch\w*|select|exists|count|first|one)\s*\(|\bobjects\.|\bwhere\s*:/i;

/** A lookup key that ties a record to a credential or an owner. */
const LOOKUP_KEY =
  /token|secret|key|password|hash|digest|signature|nonce|code|otp|passcode|pin\b|verif\w*|user(_?id)?|owner\w*|tenant\w*|team\w*|org\w*|account\w*|project\w*|workspace\w*|scope|expir\w*|revoked|used\b|active/i;

/** A lookup key that is itself a credential (a token, a share link's id, a key). */
const CREDENTIAL_KEY = /token|uuid|secret|key|share|code|hash|digest|nonce/i;

/** Where a query's conditions start (`where: {`, `.filter(`, `findFirst({`). */
const QUERY_OPEN =
  /\bwhere\s*:|\.where\(|\bfilter\(|\bfind(First|Unique|Many|One)?\(|\bfilter_by\(|\$or\b|\bOR\s*:|\.(delete|remove|update|count|exists)\w*\(\s*\{/;

/** A setting or variable that holds a secret. */
const SECRET_NAME =
  /\b[\w$]*(secret|SECRET|Secret|signing_?key|SIGNING_?KEY|private_?key|PRIVATE_?KEY|api_?key|API_?KEY|password|PASSWORD)\w*/;

/** Where a secret should come from: generated at random, or the environment, or a key store. */
const SECRET_SOURCE =
  /token_(urlsafe|hex|bytes)|random\w*|urandom|secrets\.|crypto\.|uuid|process\.env|os\.environ|getenv|env\.|Deno\.env|config\.|settings\./i;

/** A permission or privilege verdict set (`accessResults = …`, `results.canAccessAdmin = false`). */
const ACCESS_SET =
  /^(?:(?:const|let|var)\s+)?([\w$.]*(?:access_?results?|accessResults?|can_?[A-Za-z]\w*|is_?(?:admin|staff|superuser|owner)|has_?[A-Za-z]*(?:access|permission|role)\w*|permitted|authori[sz]ed|allowed|granted))\s*(?::=|=(?!=))\s*(.+?);?$/;

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

/** An exact comparison: `==`, an equality or constant-time call. */
const EXACT =
  /[=!]==?|\s=\s*(\?|\$\d|%s)['"`]|\b[\w$.]*(Equal|equal|equals|Equals|compare_digest|timingSafeEqual|ConstantTimeCompare)\(/;

/** What a secret compared is called. */
const SECRET_OPERAND =
  /\b[\w$.]*(signature|sig|hash|digest|mac|tag|token|password|passwd|secret|otp|nonce|state|hmac|checksum)\w*\b|\b[\w$.]*(?<![a-z])(api_?|access_?|secret_?|real_?|stored_?|expected_?|valid_?)?key\b/i;

/** A comparison of part of a value: membership, a prefix, a substring, a slice. */
const PARTIAL =
  /\s(in|not\s+in)\s|\.(includes|startsWith|endsWith|indexOf|contains|startswith|endswith|find)\(|\bstrings\.(HasPrefix|HasSuffix|Contains)\(|\bbytes\.(HasPrefix|Contains)\(|\[\s*\d*\s*:\s*\d+\s*\]|\.slice\(\s*0\s*,|\.substr(ing)?\(|\bI?LIKE\b/;

/** A key of an account's state that keeps it out when unset (`is_active`, `emailVerified`). */
const ACCOUNT_STATE = /^(is_?)?(active|enabled|verified|email_?verified|confirmed|approved)$/i;

/** A query call left open at the end of a line, its conditions on the lines below. */
const QUERY_CALL_OPEN =
  /(\bobjects\.\w+|\.(filter|filter_by|exclude|where|find\w*|get_or_404|get_object_or_404))\(\s*\{?\s*$/m;

/** Whether every bracket a line opens it closes. */
function balanced(t: string): boolean {
  let depth = 0;
  for (const ch of t) {
    depth += "{([".includes(ch) ? 1 : ")]}".includes(ch) ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/** Two lines that start with the same name (the same setting or call, its value changed). */
function similarHead(x: string, y: string): boolean {
  const h = (t: string) => /^[^=(:]*[=(:]/.exec(t)?.[0] ?? t.slice(0, 12);
  return h(x) === h(y) || x.slice(0, 20) === y.slice(0, 20);
}

/** A verdict that says something is wrong, set (`isInsecureConnection = …`, `expired = …`). */
const NEGATIVE_SET =
  /^(?:(?:const|let|var)\s+)?([\w$.]*(?:[Ii]nsecure|[Ee]xpired|[Rr]evoked|[Bb]locked|[Bb]anned|[Ll]ocked|[Dd]enied|[Ii]nvalid|[Ff]orbidden|[Ss]uspended|[Dd]isabled|[Tt]ampered)\w*)\s*(?::=|=(?!=))\s*(.+?);?$/;

/** A comparison that takes the same time whatever the inputs. */
const CONSTANT_TIME =
  /\b(timingSafe\w*|timing_safe\w*|constant_?time\w*|ConstantTimeCompare|compare_digest|secure_?compare|safe_str_cmp|tsscmp|scmp|consteq|hmac\.Equal|subtle\.\w+)\s*\(/i;

/** A line with its regular-expression anchors taken away, or its anchoring match call made a
 * search (each a candidate of what the line became), spaces removed; empty when it has none. */
function anchorless(line: string): string[] {
  const squash = (t: string) => t.replace(/\s+/g, "");
  const strings = line.replace(/(['"`])\^(['"`])\s*\+\s*/g, "").replace(/\s*\+\s*(['"`])\$\1/g, "")
    .replace(/(['"`/])\^/g, "$1").replace(/\$(['"`])(?=\s*[,)])/g, "$1");
  const search = line.replace(/\bre\.(fullmatch|match)\(/g, "re.search(");
  return [strings, search].filter((t) => t !== line).map(squash);
}

/** The added lines' code joined, once per hunk (the shapes are asked once per removed line). */
const joined = new WeakMap<object, string>();

/** A regular expression matching `t` literally (spaces free). */
function esc(t: string): string {
  return t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s*");
}

/**
 * The value and lookup shapes of one removed line `c` (before-line `l`) against the hunk's added
 * lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grantShapes } from "./guard_shapes_grants.ts";
 * const added = [{ l: { n: 2, text: "    return Bookmark.objects.all()" }, c: "return Bookmark.objects.all()" }];
 * const ctx = {
 *   beforeCode: "", afterCode: "", afterLines: [], secure: () => true, body: () => "",
 *   fn: () => "", block: () => ({ body: "", after: "" }),
 * };
 * const c = "return Bookmark.objects.all().filter(owner=user)";
 * assert.match(grantShapes({ n: 2, text: c }, c, added, ctx)[0].what, /query no longer scoped/);
 * ```
 */
export function grantShapes(
  l: Line,
  c: string,
  added: { l: Line; c: string }[],
  ctx: ShapeContext,
): Shape[] {
  const out: Shape[] = [];
  const push = (n: number, what: string) => out.push({ rule: "auth-check-removed", n, what });
  let addedText = joined.get(added);
  if (addedText === undefined) joined.set(added, addedText = added.map((a) => a.c).join("\n"));
  // A lookup no longer matches on a credential or an owner (`{"token": t, "user_id": u}` →
  // `{"user_id": u}`): any record of the others is found.
  const keysOf = (t: string) =>
    new Set([
      ...[...t.matchAll(/[{,]\s*['"]?([\w$]+)['"]?\s*:(?!:)/g)].map((m) => m[1]),
      // Shorthand properties of an object (`{ _id, isActive: true }`).
      ...[...t.matchAll(/[{,]\s*([A-Za-z_$][\w$]*)\s*(?=[,}])/g)].map((m) => m[1]),
      // Python keyword arguments of a lookup call (`filter(recipe=r, uuid=u)`).
      ...[...t.matchAll(/[(,]\s*([A-Za-z_]\w*)\s*=(?!=)/g)].map((m) => m[1]),
    ]);
  const kb = keysOf(c);
  // (A lookup's conditions may sit on the lines under the query call that opens them.)
  const opened = () =>
    QUERY_CALL_OPEN.test((ctx.beforeLines ?? []).slice(Math.max(0, l.n - 3), l.n - 1).join("\n"));
  if (kb.size >= 2 && (LOOKUP.test(c) || opened())) {
    for (const a of added) {
      const ka = keysOf(a.c);
      const gone = [...kb].filter((k) => !ka.has(k));
      // A key that ties the record to a credential or an owner went, or one went while a
      // credential key stays (the token no longer bound to its object).
      const loose = gone.length > 0 &&
        (gone.every((k) => LOOKUP_KEY.test(k)) || [...ka].some((k) => CREDENTIAL_KEY.test(k)));
      // (An account's state, `isActive: true`, dropped from a lookup of users speaks for itself.)
      const accountState = gone.some((k) => ACCOUNT_STATE.test(k)) &&
        /user|account|member/i.test(c);
      if (
        ka.size > 0 && [...ka].every((k) => kb.has(k)) && loose &&
        (ctx.secure(l.n) || accountState)
      ) {
        push(l.n, `lookup no longer matches on \`${gone.join("`, `")}\`: \`${clip(a.c)}\``);
      }
    }
  }
  // A query no longer narrowed to usable records (`.objects.active()` → `.objects.all()`).
  const narrowed =
    /\.(active|valid|enabled|usable|unexpired|not_?expired|unrevoked|live|current)\(\)/.exec(c);
  if (
    narrowed &&
    added.some((a) =>
      a.c.replace(/\s+/g, "") === c.replace(narrowed[0], ".all()").replace(/\s+/g, "")
    )
  ) {
    push(l.n, `query no longer limited by \`${narrowed[0]}\``);
  }
  // A condition of a query dropped (`identifier: email,`, `userId,`, `$or: [{ userId: me }],`,
  // `...ownedBy(user),` in a `where`).
  const cond = /^['"]?([\w$]+)['"]?\s*(?::\s*[^,{]+)?,$/.exec(c) ??
    (balanced(c) ? /^(?:['"]?([\w$]+)['"]?\s*:\s*.+|\.\.\.([\w$.]+)\(.*\)),$/.exec(c) : null);
  if (
    cond &&
    QUERY_OPEN.test(
      ctx.body(Math.max(1, l.n - 4)).split("\n").slice(0, 4).join("\n") + "\n" +
        (ctx.beforeLines ?? []).slice(Math.max(0, l.n - 5), l.n - 1).join("\n"),
    )
  ) {
    const k = cond[1] ?? cond[2];
    const named = new RegExp(`(^|[^\\w$])${k.replace(/\$/g, "\\$")}([^\\w$]|$)`);
    if (!added.some((a) => named.test(a.c)) && (ctx.secure(l.n) || REQUESTER.test(c))) {
      push(l.n, `query condition \`${k}\` dropped`);
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
  // A negative verdict hard-coded to no (`isInsecureConnection = … !== 'https'` → `= false`).
  const nv = NEGATIVE_SET.exec(c);
  if (nv && !/^(false|False)$/.test(nv[2])) {
    const a = added.find((x) => NEGATIVE_SET.exec(x.c)?.[1] === nv[1]);
    if (a && /^(false|False)$/.test(NEGATIVE_SET.exec(a.c)![2]) && ctx.secure(l.n)) {
      push(l.n, `\`${nv[1]}\` now always false: \`${clip(a.c)}\``);
    }
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
  // An exact comparison of a secret made partial (`sig == expected` → `sig in expected`,
  // `Equal(a[:], b[:])` → `Equal(a[:16], b[:16])`): a part of it, or an empty one, passes.
  if (EXACT.test(c) && SECRET_OPERAND.test(c) && !PARTIAL.test(c)) {
    // (The added line most like it is the one that took its place.)
    let a: { c: string } | undefined;
    let best = 0.5;
    for (const x of added) {
      const o = overlap(c, x.c);
      if (o >= best) (a = x, best = o);
    }
    if (a && PARTIAL.test(a.c) && SECRET_OPERAND.test(a.c) && ctx.secure(l.n)) {
      push(l.n, `exact comparison made partial: \`${clip(a.c)}\``);
    }
  }
  // A comparison call replaced by `==` on the same operands (`compare(a, sign(d))` → `a == sign(d)`).
  const cmpCall = /\b([\w$.]*(?:[Cc]ompare|[Ee]qual|Equals|_eq|Eq)\w*)\(/.exec(c);
  if (cmpCall && !CONSTANT_TIME.test(c)) {
    const whole = args(c, cmpCall[1]);
    if (whole.length === 2) {
      const plain = new RegExp(
        `${esc(whole[0])}\\s*={2,3}\\s*${esc(whole[1])}|${esc(whole[1])}\\s*={2,3}\\s*${
          esc(whole[0])
        }`,
      );
      // (The call gone from the line: one kept beside a new `==` is an alternative, read elsewhere.)
      const a = added.find((x) => plain.test(x.c) && !x.c.includes(`${cmpCall[1]}(`));
      if (a && ctx.secure(l.n)) {
        push(l.n, `\`${cmpCall[1]}()\` replaced by \`==\`: \`${clip(a.c)}\``);
      }
    }
  }
  // A check made optional by an argument (`verify()` → `verify(optional=True)`).
  for (const a of /[=:]\s*(True|true|False|false)\b/.test(addedText) ? added : []) {
    const extra =
      /\b(optional|allow_?\w+|skip_?\w+|insecure|unsafe|lenient)\s*[=:]\s*(True|true)\b|\b(required|strict|verify|check|enforce)\s*[=:]\s*(False|false)\b/
        .exec(a.c);
    if (
      extra && !extra[0].split(/[=:]/)[0].trim().split(/\s/).some((w) => c.includes(w)) &&
      callNames(c).some((x) => isCheckCall(x) || CHECKISH.test(x)) &&
      similarStart(c, a.c) && ctx.secure(l.n)
    ) push(l.n, `check given \`${extra[0].replace(/\s+/g, "")}\`: \`${clip(a.c)}\``);
  }
  // The permission asked for lowered (`check_access(user, 'change')` → `'read'`).
  const act =
    /(['"])(admin|delete|change|write|edit|update|create|manage|modify|add|destroy|remove)\1/i.exec(
      c,
    );
  if (
    act &&
    callNames(c).some((x) => isCheckCall(x) || CHECKISH.test(x) || /access|perm|can/i.test(x))
  ) {
    const a = added.find((x) =>
      /(['"])(read|view|list|get|see|retrieve|show)\1/i.test(x.c) &&
      x.c.replace(/(['"])\w+\1/g, "''") === c.replace(/(['"])\w+\1/g, "''")
    );
    if (a && ctx.secure(l.n)) {
      push(
        l.n,
        `permission asked for lowered: \`${act[2]}\` → \`${
          /(['"])(\w+)\1/.exec(a.c.slice(c.indexOf(act[0])))?.[2] ?? "read"
        }\``,
      );
    }
  }
  // A lifetime or a tolerance raised tenfold by its unit (`minutes=15` → `days=15`).
  const secsB = /second|minute|hour|day|week/i.test(c) ? durationSeconds(c) ?? 0 : 0;
  if (
    secsB > 0 &&
    /ttl|expir|max_?age|lifetime|lifespan|timeout|valid|duration|leeway|skew|tolerance|grace|window/i
      .test(c)
  ) {
    const a = added.find((x) => (durationSeconds(x.c) ?? 0) >= secsB * 10 && similarStart(c, x.c));
    if (a && (ctx.secure(l.n) || TOLERANCE_NAME.test(c) || /expir|ttl|max_?age/i.test(c))) {
      out.push({
        rule: "secure-default-weakened",
        n: l.n,
        what: `lifetime raised: \`${clip(a.c)}\``,
      });
    }
  }
  // Permissions unioned where they were intersected (`app & user` → `app | user`).
  for (const a of /[^&]&[^&=]/.test(c) ? added : []) {
    if (
      c.replace(/([^&|])&([^&=])/g, "$1|$2") === a.c &&
      (/perm|scope|role|grant|right|access/i.test(c) ||
        /[\w$](OK|Ok|_ok|Valid|_valid|Match|_match)\s*[&|]/.test(c))
    ) push(l.n, `intersection made a union: \`${clip(a.c)}\``);
  }
  // A query no longer scoped to an owner (`.filter(owner=user)` dropped from the chain).
  // (An argument may call once: `.andWhere('reset_expire', '>', new Date())`.)
  const scoping =
    /\.(filter|filter_by|where|filterBy|andWhere|and_where|whereNot)\(([^()]*(?:\([^()]*\)[^()]*)?)\)/g;
  // (A chain only laid out anew, the call on a line of its own, keeps it.)
  const addedFlat = added.map((a) => a.c).join("").replace(/\s+/g, "");
  for (const m of c.matchAll(scoping)) {
    const rest = (c.slice(0, m.index) + c.slice(m.index! + m[0].length)).replace(/\s+/g, "");
    if (
      LOOKUP_KEY.test(m[2]) && added.some((a) => a.c.replace(/\s+/g, "") === rest) &&
      !addedFlat.includes(m[0].replace(/\s+/g, "")) && ctx.secure(l.n)
    ) push(l.n, `query no longer scoped: \`${clip(m[0])}\` dropped`);
  }
  // A check called with one of its requirements switched off (`all_required=x` → `=False`).
  const switches = /required|strict|verify|check|validate|enforce|secure/i.test(c) &&
      /(False|false|None|null|nil|0|undefined)\b/.test(addedText)
    ? c.matchAll(
      /\b([\w$]*(?:required|strict|verify|check|validate|enforce|secure)[\w$]*)\s*[=:]\s*([^,)=][^,)]*)/gi,
    )
    : [];
  for (const m of switches) {
    if (/^\s*(False|false|None|null|nil|0|undefined)\b/.test(m[2])) continue;
    const off = new RegExp(`\\b${m[1]}\\s*[=:]\\s*(False|false|None|null|nil|0|undefined)\\b`);
    const a = added.find((x) => off.test(x.c) && similarStart(c, x.c));
    if (a && callNames(c).some((x) => isCheckCall(x) || CHECKISH.test(x)) && ctx.secure(l.n)) {
      push(l.n, `check called with \`${m[1]}\` switched off: \`${clip(a.c)}\``);
    }
  }
  // A regular expression no longer anchored (`"^" + p + "$"` → `p`, `re.match` → `re.search`).
  const unanchored = /[\^$]|\bre\.(fullmatch|match)\(/.test(c) ? anchorless(c) : [];
  if (unanchored.length > 0 && ctx.secure(l.n)) {
    const a = added.find((x) => unanchored.includes(x.c.replace(/\s+/g, "")));
    if (a) push(l.n, `pattern no longer anchored: \`${clip(a.c)}\``);
  }
  return out;
}
