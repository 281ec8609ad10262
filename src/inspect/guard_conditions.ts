/**
 * The changed-line signal for conditions (`guard_lines.ts`): a removed `if`/`elif`/`while`/`return`
 * header paired with the added one of the same kind, and read for what it lets through — a
 * conjunct or a check dropped, a constant put in, `false &&` or `|| true` added, a `return` that
 * now says yes — in security code, and never for a requirement dropped from a branch that fails
 * or runs a check (which then runs more often: stricter).
 *
 * @module
 */
import { CONSTANT, FAILURE, NOT_A_DENIAL, PREDICATE, SECURITY, YES_ARM } from "./guard_vocab.ts";
import {
  assigned,
  bare,
  blockOf,
  callNames,
  clip,
  compares,
  condition,
  conjuncts,
  enclosing,
  headKind,
  type Hunk,
  isCheckCall,
  lastName,
  operands,
  securityWords,
  similarStart,
} from "./guard_text.ts";
import { terms } from "./guard_shape_vocab.ts";
import { yesKeepsOut } from "./name_polarity.ts";

/** What the caller knows about the edit around a hunk. */
export interface ConditionEnv {
  /** The before-text's lines. */
  bl: string[];
  /** Whether the file's path speaks of security. */
  pathSecure: boolean;
  /** The changed lines, or the function before-line `n` sits in, speak of security. */
  strong(n: number): boolean;
  /** Security code at before-line `n`: the path, the function, or the text around the hunk. */
  secure(n: number): boolean;
}

/**
 * Conditions weakened in one hunk, each with the before-line it is about.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { weakenedConditions } from "./guard_conditions.ts";
 * const bl = ["def view(request, user, p):", "    if user is not None and user.check_password(p):", "        return ok()"];
 * const h = {
 *   removed: [{ n: 2, text: bl[1] }],
 *   added: [{ n: 2, text: "    if user is not None:" }],
 * };
 * const env = { bl, pathSecure: true, strong: () => true, secure: () => true };
 * assert.match(weakenedConditions(h, [bl[1].trim()], ["if user is not None:"], env)[0].what, /condition weakened/);
 * ```
 */
export function weakenedConditions(
  h: Hunk,
  removedCode: string[],
  addedCode: string[],
  env: ConditionEnv,
): { n: number; what: string }[] {
  const out: { n: number; what: string }[] = [];
  for (let i = 0; i < h.removed.length; i++) {
    const r = h.removed[i];
    const rc = removedCode[i];
    const cb = condition(rc) ?? assigned(rc);
    if (cb === null || cb === "") continue;
    const kind = headKind(rc);
    const partner = addedCode.find((t) =>
      headKind(t) === kind &&
      (similarStart(rc, t) || CONSTANT.test((condition(t) ?? assigned(t) ?? "").trim()))
    );
    if (partner === undefined) continue;
    const ca = condition(partner) ?? assigned(partner);
    if (ca === null) continue;
    // (A yes for the case a check was skipped, `check() if c else True`, taken out: stricter.)
    if (
      YES_ARM.test(cb) && !YES_ARM.test(ca) && !CONSTANT.test(ca.trim()) && cb.includes(ca.trim())
    ) continue;
    const fn = bare(enclosing(env.bl, r.n));
    const inCheck = PREDICATE.test(fn) || SECURITY.test(fn);
    if ((kind === "return" || kind === "=") && !inCheck && !env.pathSecure) continue;
    const lost = callNames(cb).filter((c) => !ca.includes(lastName(c)));
    const fewerCompares = compares(ca) < compares(cb);
    // A predicate whose yes keeps someone out (`Denylisted`, `is_revoked`) is weakened when it
    // says no where it said yes or where it worked out its answer; its other answers are for
    // the no-way read below.
    const keepsOut = kind === "return" && yesKeepsOut(fn);
    const saysNo = /^\(?\s*(False|false|0|None|nil|null|undefined)\s*\)?;?$/.test(ca.trim());
    const weaker = keepsOut
      ? saysNo && (!CONSTANT.test(cb.trim()) || /^(true|True)\b/.test(cb.trim()))
      : (CONSTANT.test(ca.trim()) && !CONSTANT.test(cb.trim())) ||
        (CONSTANT.test(ca.trim()) && CONSTANT.test(cb.trim()) && ca.trim() !== cb.trim() &&
          kind === "return" && inCheck && /^\(?\s*(true|True|1)\b/.test(ca.trim())) ||
        // A check that now says yes where it said no.
        (kind === "return" && /^(false|False)\b/.test(cb.trim()) &&
          /^(true|True)\b/.test(ca.trim())) ||
        // `false &&` or `|| true` put into a condition.
        (/^(false|False)\s*(&&|and\b)|(\|\||\bor)\s*(true|True)\s*$/.test(
          ca.trim().replace(/^.*;\s*/, ""),
        ) &&
          !/(false|False)\s*(&&|and)|(\|\||or)\s*(true|True)/.test(cb)) ||
        (operands(ca) < operands(cb) &&
          (lost.some((c) => isCheckCall(c) || SECURITY.test(c)) ||
            securityWords(ca) < securityWords(cb) || (fewerCompares && inCheck) ||
            // A whole conjunct dropped from an `if` (`a and b` → `b`): one requirement fewer.
            (kind !== "return" && kind !== "=" && conjuncts(ca) < conjuncts(cb) &&
              ca.split(/&&|\band\b/).every((p) => cb.includes(p.trim())))));
    const flipped = kind === "return" &&
      (keepsOut ? /^(false|False)\b/ : /^(true|True)\b/).test(ca.trim());
    // A way to say no dropped from what a predicate that says no returns (`return notBefore(t)
    // || notAfter(t)` → `return notAfter(t)` in `Expired`).
    const noWayDropped = kind === "return" && yesKeepsOut(fn) &&
      terms(ca, "or").length < terms(cb, "or").length &&
      terms(ca, "or").every((t) => terms(cb, "or").includes(t));
    // A comparison or a check dropped from a branch's requirements, in security code.
    const bt = terms(cb, "and");
    const at = terms(ca, "and");
    const droppedCheck = kind !== "return" && kind !== "=" && at.length < bt.length &&
      at.every((t) => bt.includes(t)) &&
      bt.filter((t) => !at.includes(t)).some((t) =>
        /[=!<>]=|[<>]|\bin\b|\bis\b/.test(t) || callNames(t).some((c) => isCheckCall(c))
      );
    // A requirement dropped from a branch that fails, or runs a check, lets it run more often:
    // stricter, not weaker (`if ssl_verify and cafile: verify()` → `if ssl_verify: verify()`).
    const body = kind === "return" || kind === "=" ? "" : blockOf(env.bl, r.n).body;
    const protects = (FAILURE.test(body) && !NOT_A_DENIAL.test(body)) ||
      callNames(body).some((c) => isCheckCall(c));
    const onlyDropped = at.length < bt.length && at.every((t) => bt.includes(t));
    if (protects && onlyDropped && !flipped) continue;
    // A way in dropped from a branch that lets through (`if (isMatch || token) return cb(null,
    // user)` → `if (isMatch)`) is stricter too.
    const bo = terms(cb, "or");
    const ao = terms(ca, "or");
    const wayInDropped = kind !== "return" && kind !== "=" && ao.length < bo.length &&
      ao.every((t) => bo.includes(t));
    const grants =
      /\breturn\s+(true|True)\b|\b(cb|callback|done)\(\s*null\s*,\s*(?!false\b|null\b)\w/
        .test(body);
    if (wayInDropped && grants && !protects && !flipped) continue;
    if (
      (weaker && (env.strong(r.n) || (flipped && env.secure(r.n)))) ||
      (droppedCheck && env.secure(r.n)) || (noWayDropped && env.secure(r.n))
    ) {
      out.push({ n: r.n, what: `condition weakened: \`${clip(cb)}\` → \`${clip(ca)}\`` });
    }
  }
  return out;
}
