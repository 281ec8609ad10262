/**
 * The names and values the setting signals (`guard_settings_lines.ts`) read a setting by: a
 * yes-answer looked up with a fallback, a switch whose `true` keeps out or skips a check, where a
 * server listens and the loopback addresses that keep it on this machine. Pure.
 *
 * @module
 */

/**
 * A lookup of a yes-answer by its name with a fallback (`d.get("is_entitled", False)`,
 * `getattr(u, "is_staff", True)`): the call, the key and whether the fallback is yes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { yesAnswerLookup } from "./guard_settings_vocab.ts";
 * assert.equal(yesAnswerLookup('d.get("is_entitled", False)')?.key, "is_entitled");
 * assert.equal(yesAnswerLookup('d.get("colour", False)'), null);
 * ```
 */
export function yesAnswerLookup(line: string): { call: string; key: string; yes: boolean } | null {
  const m =
    /\b(?:get|getattr|get_bool|getBoolean|getOrDefault)\s*\((?:[^,()]*,\s*)?['"]([\w-]+)['"]\s*,\s*(True|true|1|False|false|None|null|0)\s*\)/
      .exec(line);
  return m && YES_KEY.test(m[1])
    ? { call: m[0], key: m[1], yes: /^(True|true|1)$/.test(m[2]) }
    : null;
}

/**
 * Whether a line looks a yes-answer up with a yes fallback (`.get("is_admin", True)`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { yesWhenMissing } from "./guard_settings_vocab.ts";
 * assert.equal(yesWhenMissing('getattr(u, "is_staff", True)'), true);
 * ```
 */
export function yesWhenMissing(line: string): boolean {
  return yesAnswerLookup(line)?.yes === true;
}

/** A key whose yes lets someone through. */
const YES_KEY =
  /^(is|has|can)_?[a-z_]*(entitled|allowed|permitted|authori[sz]ed|authenticated|admin|staff|super_?user|verified|active|owner|member|approved|trusted)|^(entitled|allowed|permitted|authori[sz]ed|verified|approved|trusted)$|^allow_\w+$/i;

/** A switch whose `true` keeps something out (`disallow_credentials`, `deny_framing`). */
export const GUARDING_SWITCH = /(^|_)(disallow|deny|block|forbid|prevent|reject|strip)(_|$)/i;

/** A switch name that skips a check when it is on (`IgnoreTolerance`, `skipVerify`). */
export const SKIPS = /ignore|skip|disable|bypass|insecure|unsafe|no_?verify|noVerify|NoVerify/i;

/** A loopback address as a value (quoted or not). */
export const LOOPBACK =
  /(['"]?)(127\.0\.0\.1|localhost|::1)\1(?![\w.:])|\bIPv4\(\s*127\s*,\s*0\s*,\s*0\s*,\s*1\s*\)/;
/** A loopback address given as the fallback of a host (`host || '127.0.0.1'`, `?? "localhost"`). */
export const FALLBACK_LOOPBACK = /\s*(\|\||\?\?|\bor\b)\s*(['"])(127\.0\.0\.1|localhost|::1)\2/;
/** What names where a server listens. */
export const LISTENER = /bind|listen|host|address|interface|\baddr\b|server_?name/i;
