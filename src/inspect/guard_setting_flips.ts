/**
 * Switches, settings and conditions read the other way round, one changed line against the line
 * that replaced it: a negation dropped from a switch that skips a check, a branch's condition or a
 * security setting's value inverted, a yes-answer's fallback made yes, a protective switch turned
 * off. Called by `guard_settings_lines.ts` for each pair of lines; pure.
 *
 * @module
 */
import { denies, PERMISSIVE, PROTECTIVE_NAME, SECURE_SETTING } from "./guard_vocab.ts";
import { clip, code, type Hunk, lastName, sameBody, underscored } from "./guard_text.ts";
import { GUARDING_SWITCH, SKIPS, yesAnswerLookup } from "./guard_settings_vocab.ts";

/** One flip: the rule and what was seen (about the removed line the caller names). */
export interface FlipSignal {
  rule: "auth-check-removed" | "secure-default-weakened";
  what: string;
}

/**
 * The flips of removed line `rc` (before-line `n` of hunk `h`) replaced by `ac`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { flipSignals } from "./guard_setting_flips.ts";
 * const rc = "\t\tSecure:   !insecureCookies,";
 * const ac = "\t\tSecure:   insecureCookies,";
 * const h = { removed: [{ n: 2, text: rc }], added: [{ n: 2, text: ac }] };
 * const env = { bl: ["c := &http.Cookie{", rc, "}"], ctx: rc, secure: () => true };
 * assert.match(flipSignals(h, 2, rc, ac, env)[0].what, /`Secure` inverted/);
 * assert.deepEqual(flipSignals(h, 2, ac, rc, env), []);
 * ```
 */
export function flipSignals(
  h: Hunk,
  n: number,
  rc: string,
  ac: string,
  env: {
    bl: string[];
    al?: string[];
    ctx: string;
    secure(n: number, extra: string): boolean;
  },
): FlipSignal[] {
  const out: FlipSignal[] = [];
  const push = (rule: FlipSignal["rule"], what: string) => out.push({ rule, what });
  // A negation dropped from a switch that turns a check off (`validate(p, sig, !opts.IgnoreTolerance)`
  // → `opts.IgnoreTolerance`): the check now runs only when asked to be skipped.
  // (Only a call's argument: in what a predicate grants, `isTLS || !insecure`, it is the fix.)
  for (
    const m of rc.matchAll(/(?<=[(,]\s*)(?:!\s*|\bnot\s+)([\w$]+(?:\.[\w$]+)*)(?=\s*[,)])/g)
  ) {
    const last = m[1].split(".").pop()!;
    if (!(PERMISSIVE.test(last) || SKIPS.test(last)) || PROTECTIVE_NAME.test(last)) continue;
    if (ac === rc.replace(m[0], m[1])) {
      push("auth-check-removed", `negation dropped from \`${m[1]}\`: \`${clip(ac)}\``);
    }
  }
  // A branch's condition or a security setting's value read the other way round, nothing
  // else changed (`if !cfg.Insecure {` → `if cfg.Insecure {`, `Secure: !insecure` →
  // `Secure: insecure`): the branch runs, or the setting holds, exactly when it should not.
  // (A setting turned the safe way round, `Secure: insecure` → `!insecure`, is the fix.)
  const flip = negationToggled(rc, ac);
  if (flip && SECURITY_TERM.test(lastName(flip.term)) && env.secure(n, env.ctx)) {
    const key = setKey(rc);
    // (A branch's body left as it was: an `if`/`else` swapped round changes more lines; a
    // negation inside a call's arguments, `verify(p, !o.Skip)`, is the argument's.)
    const branch = /^\s*(}\s*)?(if|elif|else\s+if|unless)\b/.test(rc) && flip.topLevel &&
      h.removed.length === 1 && h.added.length === 1 && sameBody(env.bl, n, env.al, h.added[0].n);
    const keyPermissive = PERMISSIVE.test(key) || SKIPS.test(key);
    const termPermissive = PERMISSIVE.test(flip.term) || SKIPS.test(flip.term);
    const setting = !branch && (SECURE_SETTING.test(key) || keyPermissive) &&
      /^\s*(?:(?:const|let|var)\s+)?['"]?[\w.$-]+['"]?\s*(?::=|=|:)\s*(!|not\b)?\s*[\w$.]+\s*[,;]?$/
        .test(flip.negatedNow ? ac : rc);
    // The setting is safe when a protective key holds a protective value (or a permissive
    // key a permissive one negated): after the edit it no longer is.
    const safeAfter = (keyPermissive === termPermissive) !== flip.negatedNow;
    // A branch that fails is entered when its check fails: made to fail on a check that
    // passes (or on a switch that skips not being set) it is the weakening; otherwise nothing
    // on the line says which way is right, and either way is read.
    const fails = branch && env.bl.slice(n, n + 3).some((t) => denies(code(t)));
    const weakens = !fails || (termPermissive === flip.negatedNow);
    if ((branch && weakens) || (setting && !safeAfter)) {
      push(
        "auth-check-removed",
        `${branch ? "condition" : `\`${key}\``} inverted: \`${clip(rc)}\` → \`${clip(ac)}\``,
      );
    }
  }
  // A yes-answer's fallback made yes (`entitlement.get("is_entitled", False)` → `True`,
  // `getattr(user, "is_staff", False)` → `True`): a missing answer now lets through.
  const fb = yesAnswerLookup(rc);
  if (
    fb && !fb.yes &&
    ac ===
      rc.replace(
        fb.call,
        fb.call.replace(
          /(False|false|None|null|0)(\s*\)\s*)$/,
          (_, v: string, t: string) => `${v === "false" || v === "null" ? "true" : "True"}${t}`,
        ),
      )
  ) {
    push("auth-check-removed", `\`${fb.key}\` now yes when missing: \`${clip(ac)}\``);
  }
  // A protective switch turned off (`corsDisallowCredentials: true` → `false`).
  const sw = /^['"]?([\w$.-]+)['"]?\s*[:=]\s*(true|True)\s*[,;]?$/.exec(rc);
  if (
    sw && GUARDING_SWITCH.test(underscored(sw[1])) &&
    ac === rc.replace(/\b(true|True)\b/, (v) => v === "true" ? "false" : "False")
  ) {
    push("secure-default-weakened", `\`${sw[1]}\` switched off: \`${clip(ac)}\``);
  }
  return out;
}

/** The name a line sets (`InsecureSkipVerify: …` → `InsecureSkipVerify`), or "". */
export function setKey(line: string): string {
  return /^\s*(?:(?:const|let|var)\s+)?['"]?([\w.$-]+)['"]?\s*(?::=|=|:)/.exec(line)?.[1] ?? "";
}

/** A name a condition or a setting turns on: security, a permission, or a check skipped. */
const SECURITY_TERM =
  /secur|verif|valid|auth|admin|permi|allow|trust|sign|login|owner|staff|role|insecure|unsafe|skip|bypass|ignore|csrf|tls|ssl|https|strict|protect|privat|public|anonymous|guest|restrict|readonly|read_?only|lock|expir|revok/i;

/**
 * The one negation `ac` adds to or takes from `rc`, nothing else changed: the term negated and
 * whether the after-line negates it.
 */
function negationToggled(
  rc: string,
  ac: string,
): { term: string; negatedNow: boolean; topLevel: boolean } | null {
  const [long, short, negatedNow] = rc.length > ac.length ? [rc, ac, false] : [ac, rc, true];
  if (long.length - short.length > 5) return null;
  for (
    const m of long.matchAll(/(?<![\w$)\]!])(?:!(?!=)\s*|\bnot\s+)([\w$]+(?:\.[\w$]+)*)(?![\w$])/g)
  ) {
    if (long.slice(0, m.index) + m[1] + long.slice(m.index! + m[0].length) === short) {
      // Outside any brackets but the condition's own (`if (…)`).
      let depth = 0;
      for (const ch of long.slice(0, m.index)) depth += ch === "(" ? 1 : ch === ")" ? -1 : 0;
      const own = /^\s*(}\s*)?(if|elif|else\s+if|unless)\s*\(/.test(long) ? 1 : 0;
      return { term: m[1], negatedNow, topLevel: depth === own };
    }
  }
  return null;
}
