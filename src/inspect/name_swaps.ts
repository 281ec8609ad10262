/**
 * A word of a line swapped for another, and whether the swap weakens: a deny turned allow, a
 * prefix check made a substring check, a verifying word dropped from a name
 * (`get_secure_cookie` → `get_cookie`), a privilege lowered inside a word (`"manage"` →
 * `"view"`, `newLoggedInMiddleware` → `newGuestMiddleware`). Read by the setting signals for each
 * pair of changed lines; pure.
 *
 * @module
 */
import { GATE_WORD, loweredPrivilege, segments } from "./guard_term_polarity.ts";

/**
 * The words (identifiers, and words inside strings) line `rc` has and `ac` lacks (`gone`, in
 * order, repeats kept), and those `ac` has and `rc` lacks (`fresh`, once each).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changedWords } from "./name_swaps.ts";
 * assert.deepEqual(changedWords('role = "admin"', 'role = "user"'), { gone: ["admin"], fresh: ["user"] });
 * ```
 */
export function changedWords(rc: string, ac: string): { gone: string[]; fresh: string[] } {
  const words = (t: string): string[] => t.match(/[A-Za-z_$][\w$]*/g) ?? [];
  const wb = words(rc);
  const wa = new Set(words(ac));
  return { gone: wb.filter((w) => !wa.has(w)), fresh: [...wa].filter((w) => !wb.includes(w)) };
}

/** A change that flips a deny to an allow, or drops a verifying word from a name. */
export function weakerName(rc: string, ac: string): [string, string] | null {
  const { gone, fresh } = changedWords(rc, ac);
  for (const g of gone) {
    if (/den(y|ied)|reject|forbid|refuse|unauthori/i.test(g)) {
      // (`UnauthorizedException` → `UnAuthorizedException` is the same name spelt another way.)
      const f = fresh.find((x) =>
        /allow|accept|permit|grant|authori[sz]ed/i.test(x) && x.toLowerCase() !== g.toLowerCase()
      );
      if (f) return [g, f];
    }
    // A prefix or suffix check made a substring check (`startsWith` → `includes`).
    // (Python's `in` and `find` also test a list or a position: left alone; both are calls.)
    if (
      /^(startsWith|startswith|hasPrefix|HasPrefix|endsWith|endswith|hasSuffix|HasSuffix)$/.test(g)
    ) {
      const f = fresh.find((x) => /^(includes|contains|Contains)$/.test(x));
      if (f && new RegExp(`[.\\s]${g}\\(`).test(rc) && new RegExp(`[.\\s]${f}\\(`).test(ac)) {
        return [g, f];
      }
    }
    // A pattern matched anywhere instead of from the start (`re.match` → `re.search`).
    if (/^(full)?match$/.test(g) && fresh.includes(g === "match" ? "search" : "match")) {
      return [g, g === "match" ? "search" : "match"];
    }
    const m =
      /^(.*?)(Signed|Verified|Verify|Secure|Strict|Safe|Checked|Check|Validated|Validate|Trusted|Https|HTTPS|Tls|TLS|Ssl|SSL|SIGNED|VERIFIED|SECURE|STRICT|SAFE|CHECKED|VALIDATED|TRUSTED)(.*)$/
        .exec(g);
    if (m && fresh.includes(m[1] + m[3]) && m[1] + m[3] !== "") return [g, m[1] + m[3]];
    // snake_case: `get_secure_cookie` → `get_cookie`, `verify_signed_token` → `verify_token`.
    const snake = g.replace(
      /_(signed|secure|verified|safe|strict|checked|validated|trusted)(?=_|$)/i,
      "",
    );
    if (snake !== g && fresh.includes(snake)) return [g, snake];
  }
  return null;
}

/**
 * A privilege lowered inside a word of the line (`permission="manage"` → `"view"`,
 * `newLoggedInMiddleware` → `newGuestMiddleware`), read the way the term shapes read one.
 */
export function privilegeSwap(rc: string, ac: string): [string, string] | null {
  const { gone, fresh } = changedWords(rc, ac);
  // (A bare privilege word, `"manage"`, counts where the line names permissions or roles.)
  const single = /perm|role|access|scope|level/i.test(rc);
  // (A role given, `|| "admin"` → `|| "user"`, grants less when lowered; a constant is no role.)
  const granted = (w: string) =>
    new RegExp(`(\\|\\||\\?\\?|\\bor|default\\w*['"]?\\s*[:=])\\s*['"\`]?${w}\\b`).test(rc) ||
    new RegExp(
      `^\\s*(const|let|var)?\\s*[\\w$.]*(role|level|group)\\w*\\s*:?=\\s*['"\`]?${w}\\b`,
      "i",
    ).test(rc);
  for (const g of gone) {
    for (const f of fresh) {
      if (/^(none|null|nil|true|false|undefined)$/i.test(f)) continue;
      const low = loweredPrivilege(g, f, single);
      if (!low) continue;
      // (The rest of the name says it gates, `newLoggedInMiddleware`; `WriteTimeout`,
      // `privateKey` and `CERT_REQUIRED` hold data or settings read elsewhere.)
      const kept = segments(g).filter((w) => segments(f).includes(w));
      if (segments(g).length > 1 && !kept.some((w) => GATE_WORD.test(w))) continue;
      if (granted(g)) break;
      return low;
    }
  }
  return null;
}

/** Whether two lines differ in one word only (`newLoggedInMiddleware(s)` → `newGuestMiddleware(s)`). */
export function oneWordApart(rc: string, ac: string): boolean {
  let i = 0;
  while (i < rc.length && i < ac.length && rc[i] === ac[i]) i++;
  let j = 0;
  while (
    j < rc.length - i && j < ac.length - i && rc[rc.length - 1 - j] === ac[ac.length - 1 - j]
  ) j++;
  while (i > 0 && /[\w$]/.test(rc[i - 1])) i--;
  while (j > 0 && /[\w$]/.test(rc[rc.length - j])) j--;
  return /^[\w$]+$/.test(rc.slice(i, rc.length - j)) && /^[\w$]+$/.test(ac.slice(i, ac.length - j));
}
