/**
 * The setting and value signals of the changed-line layer, per hunk: a secure value weakened in
 * place (`CERT_REQUIRED` → `CERT_NONE`, `'lax'` → `'none'`) or a check's name swapped for a weaker
 * one, a permissive switch turned on, a file mode opened, a default-on option made default-off,
 * TLS dropped from a URL, a security limit raised, a security argument no longer passed, a
 * verifying call given fewer arguments, a branch's condition narrowed, a security header no longer
 * set; switches and conditions read the other way round are `guard_setting_flips.ts`'s. Called by
 * `guard_lines.ts` for each hunk; pure.
 *
 * @module
 */
import {
  DEFAULT_ON,
  LIMIT_NAME,
  PERMISSIVE,
  PREDICATE,
  PROTECTIVE_NAME,
  SECURE_RANDOM,
  SECURE_SETTING,
  SECURITY,
  SECURITY_ARG,
  SECURITY_HEADER,
  STRONG_TO_WEAK,
  WEAK_RANDOM,
} from "./guard_vocab.ts";
import {
  argCount,
  args,
  bare,
  callNames,
  clip,
  enclosing,
  type Hunk,
  isCheckCall,
  lastName,
  modeOpened,
  overlap,
  similar,
  underscored,
} from "./guard_text.ts";
import { oneWordApart, privilegeSwap, weakerName } from "./name_swaps.ts";
import { flipSignals, setKey } from "./guard_setting_flips.ts";
import { madeDefault, ownerLeaning, valueSwap } from "./value_swaps.ts";
import { narrowedBranch } from "./guard_branch_narrowing.ts";
import {
  FALLBACK_LOOPBACK,
  GUARDING_SWITCH,
  LISTENER,
  LOOPBACK,
  yesWhenMissing,
} from "./guard_settings_vocab.ts";

/** Predicates whose `true` applies a protection (`_should_handle`, `needs_mfa`, `require_login`). */
const ENFORCING =
  /^(should_?(handle|check|verify|validate|enforce|require|protect|apply|run|prompt|challenge)|needs?_?|must_?|require|enforce)|_?required$/i;

/** A name that grants: its default on lets more through. */
const GRANT_NAME = /admin|owner|(?<![Dd]is)allow|grant|trust|privileg|super_?user|superuser/i;

/** Words joined by dashes read as one name (`ignore-certificate-errors`). */
function undash(c: string): string {
  return c.replace(/(?<=[A-Za-z])-(?=[A-Za-z])/g, "_");
}

/** Whether the first change between two lines falls inside a call's parentheses. */
function inArguments(rc: string, ac: string): boolean {
  let i = 0;
  while (i < rc.length && rc[i] === ac[i]) i++;
  let depth = 0;
  for (const ch of rc.slice(0, i)) depth += ch === "(" ? 1 : ch === ")" ? -1 : 0;
  return depth > 0;
}

/** What the caller knows about the file around a hunk. */
export interface SettingEnv {
  /** The before-text's lines. */
  bl: string[];
  /** The after-text's lines (what follows a changed line there). */
  al?: string[];
  /** Whether the path itself is about security. */
  pathSecure: boolean;
  /** The hunk's text with a few lines around it (a setting may be named just above). */
  ctx: string;
  /** The added lines' code, joined. */
  addedText: string;
  /** Security code, from the path, the function, or `extra` text around the change. */
  secure(n: number, extra: string): boolean;
  /** The changed lines themselves, or the function they sit in, speak of security. */
  strong(n: number, h: Hunk): boolean;
}

/** One signal: the rule, the before-line it is about and what was seen. */
export interface SettingSignal {
  rule: "auth-check-removed" | "crypto-verification-removed" | "secure-default-weakened";
  n: number;
  what: string;
}

/**
 * The setting signals of hunk `h` (its removed and added lines' code given), in the order they
 * are found.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { settingLineFindings } from "./guard_settings_lines.ts";
 * const bl = ["ctx = ssl.create_default_context()", "ctx.verify_mode = ssl.CERT_REQUIRED"];
 * const h = { removed: [{ n: 2, text: bl[1] }], added: [{ n: 2, text: "ctx.verify_mode = ssl.CERT_NONE" }] };
 * const env = {
 *   bl, pathSecure: true, ctx: bl.join("\n"), addedText: h.added[0].text,
 *   secure: () => true, strong: () => true,
 * };
 * const [s] = settingLineFindings(h, [bl[1]], [h.added[0].text], env);
 * assert.equal(s.rule, "secure-default-weakened");
 * assert.match(s.what, /CERT_REQUIRED/);
 * ```
 */
export function settingLineFindings(
  h: Hunk,
  removedCode: string[],
  addedCode: string[],
  env: SettingEnv,
): SettingSignal[] {
  const { bl, pathSecure, ctx, addedText, secure, strong } = env;
  const out: SettingSignal[] = [];
  const add = (rule: SettingSignal["rule"], n: number, what: string) => out.push({ rule, n, what });
  const late: SettingSignal[] = [];
  // What names the setting on before-line `n` (`rc`): the line, its words joined by dashes read
  // as one (`"ignore-certificate-errors"`); a bare value (`default=False,`) is named on the lines
  // above it.
  const nameOf = (n: number, rc: string) =>
    undash(
      /^([Dd]efault\s*[=:]\s*)?[\w$.'"]+\s*,?$/.test(rc)
        ? [...bl.slice(Math.max(0, n - 3), n - 1), rc].join(" ")
        : rc,
    );
  // (Where a value sits, read only when a swap asks: the lines above, security.)
  const place = (n: number) => {
    let above: string | undefined;
    let sec: boolean | undefined;
    return {
      get above() {
        return above ??= bl.slice(Math.max(0, n - 4), n - 1).join("\n");
      },
      get secure() {
        return sec ??= secure(n, ctx);
      },
    };
  };
  // Secure values weakened in place, or a check's name swapped for a weaker one.
  for (let i = 0; i < h.removed.length; i++) {
    const r = h.removed[i];
    const rc = removedCode[i];
    for (const ac of addedCode) {
      const sameStart = /^\s*(\w+)/.exec(rc)?.[1] === /^\s*(\w+)/.exec(ac)?.[1];
      // (`d == Deny` → `d != Allow` says the same thing the other way round.)
      const flipped = /!==?/.test(rc) !== /!==?/.test(ac);
      const close = overlap(rc, ac) >= 0.4 || sameStart;
      // (A privilege lowered is looked for only where it could be reported: in lines alike, or
      // one word apart.)
      const swap = weakerName(rc, ac) ??
        (!flipped && (close || oneWordApart(rc, ac)) ? privilegeSwap(rc, ac) : null);
      // (One name swapped and nothing else changed is the same statement too.)
      const sameStatement = close || (swap !== null && rc.replace(swap[0], swap[1]) === ac);
      if (swap && !flipped && sameStatement && secure(r.n, ctx)) {
        add("auth-check-removed", r.n, `\`${swap[0]}\` → \`${swap[1]}\``);
      }
      // One value swapped, read by the words of what holds it (value_swaps.ts); said after the
      // readings above, which name the setting's own line.
      // (A bare value on its own line, `False` → `True`, is named above it.)
      const bareValue = /^\s*[\w$'"]+,?\s*$/.test(rc) && /^\s*[\w$'"]+,?\s*$/.test(ac);
      const vs = close || bareValue ? valueSwap(rc, ac, place(r.n)) : null;
      if (vs) late.push({ rule: vs.rule, n: r.n, what: vs.what });
      const md = madeDefault(rc, ac);
      if (md && secure(r.n, ctx)) {
        const what = `\`${md}\` now only a default: what the request brought wins`;
        late.push({ rule: "auth-check-removed", n: r.n, what });
      }
      if (!similar(rc, ac)) continue;
      const settingNamed = SECURE_SETTING.test(rc) || SECURE_SETTING.test(ctx);
      // A `return` that says no more often, or a permissive setting (`lax`, `allow_…`,
      // `forward_…_headers`) turned off, is the strict side.
      // (A predicate whose yes enforces, `_should_handle`, `needs_mfa`, is the other way round.)
      // (A flip inside a call's arguments, `WithValidate(true)`, is no answer; a protective
      // name, `clear_untrusted_proxy_headers`, is not a permissive one.)
      const strictSide = (/^\s*return\b/.test(rc) && !ENFORCING.test(bare(enclosing(bl, r.n))) &&
        !inArguments(rc, ac)) ||
        (PERMISSIVE.test(nameOf(r.n, rc)) && !PROTECTIVE_NAME.test(nameOf(r.n, rc))) ||
        // (What owns the value lets through when on: `accept_anonymous`, `let success`.)
        ownerLeaning(rc, ac, place(r.n)) > 0;
      // (A type annotation may name every value: read the one assigned.)
      const assignedValue = (t: string) =>
        /(?<![=!<>])=(?!=)\s*([^=]+?)\s*[,;)]?$/.exec(t)?.[1] ?? t;
      const [vr, va] = [assignedValue(rc), assignedValue(ac)];
      for (const [strong, weak] of STRONG_TO_WEAK) {
        const whole = strong.test(rc) && weak.test(ac) && !strong.test(ac);
        const value = vr !== rc && strong.test(vr) && weak.test(va) && !strong.test(va);
        if (!(whole || value) || !settingNamed) continue;
        if (strictSide) continue;
        // (A bound in a branch's comparison, `if users > 1` → `> 0`, is no switch turned off.)
        if (strong.test("1") && /^\s*(}\s*)?(if|elif|else\s+if|while)\b.*[<>]/.test(rc)) {
          continue;
        }
        // (A yes-answer's fallback made no, `.get("is_admin", True)` → `False`, is stricter.)
        if (yesWhenMissing(rc)) continue;
        add("secure-default-weakened", r.n, `\`${clip(rc)}\` → \`${clip(ac)}\``);
      }
    }
  }

  // Permissive settings switched on, file modes opened to others, security headers no longer
  // set, a default-on option turned default-off, and failure conditions narrowed.
  for (let i = 0; i < h.removed.length; i++) {
    const r = h.removed[i];
    const rc = removedCode[i];
    const named = nameOf(r.n, rc);
    // (`corsDisallowCredentials` holds `allowCredentials` but says no to them.)
    const permissive = PERMISSIVE.test(named) && !PROTECTIVE_NAME.test(named) &&
      !GUARDING_SWITCH.test(underscored(named));
    const count = (re: RegExp, t: string) => t.match(re)?.length ?? 0;
    for (const ac of addedCode) {
      // A permissive switch now also on in other cases (`InsecureSkipVerify: o.Skip` → `o.Skip ||
      // o.CAPath == ""`): it skips where it did not.
      // (The switch is what is set, not a value read on the way: `r = get('debug') || …`.)
      if (permissive && orWidened(rc, ac) && PERMISSIVE.test(setKey(rc))) {
        add("secure-default-weakened", r.n, `\`${setKey(rc)}\` on in more cases: \`${clip(ac)}\``);
      }
      // Secure randomness replaced by a guessable one (`secrets.choice` → `random.choice`).
      if (SECURE_RANDOM.test(rc) && WEAK_RANDOM.test(ac) && !SECURE_RANDOM.test(ac)) {
        add("crypto-verification-removed", r.n, `guessable randomness: \`${clip(ac)}\``);
      }
      // A protection on made opt-in (`'tools.auth_basic.on': True` → `options.get('http_auth',
      // False)`): off unless someone configures it.
      // (Or a secure value worked out otherwise: `secure = proto == "https"` →
      // `os.environ.get("SECURE_COOKIES", "false") == "true"`.)
      const on = /^(['"]?[\w.$-]+['"]?\s*[:=]\s*)(.+?)\s*(,?)$/.exec(rc);
      if (
        on && SECURE_SETTING.test(on[1]) && !PERMISSIVE.test(on[1]) &&
        ac.startsWith(on[1].trim()) &&
        !/\b(false|False|None|null)\b|['"](false|0|no|off)['"]/.test(on[2]) &&
        /[(,]\s*(False|false)\s*\)\s*,?$|\|\|\s*false\s*,?$|\?\?\s*false\s*,?$|\.get\(\s*['"][\w-]+['"]\s*,\s*['"](false|0|no|off)['"]\s*\)/
          .test(ac)
      ) {
        add("secure-default-weakened", r.n, `made opt-in: \`${clip(rc)}\` → \`${clip(ac)}\``);
      }
      // A permissive switch's value made a constant yes (`envBool("…_SKIP_VERIFY")` → `true`).
      if (
        permissive && /^([\w$.'"]+\s*[:=]\s*)?(true|True)\s*[,;)]?$/.test(ac) &&
        !/\b(false|False|true|True)\b/.test(rc)
      ) {
        add("secure-default-weakened", r.n, `\`${clip(rc)}\` → \`${clip(ac)}\``);
      }
      if (!similar(rc, ac) && overlap(rc, ac) < 0.5) continue;
      // (Counted: `os.environ.get("TRUST_PROXY", "False") == "true"` → `"True"` says yes more.)
      if (
        // (`is not False` → `is True` is no switch turned on: it lets fewer through.)
        permissive && !/(\bis\s+not|!==?)\s*(false|False)\b/.test(rc) &&
        count(/\b(false|False|0|null|None|nil)\b/g, rc) >
          count(/\b(false|False|0|null|None|nil)\b/g, ac) &&
        count(/\b(true|True|1)\b/g, ac) > count(/\b(true|True|1)\b/g, rc)
      ) {
        add("secure-default-weakened", r.n, `\`${clip(rc)}\` → \`${clip(ac)}\``);
      }
      if (
        (/chmod|mkdir|open|write|mode|perm|umask|create/i.test(rc) ||
          /\b0o[0-7]{3}\b/.test(rc)) &&
        modeOpened(rc, ac)
      ) {
        add(
          "secure-default-weakened",
          r.n,
          `file mode opened: \`${clip(rc)}\` → \`${clip(ac)}\``,
        );
      }
      // A permissive switch made on unless switched off (`if (allow_self_signed)` → `!== false`).
      if (permissive && !DEFAULT_ON.test(rc) && DEFAULT_ON.test(ac)) {
        add("secure-default-weakened", r.n, `default on: \`${clip(rc)}\` → \`${clip(ac)}\``);
      }
      if (
        DEFAULT_ON.test(rc) && !DEFAULT_ON.test(ac) && (pathSecure || SECURE_SETTING.test(rc)) &&
        // (A switch that skips a check, or a grant, on by default is the weak side.)
        !permissive && !GRANT_NAME.test(`${rc} ${enclosing(bl, r.n)}`) && !yesWhenMissing(rc)
      ) {
        add(
          "secure-default-weakened",
          r.n,
          `default on removed: \`${clip(rc)}\` → \`${clip(ac)}\``,
        );
      }
      // Switches, settings and conditions read the other way round (guard_setting_flips.ts).
      for (const f of flipSignals(h, r.n, rc, ac, env)) add(f.rule, r.n, f.what);
      // A lockout or attempt limit set to 0: no limit at all.
      if (LIMIT_NAME.test(rc) && /(?<![\w.])0\s*[,;)]?\s*$/.test(ac) && similar(rc, ac)) {
        const nb = Number(/\b(\d+)\b(?!.*\b\d+\b)/.exec(rc)?.[1]);
        if (nb > 0) add("secure-default-weakened", r.n, `limit switched off: ${nb} → 0`);
      }
      // A listener opened from this machine to every interface (`bind_address = 127.0.0.1` →
      // `0.0.0.0`), or its loopback fallback dropped (`listen(0, host || '127.0.0.1')` →
      // `listen(0, host)`).
      const loopback = LOOPBACK.exec(rc);
      const every = (to: string) =>
        rc.replace(
          loopback![0],
          loopback![0].startsWith("IPv4")
            ? "IPv4(0, 0, 0, 0)"
            : loopback![0].replace(/127\.0\.0\.1|localhost|::1/, to),
        ).replace(/\s+/g, "");
      if (
        loopback && (LISTENER.test(rc) || LISTENER.test(named)) &&
        (ac.replace(/\s+/g, "") === every("0.0.0.0") || ac.replace(/\s+/g, "") === every("::") ||
          (FALLBACK_LOOPBACK.test(rc) &&
            ac.replace(/\s+/g, "") === rc.replace(FALLBACK_LOOPBACK, "").replace(/\s+/g, "")))
      ) {
        add("secure-default-weakened", r.n, `listener opened beyond this machine: \`${clip(ac)}\``);
      }
      // TLS dropped from a URL (`https://` → `http://`, `wss://` → `ws://`).
      if (
        /\b(https|wss):\/\//.test(rc) &&
        rc.replace(/\b(http|ws)s:\/\//g, "$1://") === ac && !/\/\/(localhost|127\.)/.test(ac)
      ) add("secure-default-weakened", r.n, `TLS dropped: \`${clip(ac)}\``);
      // `or` and `and` swapped in what a check returns (`blocked = ip or user` → `ip and user`).
      if (
        /^\s*return\b/.test(rc) && rc.replace(/\band\b|&&/g, "or").replace(/\|\|/g, "or") ===
          ac.replace(/\band\b|&&/g, "or").replace(/\|\|/g, "or") &&
        rc !== ac &&
        (PREDICATE.test(bare(enclosing(bl, r.n))) || SECURITY.test(enclosing(bl, r.n)))
      ) add("auth-check-removed", r.n, `\`${clip(rc)}\` → \`${clip(ac)}\``);
      // A security limit raised tenfold or more (`FAILURE_LIMIT … 3` → `3000`).
      if (LIMIT_NAME.test(rc) && similar(rc, ac)) {
        const nb = Number(/\b(\d+)\b(?!.*\b\d+\b)/.exec(rc)?.[1]);
        const na = Number(/\b(\d+)\b(?!.*\b\d+\b)/.exec(ac)?.[1]);
        if (nb > 0 && na >= nb * 10) {
          add("secure-default-weakened", r.n, `limit raised: ${nb} → ${na}`);
        }
      }
      // A security argument dropped from a call (`parse(resp, state=self._state)` → `parse(resp)`).
      for (const c of callNames(rc)) {
        if (!callNames(ac).includes(c)) continue;
        const dropped = args(rc, c).filter((x) => !args(ac, c).includes(x));
        const sec = dropped.find((x) => SECURITY_ARG.test(x));
        if (sec && argCount(ac, c) < argCount(rc, c) && secure(r.n, ctx)) {
          add(
            "secure-default-weakened",
            r.n,
            `\`${clip(sec)}\` no longer passed to ${lastName(c)}()`,
          );
        }
      }
      // A verifying call given fewer arguments (`totp.verify(t, tol, last + 1)` → `(t, tol)`).
      for (const c of callNames(rc)) {
        if (!isCheckCall(c) || !callNames(ac).includes(c)) continue;
        // (An argument that relaxed the check going is the check made whole again.)
        const gone = args(rc, c).filter((x) => !args(ac, c).includes(x));
        const relaxed = gone.some((x) =>
          /^(optional|allow_?\w+|skip_?\w+|insecure|unsafe|lenient)\s*[=:]\s*(True|true)$|^(required|strict|verify|check|enforce)\s*[=:]\s*(False|false)$/
            .test(x)
        );
        if (argCount(ac, c) < argCount(rc, c) && !relaxed && secure(r.n, ctx)) {
          add("crypto-verification-removed", r.n, `${lastName(c)}() given fewer arguments`);
        }
      }
      // A branch's condition narrowed (guard_branch_narrowing.ts).
      const nw = narrowedBranch(rc, ac, bl, r.n);
      if (nw && strong(r.n, h)) add("auth-check-removed", r.n, nw);
    }
    if (SECURITY_HEADER.test(rc) && !SECURITY_HEADER.test(addedText)) {
      add("secure-default-weakened", r.n, `security header no longer set: \`${clip(rc)}\``);
    }
  }
  return [...out, ...late];
}

/** Whether `ac` is setting `rc` with its value given an alternative (`v` → `v || w`). */
function orWidened(rc: string, ac: string): boolean {
  const base = rc.replace(/[,;]\s*$/, "").trimEnd();
  const next = ac.replace(/[,;]\s*$/, "").trimEnd();
  return /[:=]/.test(base) && next.startsWith(base) &&
    /^\s*(\|\||\bor\b)\s*\S/.test(next.slice(base.length));
}
