/**
 * What a term put beside a failing branch's condition is when it is no requirement that lets more
 * through (error handling, a value tested for being there, a check added), and what a block that
 * puts a protection on looks like: read by the condition, term and removal shapes. Pure.
 *
 * @module
 */
import { callNames, isCheckCall } from "./guard_text.ts";

/** A test of which error it is (`errors.Is(err, …)`, `isinstance(e, …)`, `e.code === …`). */
const ERROR_KIND =
  /\berrors\.(Is|As)\(|\bisinstance\(|\binstanceof\b|\b(err|error|e|ex|exc)\.(code|name|status)\b|\bErr[A-Z]\w*|\w(Error|Exception)\b|NotFound|NotExist|DoesNotExist|ENOENT/;

/** A test that a value is there at all (`info != nil`), put in to avoid a crash. */
const NOT_NIL = /^[\w$.]+\s*(!==?\s*(nil|null|undefined)|is\s*not\s*None)$/;

/** An error a check raises: the token expired, the signature did not match, access denied. */
const CHECK_ERROR =
  /expir|invalid|signature|mismatch|token|auth|denied|forbidden|permission|verif|credential|password|csrf|revoked|unauthori/i;

/**
 * Whether a term put beside a failing branch's condition is no requirement that lets more through:
 * a test of which error it is, a test that a value is there (error handling), or a check whose
 * failure the branch now waits for (a check added).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { noRequirement } from "./guard_requirements.ts";
 * assert.ok(noRequirement("!errors.Is(err, ErrNotFound)") && noRequirement("info != nil"));
 * assert.ok(noRequirement("not verify(token, key)"));
 * assert.ok(!noRequirement("redirectTo") && !noRequirement("!errors.Is(err, ErrTokenExpired)"));
 * ```
 */
export function noRequirement(term: string): boolean {
  // (An error of a check let through, `ErrTokenExpired`, is the check given an exception.)
  return (ERROR_KIND.test(term) && !CHECK_ERROR.test(term)) || NOT_NIL.test(term.trim()) ||
    callNames(term).some((c) => isCheckCall(c));
}

/** A block that puts a protection on: a middleware or a check installed. */
export const PUTS_ON =
  /\.(use|register|add_?middleware|before_?request|addHook)\(\s*[\w$.]*(auth|csrf|helmet|limit|protect|guard|session|basic|bearer|jwt|verify|secure)/i;
