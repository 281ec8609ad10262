/**
 * Shape signals about defaults and gates: an option made opt-out where it was opt-in (or the
 * reverse for a protection), a requirement turned into an implication (`a && b` → `!a || b`), a
 * value no longer gated by a verdict (`ok ? origin : false` → `origin`), an expiry given grace, a
 * verdict key flipped to yes, an allow-list set to `"all"`, the list of credential headers to drop
 * shortened, a failure no longer returned from. Called by `guard_shapes.ts`; pure.
 *
 * @module
 */
import { callNames, clip, condition, headKind, isCheckCall, similarStart } from "./guard_text.ts";
import { FAILURE } from "./guard_vocab.ts";
import { terms } from "./guard_shape_vocab.ts";
import type { HunkView, Shape, ShapeContext } from "./guard_shapes.ts";

/** Options whose `true` lets more through. */
const LOOSE_OPTION =
  /\b[\w$]*(allow\w*|insecure\w*|credentials|guest\w*|anonymous|skip\w*|bypass\w*|unsafe\w*|public\w*|expired|unverified|unsigned)\b/i;

/** Options whose `true` protects. */
const STRICT_OPTION =
  /\b[\w$]*(reject_?unauthorized|rejectUnauthorized|verify\w*|secure|strict\w*|require\w*|enforce\w*|validate\w*|http_?only|signed)\b/i;

/** A predicate whose yes means something is wrong (expired, revoked, blocked…). */
const NEGATIVE_VERDICT =
  /(expired|revoked|blocked|locked|denied|banned|forbidden|invalid|tampered|mismatch|stale|compromised)/i;

/** How an option is read: explicitly on only, on unless switched off, or a plain default. */
function reading(text: string): "opt-in" | "opt-out" | null {
  if (
    /===?\s*true\b|\?\?\s*false\b|\|\|\s*false\b|\bis\s+True\b|==\s*True\b|!!\s*[\w$.?]+\s*;?\s*$/
      .test(
        text,
      )
  ) {
    return "opt-in";
  }
  if (
    /!==?\s*false\b|\?\?\s*true\b|\bis\s+not\s+False\b|!=\s*False\b|===?\s*false\b|==\s*False\b/
      .test(text)
  ) {
    return "opt-out";
  }
  return null;
}

/** Credential headers a redirect must not carry to another host. */
const CRED_HEADERS = /['"](authorization|proxy-authorization|cookie|www-authenticate)['"]/gi;
const CRED_HEADER = new RegExp(CRED_HEADERS.source, "i");

/** A value shown or used only when a verdict allows it: `isAllowed ? origin : false`. */
const GATED =
  /([\w$.]*(?:allow|valid|authori[sz]|permit|trust|verified|ok|match)\w*)\s*\?\s*([^:?]+?)\s*:\s*(false|null|undefined|None|''|""|nil)\b/i;

/**
 * The default and gate shapes of one hunk.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultShapes } from "./guard_shapes_defaults.ts";
 * const line = (n: number, text: string) => ({ l: { n, text }, c: text.trim() });
 * const removed = [line(4, "  if (options.credentials === true) {")];
 * const added = [line(4, "  if (options.credentials !== false) {")];
 * const v = { h: { removed: [], added: [] }, removed, added, addedCodes: new Set([added[0].c]) };
 * const ctx = {
 *   beforeCode: "", afterCode: "", afterLines: [], secure: () => true, body: () => "",
 *   fn: () => "", block: () => ({ body: "", after: "" }),
 * };
 * assert.match(defaultShapes(v, ctx)[0].what, /now on unless switched off/);
 * ```
 */
export function defaultShapes(
  { removed, added, addedCodes }: HunkView,
  ctx: ShapeContext,
): Shape[] {
  const out: Shape[] = [];
  const push = (rule: Shape["rule"], n: number, what: string) => out.push({ rule, n, what });
  // A requirement turned into an implication: `a && b` → `!a || b`.
  const implication = (c: string, ac: string, n: number) => {
    const cb = condition(c);
    const ca = condition(ac);
    if (!cb || !ca || headKind(c) !== headKind(ac)) return;
    const and = terms(cb, "and");
    const or = terms(ca, "or");
    if (and.length < 2 || or.length !== and.length) return;
    const kept = and.filter((t) => or.includes(t));
    const negated = and.filter((t) => !or.includes(t));
    if (
      kept.length === and.length - 1 &&
      negated.every((t) => or.includes(`!${t}`) || or.includes(`not${t}`) || or.includes(`!(${t})`))
    ) {
      push(
        "auth-check-removed",
        n,
        `requirement made conditional: \`${clip(cb)}\` → \`${clip(ca)}\``,
      );
    }
  };
  for (const { l, c } of removed) {
    if (c === "" || addedCodes.has(c)) continue;
    for (const a of added) {
      if (a.c === "") continue;
      implication(c, a.c, l.n);
      // A check's trigger narrowed: `if (a || b) { fail }` → `if (a && b)` (terms the same up to a
      // negation), where the branch fails or runs a check.
      const cb2 = condition(c);
      const ca2 = condition(a.c);
      if (
        cb2 && ca2 && headKind(c) === headKind(a.c) && /^(if|elif|else if)$/.test(headKind(c) ?? "")
      ) {
        const strip = (t: string) => t.replace(/^!|^not/, "");
        const ob = terms(cb2, "or").map(strip).sort();
        const aa = terms(ca2, "and").map(strip).sort();
        const { body } = ctx.block(l.n);
        // …or leaves early when something does not match (`if (a !== b || …) return`).
        const enforces = FAILURE.test(body) || /\b(throw|raise)\b/.test(c) ||
          callNames(body).some((x) => isCheckCall(x)) ||
          (/!==?/.test(cb2) && /^return\s*;?$/m.test(body));
        if (
          ob.length >= 2 && aa.length === ob.length && ob.every((t, k) => t === aa[k]) &&
          enforces &&
          ctx.secure(l.n)
        ) {
          push(
            "auth-check-removed",
            l.n,
            `\`or\` → \`and\` in a check's trigger: \`${clip(ca2)}\``,
          );
        }
      }
      // Undefined now passes: `!!x` → `x !== false`, `!x` → `x === false` (only an explicit no fails).
      const nb = /!!\s*([\w$.?]+)|(?<![!\w$])!\s*([\w$.?]+)(?!\s*[=(])/.exec(c);
      const subject = nb?.[1] ?? nb?.[2];
      if (
        subject &&
        new RegExp(`${subject.replace(/[.$?]/g, "\\$&")}\\s*(!==|===)\\s*false`).test(a.c) &&
        !new RegExp(`${subject.replace(/[.$?]/g, "\\$&")}\\s*(!==|===)\\s*false`).test(c) &&
        ctx.secure(l.n)
      ) push("auth-check-removed", l.n, `only an explicit false fails now: \`${clip(a.c)}\``);
      // …and a verdict passed on as it is now passes unless it is an explicit false
      // (`return result` → `return result !== false`).
      const rv = /^return\s+([\w$.?]+)\s*;?$/.exec(c)?.[1];
      if (
        rv &&
        new RegExp(`^return\\s+${rv.replace(/[.$?]/g, "\\$&")}\\s*!==?\\s*false\\s*;?$`).test(
          a.c,
        ) &&
        ctx.secure(l.n)
      ) push("auth-check-removed", l.n, `only an explicit false fails now: \`${clip(a.c)}\``);
      if (!similarStart(c, a.c)) continue;
      // An option read the other way round: opt-in → opt-out for what loosens, or the reverse
      // for what protects (`credentials === true` → `!== false`, `?? false` → `?? true`).
      const loose = LOOSE_OPTION.exec(c)?.[0];
      const strict = STRICT_OPTION.exec(c)?.[0];
      const rb = reading(c);
      const ra = reading(a.c);
      if (loose && a.c.includes(loose) && rb === "opt-in" && ra === "opt-out") {
        push(
          "secure-default-weakened",
          l.n,
          `\`${loose}\` now on unless switched off: \`${clip(a.c)}\``,
        );
      } else if (strict && a.c.includes(strict) && !loose && rb === "opt-out" && ra === "opt-in") {
        push(
          "secure-default-weakened",
          l.n,
          `\`${strict}\` now off unless switched on: \`${clip(a.c)}\``,
        );
      } else if (
        loose && /(\?\?|\|\|)\s*false\b/.test(c) &&
        /\?\?\s*(true\b|[^;,)]*(!==?|!=)\s*['"]production)/.test(a.c)
      ) {
        push("secure-default-weakened", l.n, `\`${loose}\` defaulted on: \`${clip(a.c)}\``);
      } else if (
        strict && !loose && /\?\?\s*false\b/.test(a.c) && !/\?\?\s*false\b/.test(c)
      ) {
        push("secure-default-weakened", l.n, `\`${strict}\` defaulted off: \`${clip(a.c)}\``);
      }
      // `!opt.allowExpired` → `opt.allowExpired === false`: the check now runs only on request.
      if (
        loose && new RegExp(`!\\s*[\\w$.?]*${loose}\\b(?!\\s*[=!])`).test(c) &&
        new RegExp(`${loose}\\s*===?\\s*false`).test(a.c)
      ) {
        push("secure-default-weakened", l.n, `\`${loose}\` check made opt-in: \`${clip(a.c)}\``);
      }
      // All required → any suffices (`.every(` → `.some(`, `all(` → `any(`); a bound inverted
      // (`min(expiry, max_length)` → `max(…)`).
      const swapped = (x: string, y: string, from: RegExp, to: string) =>
        from.test(x) && x.replace(from, to).replace(/\s+/g, "") === y.replace(/\s+/g, "");
      if (
        (swapped(c, a.c, /\.every\(/, ".some(") || swapped(c, a.c, /\ball\(/, "any(")) &&
        // (In a branch that fails, failing on any is stricter than failing on all.)
        !(/^(if|elif|else if)$/.test(headKind(c) ?? "") && FAILURE.test(ctx.block(l.n).body)) &&
        ctx.secure(l.n)
      ) push("auth-check-removed", l.n, `all required → any: \`${clip(a.c)}\``);
      if (
        (swapped(c, a.c, /\bmin\(/, "max(") || swapped(c, a.c, /\bMath\.max\(/, "Math.min(") ||
          swapped(c, a.c, /\bmax\(/, "min(")) && ctx.secure(l.n)
      ) push("secure-default-weakened", l.n, `bound inverted: \`${clip(a.c)}\``);
      // A negative verdict hard-coded to no (`return expiresIn < 0` → `return false` in isTokenExpired).
      if (
        /^return\s+(false|False)\s*;?$/.test(a.c) && /^return\s+\S/.test(c) &&
        !/^return\s+(false|False)\b/.test(c) &&
        NEGATIVE_VERDICT.test(ctx.fn(l.n))
      ) {
        push(
          "auth-check-removed",
          l.n,
          `\`${ctx.fn(l.n)}\` now always says no: \`${clip(c)}\` → \`${clip(a.c)}\``,
        );
      }
      // A deny-everything default replaced (`"denyall"` → `"none"`).
      if (
        /(['"])deny\w*\1/i.test(c) &&
        /(['"])(none|any|all|public|anonymous|authenticated|allow\w*)\1/i.test(a.c)
      ) {
        push("secure-default-weakened", l.n, `deny default replaced: \`${clip(a.c)}\``);
      }
      // A value no longer gated by a verdict (`isAllowed ? requestOrigin : false` → `requestOrigin`).
      const g = GATED.exec(c);
      if (g && a.c.includes(g[2].trim()) && !GATED.test(a.c) && !a.c.includes(g[1])) {
        push("auth-check-removed", l.n, `no longer gated by \`${g[1]}\`: \`${clip(a.c)}\``);
      }
      // An expiry given grace: `now > expires_at` → `now > expires_at + 86400`.
      if (/expir|\bexp\b|not_?after|valid_?until|max_?age|ttl/i.test(c) && /[<>]=?/.test(c)) {
        const stripped = a.c.replace(/\s*[+-]\s*\d[\d_]*(\s*\*\s*\d+)*/g, "");
        if (stripped.replace(/\s+/g, "") === c.replace(/\s+/g, "") && a.c !== c) {
          push("secure-default-weakened", l.n, `expiry given grace: \`${clip(a.c)}\``);
        }
      }
      // A verdict key flipped to yes (`valid: false` → `valid: true` in a fallback result).
      const vk =
        /^['"]?(valid|verified|allowed|authori[sz]ed|authenticated|granted|permitted|ok|trusted)['"]?\s*:\s*(false|False)\s*,?$/i
          .exec(c);
      if (vk && new RegExp(`^['"]?${vk[1]}['"]?\\s*:\\s*(true|True)\\s*,?$`).test(a.c)) {
        push("auth-check-removed", l.n, `\`${vk[1]}\` now true: \`${clip(a.c)}\``);
      }
      // An allow-list set to everything by name (`allowedHosts = "auto"` → `"all"`).
      if (
        /allow\w*|hosts?\b|origins?\b/i.test(c) && /(['"])(all|any)\1/i.test(a.c) &&
        !/(['"])(all|any)\1/i.test(c)
      ) {
        push("secure-default-weakened", l.n, `opened to everything: \`${clip(a.c)}\``);
      }
      // A failure no longer returned from (`return this._onerror(err)` → `this._onerror(err)`).
      const r =
        /^return\s+((?:[\w$]+\.)*_?\w*(error|fail|deny|reject|abort|unauthori[sz]ed|forbid)\w*\(.*\));?$/i
          .exec(c);
      if (r && a.c.replace(/;$/, "") === r[1] && ctx.secure(l.n)) {
        push("auth-check-removed", l.n, `no longer returns after \`${clip(r[1])}\``);
      }
    }
  }
  // Fewer credential headers to drop (`['authorization', 'cookie']` → `['cookie']`), counted over
  // the whole hunk (a list may be wrapped over lines).
  const headers = (xs: { c: string }[]) =>
    xs.reduce((k, x) => k + (x.c.match(CRED_HEADERS)?.length ?? 0), 0);
  if (
    headers(removed) > headers(added) &&
    added.some((a) => /[[(]/.test(a.c) && CRED_HEADER.test(a.c))
  ) {
    const at = removed.find((r) => CRED_HEADER.test(r.c)) ?? removed[0];
    if (at) {
      push(
        "secure-default-weakened",
        at.l.n,
        `fewer credential headers dropped: \`${clip(at.c)}\``,
      );
    }
  }
  return out;
}
