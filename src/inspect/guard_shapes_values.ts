/**
 * Shape signals about the values a check yields: a predicate's `return` that lost a requirement
 * or now says yes, an exact comparison loosened to a prefix or a length, a security setting's
 * value made falsy, a refusal that now hands back the value, a failure turned into success, a
 * verdict hard-coded. Called by `guard_shapes.ts` for each hunk; pure.
 *
 * @module
 */
import { ownerLeaning } from "./value_swaps.ts";
import { FAILURE, FALSY, NOT_A_DENIAL, PERMISSIVE, SECURE_SETTING } from "./guard_vocab.ts";
import {
  callNames,
  clip,
  compares,
  condition,
  headKind,
  isCheckCall,
  overlap,
  similarStart,
  underscored,
} from "./guard_text.ts";
import { PRIVILEGE_NAME, terms, VERDICT_NAME } from "./guard_shape_vocab.ts";
import { yesKeepsOut } from "./name_polarity.ts";
import type { HunkView, Shape, ShapeContext } from "./guard_shapes.ts";

/** Exact comparisons, and the looser matches that can stand in for them. */
const EXACT =
  /===?|!==?|\.equals?\(|\bEqual\w*\(|\bEqualFold\(|\bcompare_digest\(|\btimingSafeEqual\(|\bincludes\(|\bin\b|\bhmac\.Equal\(|\bConstantTimeCompare\(/;
/** A text's `.includes(` called on a string (a URL, a path, a route): a substring test, not
 * membership, so no exact comparison. */
const SUBSTRING_INCLUDES =
  /\b\w*(url|uri|path|route|host|origin|domain|href|referr?er|str|text)\.includes\(/gi;

/** `EXACT` read on `t` with its substring tests left out. */
function exact(t: string): boolean {
  return EXACT.test(t.replace(SUBSTRING_INCLUDES, "("));
}

const LOOSE =
  /\.startsWith\(|\.endsWith\(|\bHasPrefix\(|\bHasSuffix\(|\.startswith\(|\.endswith\(|\bContains\(|\.indexOf\(|\.some\(|\.length\b|\blen\(|\bmatch\(|\.search\(|\bre\.search\(/;

/** A success exit: what a branch does when everything checked out. */
const SUCCESS =
  /^(return\s*(true|True|nil|None|null|undefined|['"]ok['"]|['"]OK['"])?\s*;?|return\s+Promise\.resolve\(.*\);?|(await\s+)?resolve\(.*\);?|next\(\);?|pass|return\s+next\(\);?|return\s+(true|True)\s*,\s*nil|return\s+[^;]*,\s*nil)$/i;

/**
 * A protection's option set to off: `signed: false`, `httpOnly=False`, `strict: false` (`verify…`
 * and `rejectUnauthorized` are the counted TLS and token rules' own, at high).
 */
const OFF_OPTION =
  /\b['"]?(signed|secure|http_?[oO]nly|httponly|verification|validate\w*|check_?(?!hostname)\w+|strict\w*|require\w*|enforce\w*|csrf\w*|xsrf\w*)['"]?\s*[:=](?!=)\s*(false|False|0|None)\b/g;

/** Exceptions a check raises (a bad signature, an expired or invalid token, a denied request). */
const SECURITY_ERROR =
  /Expired|Signature|Invalid|Token|Jwt|JWT|Jws|JWS|Unauthori[sz]ed|Forbidden|Denied|Permission|Auth\w*Error|Verif\w*Error|BadSignature|Csrf|CSRF/;

/** A setting that lists who or what may come in. */
const ALLOW_LIST =
  /allow\w*|origin\w*|hosts?\b|_ips?\b|IPS?\b|trusted\w*|cors|domains?\b|redirect\w*|scopes?\b|frame-ancestors|(default|script|connect|form-action|frame|object)-src/i;

/** What a refusal returns: nothing, or an empty value. */
const EMPTY_RETURN = /^return\s*(;|None|null|undefined|nil|false|False|""|''|\{\}|\[\])?\s*;?$/;

/**
 * The value shapes of one hunk.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { valueShapes } from "./guard_shapes_values.ts";
 * const line = (n: number, text: string) => ({ l: { n, text }, c: text.trim() });
 * const removed = [line(3, "  return !!rule && !rule.inverted;")];
 * const added = [line(3, "  return !!rule;")];
 * const v = { h: { removed: [], added: [] }, removed, added, addedCodes: new Set([added[0].c]) };
 * const ctx = {
 *   beforeCode: "", afterCode: "", afterLines: [], body: () => "",
 *   secure: () => true, fn: () => "can", block: () => ({ body: "", after: "" }),
 * };
 * assert.match(valueShapes(v, ctx)[0].what, /requirement dropped/);
 * ```
 */
export function valueShapes({ removed, added, addedCodes }: HunkView, ctx: ShapeContext): Shape[] {
  const out: Shape[] = [];
  for (const { l, c } of removed) {
    if (c === "" || addedCodes.has(c)) continue;
    for (const a of added) {
      if (a.c === "") continue;
      const kind = headKind(c);
      const partner = kind === headKind(a.c) || (kind === "=" && headKind(a.c) === "=");
      // A predicate's answer weakened: a `return` (or a verdict's assignment) that lost a
      // requirement, says yes where it said no, or matches loosely where it matched exactly.
      const rb = answer(c);
      const ra = answer(a.c);
      if (rb !== null && ra !== null && partner && rb !== ra && boolish(rb)) {
        // (A function or verdict whose yes keeps someone out, `is_blocked`, `requires_mfa`, is
        // weakened when it says yes less often: its answers are read the other way round.)
        const name = VERDICT_NAME.exec(c)?.[1] ?? ctx.fn(l.n);
        // (Negated whole, `!(skip || ignored)`, such an answer is not read either way round.)
        const why = !yesKeepsOut(name)
          ? weakerAnswer(rb, ra)
          : /^(!|not\b)/.test(rb) || /^(!|not\b)/.test(ra)
          ? null
          : weakerAnswer(ra, rb) && "keeps out less often";
        const checky = callNames(rb).some((x) => isCheckCall(x)) ||
          // (camelCase read by its words: `policyAllowsGuests`.)
          /(^|_)(is|has|can|should|allow|valid|verif|check|match|authori|permit)/i.test(
            underscored(ctx.fn(l.n).replace(/^[#_$]+/, "")),
          );
        const privilege = PRIVILEGE_NAME.test(VERDICT_NAME.exec(c)?.[1] ?? "");
        if (why && (ctx.secure(l.n) || checky || privilege)) {
          out.push({
            rule: "auth-check-removed",
            n: l.n,
            what: `${why}: \`${clip(c)}\` → \`${clip(a.c)}\``,
          });
        }
      }
      // A branch's exact comparison loosened (`bytes.Equal(a, b)` → `bytes.HasPrefix(b, a)`).
      const cb = condition(c);
      const ca = condition(a.c);
      if (
        cb && ca && /^(if|elif|else if)$/.test(kind ?? "") && kind === headKind(a.c) &&
        exact(cb) && !LOOSE.test(cb) && LOOSE.test(ca) && overlap(cb, ca) >= 0.4 &&
        // (`.every(` → `.some(` is read with its polarity by the flow and default shapes.)
        cb.replace(/\.every\(/g, ".some(") !== ca && ctx.secure(l.n)
      ) {
        out.push({
          rule: "auth-check-removed",
          n: l.n,
          what: `exact match loosened: \`${clip(cb)}\` → \`${clip(ca)}\``,
        });
      }
      // A security setting's value made falsy where it was computed (`secure: isHttps` → `false`).
      const vb = valueOf(c);
      const va = valueOf(a.c);
      if (
        vb && va && vb.key === va.key && madeFalsy(vb.value, va.value) &&
        // A declaration's first value is no setting (`const seen = new Set()` → `= null`).
        !/^\s*(const|let|var)\s/.test(c) &&
        !/^(true|True)$/.test(vb.value) &&
        // (A permissive switch made falsy lets fewer through: `trustedProxies = true` → `null`.)
        !PERMISSIVE.test(vb.key) &&
        ownerLeaning(c, a.c, { above: "", secure: ctx.secure(l.n) }) <= 0 &&
        (SECURE_SETTING.test(vb.key) || (vb.key === "" && SECURE_SETTING.test(ctx.body(l.n - 3))))
      ) {
        out.push({
          rule: "secure-default-weakened",
          n: l.n,
          what: `\`${clip(c)}\` → \`${clip(a.c)}\``,
        });
      }
      // A refusal that now hands back what it refused (`if (!sig) return` → `return value`).
      const eb = exitOf(c);
      const ea = exitOf(a.c);
      if (
        eb && ea && eb.head === ea.head && EMPTY_RETURN.test(eb.exit) &&
        !EMPTY_RETURN.test(ea.exit) &&
        /^return\s+[\w$.[\]]+\s*;?$/.test(ea.exit) && ctx.secure(l.n) &&
        // (`return false` → `return true` in `Denylisted()` refuses more.)
        !(/^return\s+(true|True)\b/.test(ea.exit) && yesKeepsOut(ctx.fn(l.n)))
      ) {
        out.push({
          rule: "auth-check-removed",
          n: l.n,
          what: `refusal now returns a value: \`${clip(a.c)}\``,
        });
      }
    }
  }
  // A protection switched off by name where nothing did before (`{ signed: false }`,
  // `httpOnly: false`, `verify_signature=False`).
  for (const { l, c } of added) {
    for (const m of c.matchAll(OFF_OPTION)) {
      if (ctx.beforeCode.includes(m[0])) continue;
      out.push({
        rule: "secure-default-weakened",
        n: removed[0]?.l.n ?? l.n,
        what: `\`${clip(m[0])}\` passed`,
      });
      break;
    }
  }
  // A failure caught and turned into a result (`except Expired: return payload`,
  // `except Expired: token["valid"] = True`, `.catch((e) => debug(e))`).
  for (let i = 0; i < added.length; i++) {
    const c = added[i].c;
    const handler = /^(}\s*)?(except|catch)\b(.*)$/.exec(c);
    const chained = /\.catch\(\s*\(?\s*[\w$]*(\s*:\s*\w+)?\s*\)?\s*=>\s*(\w[\w$.]*)\(/.exec(c);
    if (chained && /^(debug|log|console|logger|warn|info|noop)/i.test(chained[2])) {
      out.push({
        rule: "auth-check-removed",
        n: added[i].l.n,
        what: `failure caught and logged: \`${clip(c)}\``,
      });
      continue;
    }
    if (!handler || !SECURITY_ERROR.test(handler[3])) continue;
    const next = added[i + 1]?.c ?? "";
    if (
      /^return\s+(?!None\b|null\b|nil\b|false\b|False\b)\S/.test(next) && !FAILURE.test(next) ||
      /\b(valid|verified|ok|authori[sz]ed|authenticated)\W*\s*\]?\s*=\s*(true|True)\b/.test(next)
    ) {
      out.push({
        rule: "crypto-verification-removed",
        n: removed[0]?.l.n ?? added[i].l.n,
        what: `failure caught and turned into a result: \`${clip(handler[0])}\` → \`${
          clip(next)
        }\``,
      });
    }
  }
  // An allow-list opened to everything (`"127.0.0.1"` → `"*"`), a default role raised to admin.
  for (const { l, c } of removed) {
    for (const a of added) {
      if (!similarStart(c, a.c) && overlap(c, a.c) < 0.5) continue;
      if (ALLOW_LIST.test(c) && /(['"])\*\1/.test(a.c) && !/(['"])\*\1/.test(c)) {
        out.push({
          rule: "secure-default-weakened",
          n: l.n,
          what: `opened to everything: \`${clip(a.c)}\``,
        });
      }
      if (
        /\brole|roles\b/i.test(c) && /(['"])(admin|root|superuser|owner)\1/i.test(a.c) &&
        !/(['"])(admin|root|superuser|owner)\1/i.test(c)
      ) {
        out.push({
          rule: "auth-check-removed",
          n: l.n,
          what: `default role raised: \`${clip(a.c)}\``,
        });
      }
      // An exact comparison loosened on any line of security code (`===` → `startsWith`).
      if (
        exact(c) && !LOOSE.test(c) && LOOSE.test(a.c) && overlap(c, a.c) >= 0.3 &&
        c.replace(/\.every\(/g, ".some(") !== a.c && ctx.secure(l.n)
      ) {
        out.push({
          rule: "auth-check-removed",
          n: l.n,
          what: `exact match loosened: \`${clip(c)}\` → \`${clip(a.c)}\``,
        });
      }
    }
  }
  // A failure turned into success: a `raise`/`throw`/error return gone, a success exit in its place.
  const failed = removed.find(({ c }) =>
    /^(raise|throw)\b|^return\b.*\b(err\w*|Error\w*)\b|^(await\s+)?reject\(/.test(c) &&
    FAILURE.test(c) &&
    !NOT_A_DENIAL.test(c) && !addedCodes.has(c)
  );
  if (failed && added.some((a) => SUCCESS.test(a.c)) && ctx.secure(failed.l.n)) {
    out.push({
      rule: "auth-check-removed",
      n: failed.l.n,
      what: `\`${clip(failed.c)}\` now succeeds`,
    });
  }
  // A verdict hard-coded: `valid := len(x) == 0` → `valid := true`.
  for (const { l, c } of removed) {
    const m = VERDICT_NAME.exec(c);
    if (!m || /^\s*(true|True|1)\s*;?$/.test(m[2])) continue;
    for (const a of added) {
      const k = VERDICT_NAME.exec(a.c);
      if (k && k[1] === m[1] && /^\s*(true|True|1)\s*;?$/.test(k[2])) {
        out.push({
          rule: "auth-check-removed",
          n: l.n,
          what: `\`${m[1]}\` hard-coded: \`${clip(a.c)}\``,
        });
      }
    }
  }
  return out;
}

/** The expression a line answers with: a `return`'s value or a verdict's assigned value. */
function answer(line: string): string | null {
  const r = /^\s*(?:}\s*)?return\s+(.+?)\s*;?$/.exec(line);
  if (r) return r[1];
  const v = VERDICT_NAME.exec(line);
  return v ? v[2].replace(/;\s*$/, "") : null;
}

/** An expression that reads as yes/no: a comparison, a negation, a join, a boolean, a check. */
function boolish(x: string): boolean {
  return /===?|!==?|[<>]=?|&&|\|\||\band\b|\bor\b|\bnot\b|^!|\b(true|false|True|False)\b|\bin\b|\bis\b/
    .test(x) ||
    callNames(x).some((c) =>
      isCheckCall(c) || /equal|compare|match|includes|has|can|allow/i.test(c)
    );
}

/** Why `after` answers yes more often than `before`, or null. */
function weakerAnswer(before: string, after: string): string | null {
  const bAnd = terms(before, "and");
  const aAnd = terms(after, "and");
  if (bAnd.length > 1 && aAnd.length < bAnd.length && aAnd.every((t) => bAnd.includes(t))) {
    return "requirement dropped";
  }
  // `false` → `true`, alone or in one arm of a conditional (`x ? f(y) : false` → `: true`).
  // A setting's value in a literal (`{"verify": False}`, `verify=False`) is not an answer.
  const setting = (at: number) =>
    (/["'\w]\s*(:|=(?!=))\s*$/.test(before.slice(0, at)) && !before.slice(0, at).includes("?")) ||
    /[(,]\s*$/.test(before.slice(0, at)); // an argument (`config.get(key, False)`)
  const flips = [...before.matchAll(/\b(false|False)\b/g)].some((m) =>
    !setting(m.index!) &&
    before.slice(0, m.index) + (m[0] === "false" ? "true" : "True") +
          before.slice(m.index! + m[0].length) === after
  );
  if (flips) return "now says yes";
  if (EXACT.test(before) && !LOOSE.test(before) && LOOSE.test(after)) return "exact match loosened";
  // `any(p.name == perm for p in perms)` → `bool(perms)`: the comparison gone, nothing new in.
  const ids = (t: string) => new Set(t.match(/[A-Za-z_$][\w$]*/g) ?? []);
  const known = ids(before);
  if (
    compares(before) > 0 && compares(after) === 0 &&
    [...ids(after)].every((w) => known.has(w) || /^(bool|Boolean|len|true|True)$/.test(w))
  ) {
    return "comparison dropped";
  }
  return null;
}

/** A setting and its value on one line: `key: value`, `key = value`, `key := value`. */
function valueOf(line: string): { key: string; value: string } | null {
  const m =
    /^\s*(?:(?:const|let|var)\s+)?,?\s*([\w$.'"]+)\s*(?::=|:|=(?!=))\s*(.+?)\s*[,;]?\s*$/.exec(
      line,
    ) ??
      /^\s*[?:]\s*(.+?)\s*[,;]?\s*$/.exec(line);
  if (!m) return null;
  return m.length === 3
    ? { key: m[1].replace(/['"]/g, ""), value: m[2] }
    : { key: "", value: m[1] };
}

/** A line's guard head and the exit it takes (`if (!x) return` → head `if (!x)`, exit `return`). */
function exitOf(line: string): { head: string; exit: string } | null {
  const m = /^(.*?)\b(return\b.*)$/.exec(line);
  if (!m) return null;
  const head = m[1].trim();
  return /^(if\b.*|\}?\s*else\b.*|)$/.test(head) &&
      (head === "" || condition(head) !== null || /else/.test(head))
    ? { head, exit: m[2].trim() }
    : null;
}

/** `after` is `before` with one part (a value, a conditional's arm) now a falsy literal. */
function madeFalsy(before: string, after: string): boolean {
  let i = 0;
  while (i < before.length && i < after.length && before[i] === after[i]) i++;
  let j = 0;
  while (
    j < before.length - i && j < after.length - i &&
    before[before.length - 1 - j] === after[after.length - 1 - j]
  ) j++;
  // Whole words on both ends (`new Date()` → `null` shares an `n`, not a word).
  while (i > 0 && /[\w$]/.test(before[i - 1])) i--;
  while (j > 0 && /[\w$]/.test(before[before.length - j])) j--;
  const mb = before.slice(i, before.length - j).trim();
  const ma = after.slice(i, after.length - j).trim();
  return FALSY.test(ma) && mb !== "" && !FALSY.test(mb) &&
    !/^(\[\]|\{\}|""|'')$/.test(mb) &&
    !/^[)\]}]/.test(mb);
}
