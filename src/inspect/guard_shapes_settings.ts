/**
 * Shape signals about what a check is given: a privilege test moved down to a weaker one
 * (`is_staff` → `is_active`), a security argument emptied (`hostname` → `None`), the list of what
 * is checked shortened, a tolerance widened (clock skew, leeway), a rejection handler that drops
 * the error. Called by `guard_shapes.ts` for each hunk; pure.
 *
 * @module
 */
import { args, callNames, clip, condition, lastName, overlap, similarStart } from "./guard_text.ts";
import {
  CHECKED_LIST,
  lastNumber,
  PRIVILEGE_RANK,
  quotedItems,
  TOLERANCE_NAME,
} from "./guard_shape_vocab.ts";
import { SECURITY_ARG } from "./guard_vocab.ts";
import type { HunkView, Shape, ShapeContext } from "./guard_shapes.ts";

/** A cookie's security attribute written out. */
const COOKIE_ATTR =
  /['"`]\s*;?\s*(Secure|HttpOnly|SameSite=(Strict|Lax))\s*['"`]|\bb?['"](secure|httponly)['"]|;\s*(HttpOnly|SameSite=Strict)\s*;/gi;

/** Arguments that carry what a check compares against. */
const CHECK_ARG =
  /host|hostname|server_?name|cert|key|secret|nonce|state|audience|issuer|subject|expected/i;

/** The rank of a privilege word (0 strongest), or -1. */
function rank(word: string): number {
  return PRIVILEGE_RANK.findIndex((re) => re.test(word));
}

/**
 * The setting shapes of one hunk.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { settingShapes } from "./guard_shapes_settings.ts";
 * const line = (n: number, text: string) => ({ l: { n, text }, c: text.trim() });
 * const removed = [line(3, "if request.user.is_authenticated and request.user.is_staff:")];
 * const added = [line(3, "if request.user.is_authenticated and request.user.is_active:")];
 * const v = { h: { removed: [], added: [] }, removed, added, addedCodes: new Set([added[0].c]) };
 * const ctx = {
 *   beforeCode: "", afterCode: "", afterLines: [], secure: () => true, body: () => "",
 *   fn: () => "", block: () => ({ body: "", after: "" }),
 * };
 * assert.match(settingShapes(v, ctx)[0].what, /is_staff.*is_active/);
 * ```
 */
export function settingShapes(
  { removed, added, addedCodes }: HunkView,
  ctx: ShapeContext,
): Shape[] {
  const out: Shape[] = [];
  for (const { l, c } of removed) {
    if (c === "" || addedCodes.has(c)) continue;
    for (const a of added) {
      if (a.c === "" || (!similarStart(c, a.c) && overlap(c, a.c) < 0.5)) continue;
      const wb: string[] = c.match(/[A-Za-z_$][\w$]*/g) ?? [];
      const wa: string[] = a.c.match(/[A-Za-z_$][\w$]*/g) ?? [];
      const gone = wb.filter((w) => !wa.includes(w));
      const fresh = wa.filter((w) => !wb.includes(w));
      // A privilege test moved down (`is_staff` → `is_active`): in a condition or a decorator, not
      // a role being assigned (`defaultRole || "admin"` → `"user"` gives less).
      const tested = condition(c) ?? (/^@/.test(c) ? c : null);
      const unquoted = (t: string) => t.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, " ");
      for (const g of tested === null ? [] : gone) {
        if (!new RegExp(`\\b${g}\\b`).test(unquoted(tested!))) continue;
        const rg = rank(g);
        // A negated test of the weaker word (`not user.is_active`) adds a way to fail instead.
        const weaker = rg < 0
          ? undefined
          : fresh.find((f) =>
            rank(f) > rg && !new RegExp(`(\\bnot\\s+|!)[\\w$.]*\\b${f}\\b`).test(a.c)
          );
        if (weaker) {
          out.push({ rule: "auth-check-removed", n: l.n, what: `\`${g}\` → \`${weaker}\`` });
        }
      }
      // An argument a check compares against given nothing (`SSL(True, hostname)` → `(True, None)`).
      for (const call of callNames(c)) {
        if (!callNames(a.c).includes(call)) continue;
        const name = lastName(call);
        const ab = args(c, call);
        const aa = args(a.c, call);
        if (ab.length !== aa.length) continue;
        const i = ab.findIndex((x, k) =>
          CHECK_ARG.test(x) && /^(None|null|nil|undefined|""|''|false|False)$/.test(aa[k])
        );
        if (i >= 0 && ctx.secure(l.n)) {
          out.push({
            rule: "secure-default-weakened",
            n: l.n,
            what: `\`${clip(ab[i])}\` no longer given to ${name}()`,
          });
        }
      }
      // A security keyword argument dropped from a line (`encode(x), ttl=self.max_age` → `encode(x)`).
      for (const kw of c.matchAll(/,\s*([\w$]+)\s*=(?!=)\s*[^,()]+/g)) {
        if (!SECURITY_ARG.test(`${kw[1]}=`)) continue;
        const without = c.replace(kw[0], "");
        if (without.replace(/\s+/g, "") === a.c.replace(/\s+/g, "") && ctx.secure(l.n)) {
          out.push({
            rule: "secure-default-weakened",
            n: l.n,
            what: `\`${kw[1]}\` no longer passed`,
          });
        }
      }
      // The list of what is checked shortened (`validatedMethods: ['post', 'put']` → `['post']`).
      // (A quoted key counts only in front of a list: `'JWT_VERIFY_CLAIMS': ['exp', …]`.)
      // (A list, not a comparison with a quoted value: `proto === 'https'`.)
      const listed = (t: string) =>
        CHECKED_LIST.test(t) && (!/['"]\s*[:=]/.test(t) || /[:=]\s*\[/.test(t)) &&
        /[[({,]\s*['"]/.test(t);
      if (listed(c) && listed(a.c)) {
        if (quotedItems(a.c) < quotedItems(c) && quotedItems(a.c) > 0) {
          out.push({ rule: "auth-check-removed", n: l.n, what: `fewer checked: \`${clip(a.c)}\`` });
        }
      }
      // A tolerance widened fivefold or more (clock skew, leeway, a code's window).
      if (TOLERANCE_NAME.test(c)) {
        const nb = lastNumber(c);
        const na = lastNumber(a.c);
        // (From none at all to any: a window opened where there was none.)
        if (
          ((nb > 0 && na >= nb * 5) || (nb === 0 && na > 0 && /\b0\b/.test(c))) && ctx.secure(l.n)
        ) {
          out.push({
            rule: "secure-default-weakened",
            n: l.n,
            what: `tolerance widened: ${nb} → ${na}`,
          });
        }
      }
    }
  }
  // A handler no longer wrapped by an auth layer (`h = auth_handler(users, h)` deleted).
  for (const { l, c } of removed) {
    const w =
      /^([\w$.]+)\s*=\s*([\w$.]*(?:auth|guard|protect|login|csrf|permission|secure)\w*)\((.*)\)\s*;?$/i
        .exec(c);
    if (
      !w || addedCodes.has(c) || !new RegExp(`\\b${w[1].replace(/[.$]/g, "\\$&")}\\b`).test(w[3])
    ) continue;
    out.push({ rule: "auth-check-removed", n: l.n, what: `no longer wrapped by ${w[2]}()` });
  }
  // A cookie's security attribute no longer written (`"; Secure"`, `b"httponly"`).
  const attrs = (xs: { c: string }[]) =>
    xs.reduce((k, x) => k + (x.c.match(COOKIE_ATTR) ?? []).length, 0);
  if (attrs(removed) > attrs(added)) {
    const at = removed.find((r) => new RegExp(COOKIE_ATTR.source, "i").test(r.c));
    if (at) {
      out.push({
        rule: "secure-default-weakened",
        n: at.l.n,
        what: `cookie attribute no longer set: \`${clip(at.c)}\``,
      });
    }
  }
  // A rejection handler that drops the error: `.then(done, done)` → `.catch(() => done())`.
  for (const { l, c } of added) {
    const m =
      /\.catch\(\s*\(\s*\w*\s*\)\s*=>\s*((?:[\w$]+\.)?(?:done|next|cb|callback|resolve))\(\s*(null|undefined)?\s*\)\s*\)/
        .exec(c);
    if (m && !ctx.beforeCode.includes(m[0])) {
      out.push({
        rule: "auth-check-removed",
        n: removed[0]?.l.n ?? l.n,
        what: `rejection dropped: \`${clip(m[0])}\``,
      });
    }
  }
  return out;
}
