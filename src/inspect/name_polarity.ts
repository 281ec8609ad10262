/**
 * Which way a name's yes points: whether a function or a verdict named `is_blocked`, `Expired` or
 * `requires_mfa` keeps someone out when it says yes (so its saying yes more often is stricter),
 * read by the structural counter and the changed-line signals alike. Pure.
 *
 * @module
 */

/** A name that refuses: its yes keeps someone out (unlike `skip`, `exempt`, `optional`, whose yes
 * lets through). */
export const REFUSES =
  /block|deni|deny|invalid|expir|revok|disabl|\bban|banned|lock|fail|reject|forbid|unauth|refus|blacklist|denylist|suspend/i;

/**
 * Whether a function's (or a verdict's) yes keeps someone out: it refuses (`is_blocked`,
 * `Expired`) or asks for more (`requires_mfa`). Its answer saying yes more often is stricter.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { yesKeepsOut } from "./name_polarity.ts";
 * assert.equal(yesKeepsOut("is_blocked"), true);
 * assert.equal(yesKeepsOut("requires_mfa"), true);
 * assert.equal(yesKeepsOut("_can_skip"), false);
 * assert.equal(yesKeepsOut("_is_no_auth_required"), false);
 * assert.equal(yesKeepsOut("IsValidExpiresAt"), false);
 * assert.equal(yesKeepsOut("has_required_scopes"), false);
 * assert.equal(yesKeepsOut("has_permission"), false);
 * ```
 */
export function yesKeepsOut(name: string): boolean {
  // (`no_auth_required`, `skip_if_blocked`: a negation in front turns the name around; a name
  // that also lets in, `IsValidExpiresAt`, `verify_otp`, `has_required_scopes`, says yes to pass.)
  return (REFUSES.test(name) || DEMANDS.test(name)) && !NEGATED_NAME.test(name) &&
    !LETS_IN.test(name);
}

/** A function name that demands more when it says yes (`requires_mfa`, `needsReauth`). */
const DEMANDS =
  /^_*([Ii]s_?|[Hh]as_?)?([Nn]eeds?|[Mm]ust|[Rr]equires)(?=_|[A-Z]|$)|[Ss]hould_?([Cc]heck|[Vv]erify|[Vv]alidate|[Ee]nforce|[Rr]equire)|_required$|Required$|^_*([Ee]nable|[Ee]nforce)_?\w*([Cc]srf|CSRF|[Pp]rotect|[Aa]uth|[Vv]erif|[Cc]heck|[Vv]alidat|[Hh]ttps|HTTPS|[Tt]ls|TLS|[Mm]fa|MFA)|([Cc]srf|CSRF|[Xx]srf|XSRF|[Aa]uth|[Vv]erif\w*|[Pp]rotect\w*|[Mm]fa|MFA)\w*(RunCondition|ShouldRun|_should_run|_run_condition)$/;
const LETS_IN =
  /[Vv]alid(?!at)|[Aa]llow|[Pp]ermit|[Gg]rant|[Tt]rust|[Vv]erified|[Aa]uthori[sz]ed|(^|_)ok(_|$)|[a-z]Ok([A-Z]|$)|^ok[A-Z]/;
const NEGATED_NAME =
  /(^|_)(no|not|non|without|skip\w*|exempt\w*|bypass\w*)_|^(no|not|non|without|skip|exempt|bypass)[A-Z]|[a-z](No|Not|Without|Skip|Exempt|Bypass)[A-Z]/;
