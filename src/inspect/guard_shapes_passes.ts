/**
 * Shape signals about what now passes where it did not: an error path that hands the request on,
 * a failed check given a fallback value, a switch that enforced always now on only sometimes, a
 * token check given hours of grace, an unsafe HTTP method taken out of what CSRF protects (or put
 * into what it exempts), a privilege read from mere presence, a restricting option no longer
 * read. Called by `guard_shapes.ts` for each hunk; pure.
 *
 * @module
 */
import { clip, isCheckCall, lastName } from "./guard_text.ts";
import { denies, PERMISSIVE } from "./guard_vocab.ts";
import { SKIPS } from "./guard_settings_vocab.ts";
import type { HunkView, Shape, ShapeContext } from "./guard_shapes.ts";

/** A call that hands the request on to what the check protects. */
const PASS_ON =
  /\b[\w$]*\.ServeHTTP\(|(?<![\w$.])next\(\s*\)|\bc\.Next\(\)|\breturn\s+(await\s+)?(next|handler|get_response|self\.get_response|view_func|func|fn|wrapped|f)\(|\breturn\s+self\.app\(/;

/** A line that answers the request itself or fails: a response written, an error raised. */
const ANSWERS =
  /\b(EncodeJSON|WriteHeader|WriteJSON|JSON|http\.Error|Error|sendStatus|status|send|json|abort|render|redirect|Response|JSONResponse|HttpResponse\w*|HTTPException)\b\s*\(|\b(raise|throw)\b|\breturn\s+(err|\w*Error)/;

/** A call whose result is a verdict on a credential: verified, authenticated, decoded. */
const VERDICT_CALL = /verif|authenticat|authori[sz]|validat|check|login|decode|introspect/i;

/** A call that fails the request by its name (`errorFunc(c)`, `onAuthFailure(res)`), not a log. */
const FAILING_CALL =
  /^\s*(return\s+)?(?!(log|console|logger|print|debug|warn|info)\b)[\w$.]*(error|fail|deny|reject|forbid|unauthori[sz]ed)\w*\(\s*[\w$]|\b\w+\(\s*(err|error|e)\s*,\s*(false|False)\s*\)/i;

/** A line that lets the caller through: the request handed on, a callback told yes. */
const APPROVES = new RegExp(
  `${PASS_ON.source}|\\b\\w+\\(\\s*(null|None|nil)\\s*,\\s*(true|True)\\s*\\)|\\bnext_app\\(|\\.Next\\(\\)`,
);

/** A value that is no fallback at all (the failure stays a failure). */
const NO_VALUE = /^(null|None|undefined|false|False|nil|\[\]|\{\}|''|""|0)\b/;

/** A switch that keeps a check on (`shouldCheckForUserMembership`, `enforce_csrf`). */
const ENFORCING_SWITCH =
  /^(should|must|needs?|require|enforce|verify|validate|check)(_|[A-Z])\w*|\w(Check|Verify|Validate|Enforce|Required)\w*$|_(check|verify|validate|enforce|required)\w*$/;

/** A grace on a token's times: leeway, clock tolerance, clock skew. */
const LEEWAY =
  /\b(leeway|clock_?tolerance|clockTolerance|clock_?skew|ClockSkew|WithLeeway|max_?clock_?skew|skew)\w*["']?\s*[(:=,]\s*([^,)\n]+)/i;

/** A grace of an hour or more: hours, days, weeks, or 3,600 seconds and up. */
function longGrace(v: string): boolean {
  if (
    /\b(hours?|days?|weeks?|Hour|Day|Week)\b|timedelta\(\s*(days|hours|weeks)|\b24\s*\*/.test(v)
  ) {
    return true;
  }
  const n = Number(/^\s*(\d+)/.exec(v)?.[1]);
  return n >= 3600 && !/ms|milli|Millisecond/.test(v);
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const SAFE = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);
/** The HTTP methods a line lists (quoted), upper-cased. */
function methods(line: string): string[] {
  return [...line.matchAll(/['"`](GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE)['"`]/gi)].map((m) =>
    m[1].toUpperCase()
  );
}

/** A verdict on who someone is, read from a name (`is_admin`, `isAuthorized`, `allowed`). */
const PRIVILEGE_VERDICT =
  /^(is_?|has_?)?(admin|superuser|super_user|staff|owner|authori[sz]ed|allowed|permitted|privileged|moderator)$/i;

/** A value that only says something is there (`bool(ctx.roles)`, `!!user.roles`). */
const PRESENCE =
  /^(bool\(\s*[\w$.]+\s*\)|!!\s*[\w$.?]+|len\(\s*[\w$.]+\s*\)\s*>\s*0|[\w$.?]+\.length\s*>\s*0|[\w$.]+\s*!==?\s*(null|nil|undefined)|[\w$.]+\s+is\s+not\s+None)\s*;?$/;

/** Where a request comes from: its remote address. */
const REMOTE =
  /\b(remote_?ip|remote_?addr\w*|RemoteAddr|RemoteIP|client_?ip|clientIp|ClientIP|req\.ip|request\.ip|real_?ip|RealIP|peer_?addr|REMOTE_ADDR)\b/;

/** This machine's address, in a test of where a request comes from (by prefix too, `127.0.0.1:`,
 * where `LOOPBACK` of the settings reads a bound address whole). */
const THIS_MACHINE = /127\.0\.0\.1|\blocalhost\b|['"]::1['"]|\bIsLoopback\(|\bis_loopback\b/;

/** An answer that lets the request in right away: a yes, or the request handed on. */
const GRANT_NOW = new RegExp(`\\breturn\\s+(True|true)\\b|${PASS_ON.source}`);

/** A restricting option read by a ternary that gives nothing when it is on. */
const RESTRICTING =
  /([\w$.]*(?:read_?only|readOnly|restricted|disabled|locked|guest|anonymous|limited)\w*)\s*\?\s*(\[\]|\{\}|null|undefined|false|''|""|0)\s*:\s*/i;

/**
 * The pass-through shapes of one hunk.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { passShapes } from "./guard_shapes_passes.ts";
 * const line = (n: number, text: string) => ({ l: { n, text }, c: text });
 * const removed = [line(4, "    http.Error(w, \"forbidden\", 403)")];
 * const added = [line(4, "    next.ServeHTTP(w, r)")];
 * const v = { h: { removed: removed.map((x) => x.l), added: added.map((x) => x.l) }, removed, added, addedCodes: new Set(added.map((x) => x.c)) };
 * const ctx = {
 *   beforeCode: "", afterCode: "", afterLines: [], secure: () => true, body: () => "", fn: () => "auth",
 *   block: () => ({ body: "", after: "" }),
 *   beforeLines: ["func auth(next http.Handler) http.Handler {", "  return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {", "  if !allowed(r) {", "    http.Error(w, \"forbidden\", 403)", "    return", "  }", "  next.ServeHTTP(w, r)"],
 * };
 * assert.match(passShapes(v, ctx)[0].what, /hands the request on/);
 * ```
 */
export function passShapes({ removed, added }: HunkView, ctx: ShapeContext): Shape[] {
  const out: Shape[] = [];
  const push = (rule: Shape["rule"], n: number, what: string) => out.push({ rule, n, what });
  const lines = ctx.beforeLines ?? [];
  for (const { l, c } of removed) {
    if (!ctx.secure(l.n)) continue;
    // An error path that answered the request now hands it on to what the check protects
    // (`http.Error(w, …, 403)` → `next.ServeHTTP(w, r)`), the way the granting path does.
    if (ANSWERS.test(c) && !PASS_ON.test(c) && insideBranch(lines, l.n)) {
      const a = added.find((x) => PASS_ON.test(x.c));
      const grants = a && lines.some((t, i) => i !== l.n - 1 && t.includes(a.c.trim()));
      if (a && grants && !added.some((x) => ANSWERS.test(x.c) || denies(x.c))) {
        push("auth-check-removed", l.n, `an error path now hands the request on: \`${clip(a.c)}\``);
      }
    }
    // A failed check given a fallback (`identity = await verify(key)` → `… ?? { key }`).
    const call = /^\s*(?:(?:const|let|var)\s+)?([\w$.]+)\s*(?::=|=)\s*(?:await\s+)?([\w$.]+)\(/
      .exec(c);
    if (call && (isCheckCall(call[2]) || VERDICT_CALL.test(lastName(call[2])))) {
      const rhs = c.slice(c.indexOf("=") + 1).trim().replace(/;$/, "");
      for (const a of added) {
        const at = a.c.indexOf(rhs);
        if (at < 0 || !a.c.trimStart().startsWith(c.trimStart().slice(0, call[0].indexOf("=")))) {
          continue;
        }
        const rest = a.c.slice(at + rhs.length).replace(/^\s*\)/, "");
        // (`||` and `or` are read where any check is given an alternative.)
        const fb = /^\s*\?\?\s*(.+?)\s*;?$/.exec(rest);
        if (fb && !NO_VALUE.test(fb[1])) {
          push("auth-check-removed", l.n, `a failed check now falls back: \`${clip(a.c)}\``);
        }
      }
    }
    // A switch that kept a check on always is now on only sometimes
    // (`shouldCheckForUserMembership = true` → `= !organizationSlug`).
    const sw = /^\s*(?:(?:const|let|var)\s+)?([\w$.]+)\s*(:=|=|:)\s*(true|True)\s*[,;]?$/.exec(c);
    // (`InsecureSkipVerify = true` made conditional is the fix.)
    if (
      sw && ENFORCING_SWITCH.test(lastName(sw[1])) && !SKIPS.test(sw[1]) && !PERMISSIVE.test(sw[1])
    ) {
      const a = added.find((x) =>
        new RegExp(`^\\s*(?:(?:const|let|var)\\s+)?${esc(sw[1])}\\s*${esc(sw[2])}`).test(x.c)
      );
      const v = a && a.c.slice(a.c.indexOf(sw[2], a.c.indexOf(sw[1]) + sw[1].length) + sw[2].length)
        .trim().replace(/[,;]$/, "");
      if (a && v && !/^(true|True|false|False)$/.test(v)) {
        push("auth-check-removed", l.n, `\`${sw[1]}\` no longer always on: \`${clip(a.c)}\``);
      }
    }
    // Unsafe methods taken out of what is protected, or put into what is exempt.
    const mb = methods(c);
    if (mb.length >= 2) {
      const a = added.find((x) => methods(x.c).length >= 1);
      const ma = a ? methods(a.c) : [];
      const context = `${ctx.fn(l.n)} ${lines.slice(Math.max(0, l.n - 12), l.n + 12).join(" ")}`;
      if (a && /csrf|xsrf|safe|exempt|protect|idempotent/i.test(context)) {
        const protects = mb.every((m) => UNSAFE.has(m));
        const exempts = mb.every((m) => SAFE.has(m));
        const lost = mb.filter((m) => !ma.includes(m));
        const gained = ma.filter((m) => !mb.includes(m));
        if (protects && lost.length > 0 && gained.length === 0) {
          push(
            "auth-check-removed",
            l.n,
            `\`${lost.join(", ")}\` no longer protected: \`${clip(a.c)}\``,
          );
        } else if (exempts && gained.some((m) => UNSAFE.has(m))) {
          const g = gained.filter((m) => UNSAFE.has(m)).join(", ");
          push("auth-check-removed", l.n, `\`${g}\` now exempt: \`${clip(a.c)}\``);
        }
      }
    }
    // A privilege read from mere presence (`is_admin = role in roles` → `bool(roles)`).
    const pv = /^\s*(?:(?:const|let|var)\s+)?([\w$.]+)\s*(?::=|=)\s*(.+?)\s*;?$/.exec(c);
    if (pv && PRIVILEGE_VERDICT.test(lastName(pv[1])) && !PRESENCE.test(pv[2])) {
      const a = added.find((x) => x.c.trimStart().startsWith(pv[0].trimStart().split("=")[0]));
      const v = a ? a.c.slice(a.c.indexOf("=") + 1).trim() : "";
      if (a && PRESENCE.test(v) && /==|\bin\b|includes\(|\bhas\w*\(|\w\(/.test(pv[2])) {
        push("auth-check-removed", l.n, `\`${pv[1]}\` now from mere presence: \`${clip(a.c)}\``);
      }
    }
    // A restricting option no longer read (`options.readonly ? [] : detect(io)` → `detect(io)`).
    const rs = RESTRICTING.exec(c);
    if (rs) {
      const kept = c.slice(0, rs.index) + c.slice(rs.index + rs[0].length);
      if (added.some((x) => x.c.trim() === kept.trim())) {
        push("auth-check-removed", l.n, `\`${rs[1]}\` no longer restricts: \`${clip(kept)}\``);
      }
    }
  }
  // A denial swapped for an approval in place (`errorFunc(c)` → `c.Next()`,
  // `invokeCallback(err, false)` → `invokeCallback(null, true)`, `next(error)` → `next()`): the
  // failing path now lets the caller through, and nothing added fails instead.
  const yes = removed.length <= 4 && added.length <= 4
    ? added.find((x) => APPROVES.test(x.c))
    : null;
  if (yes && !added.some((x) => denies(x.c))) {
    const no = removed.find((x) =>
      (denies(x.c) || FAILING_CALL.test(x.c)) && !APPROVES.test(x.c) && ctx.secure(x.l.n)
    );
    if (no && !removed.some((x) => x.c.trim() === yes.c.trim())) {
      push("auth-check-removed", no.l.n, `a failure now lets through: \`${clip(yes.c)}\``);
    }
  }
  // A way round the check for requests from this machine (`if remote_ip in ('127.0.0.1',
  // '::1'): return True`): behind a proxy on the same host, every request comes from there.
  for (let i = 0; i < added.length; i++) {
    const { l, c } = added[i];
    if (!/^\s*(}\s*)?(if|elif|else\s+if)\b/.test(c) || !REMOTE.test(c) || !THIS_MACHINE.test(c)) {
      continue;
    }
    if (removed.some((x) => x.c.trim() === c.trim())) continue;
    const then = `${c} ${added[i + 1]?.c ?? ""}`;
    const n = removed[0]?.l.n ?? l.n;
    if (GRANT_NOW.test(then) && ctx.secure(n)) {
      push("auth-check-removed", n, `requests from this machine let through: \`${clip(c)}\``);
    }
  }
  // A token check given hours of grace (`jwt.WithLeeway(365*24*time.Hour)`, `leeway=86400`).
  for (const { l, c } of added) {
    const m = LEEWAY.exec(c);
    if (!m || !longGrace(m[2])) continue;
    const before = removed.map((x) => LEEWAY.exec(x.c)).find((x) => x);
    if (before && longGrace(before[2])) continue;
    const n = removed[0]?.l.n ?? l.n;
    if (ctx.secure(n)) {
      push("crypto-verification-removed", n, `token times given a long grace: \`${clip(c)}\``);
    }
  }
  return out;
}

/** Whether before-line `n` sits in a branch's block (an `if`, `else`, `except` or `catch`). */
function insideBranch(lines: readonly string[], n: number): boolean {
  const own = /^\s*/.exec(lines[n - 1] ?? "")![0].length;
  for (let i = n - 2; i >= 0 && i >= n - 12; i--) {
    const t = lines[i];
    if (t.trim() === "") continue;
    const ind = /^\s*/.exec(t)![0].length;
    if (ind < own) return /^\s*(}\s*)?(if|else|elif|except|catch|case|default)\b/.test(t);
  }
  return false;
}

function esc(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
