/**
 * Identifiers the plane hands out: action ids (`act_` + 12 hex). Session ids (`ses_` + 12 hex) come
 * from `newSessionId` in ledger.ts.
 *
 * @module
 */
import { randomBytes } from "node:crypto";

/** Pattern of a session id. */
export const SESSION_ID_RE = /^ses_[0-9a-f]{12}$/;
/** Pattern of an action id. */
export const ACTION_ID_RE = /^act_[0-9a-f]{12}$/;

/**
 * A fresh random action id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { newActionId } from "./ids.ts";
 * assert.match(newActionId(), /^act_[0-9a-f]{12}$/);
 * ```
 */
export function newActionId(): string {
  return `act_${randomBytes(6).toString("hex")}`;
}

/**
 * True when `s` has the shape of an action id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isActionId } from "./ids.ts";
 * assert.deepEqual(isActionId("act_0123456789ab"), true);
 * assert.deepEqual(isActionId("ses_0123456789ab"), false);
 * ```
 */
export function isActionId(s: string): boolean {
  return ACTION_ID_RE.test(s);
}

/**
 * True when `s` has the shape of a session id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSessionId } from "./ids.ts";
 * assert.deepEqual(isSessionId("ses_0123456789ab"), true);
 * ```
 */
export function isSessionId(s: string): boolean {
  return SESSION_ID_RE.test(s);
}
