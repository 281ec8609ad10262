/**
 * Reading entry payloads back with their shape checked (a ledger can be edited behind retie's
 * back): the verifier, undo and replay read payloads only through these, never by casting. The
 * payload types are declared in `entries.ts`.
 *
 * @module
 */
import { CLASSES } from "../core/effect.ts";
import { jsonTextDepth } from "../core/json_depth.ts";
import type { UndoPlan } from "../core/recorded.ts";
import {
  type CheckpointPayload,
  type DelegationPayload,
  type GenesisPayload,
  type IntentPayload,
  type OutcomePayload,
  type RefusalPayload,
  type UndoPayload,
} from "./entries.ts";

/** A payload read back: the typed value, or why it does not have the kind's shape. */
export type Read<T> = { ok: true; value: T } | { ok: false; why: string };

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === "string");
const bad = <T>(why: string): Read<T> => ({ ok: false, why });
const good = <T>(value: unknown): Read<T> => ({ ok: true, value: value as T });

/**
 * Reads a genesis payload: `userPublicKey` and `agentPublicKey` strings, `delegation` an object,
 * `parentSession` a string or null.
 *
 * @example
 * ```ts
 * import { readGenesis } from "./entries_read.ts";
 * import assert from "node:assert/strict";
 * assert.equal(readGenesis({}).ok, false);
 * ```
 */
export function readGenesis(p: unknown): Read<GenesisPayload> {
  if (!isObject(p)) return bad("the payload is not an object");
  if (typeof p.userPublicKey !== "string") return bad("userPublicKey is not a string");
  if (typeof p.agentPublicKey !== "string") return bad("agentPublicKey is not a string");
  if (!isObject(p.delegation)) return bad("delegation is not an object");
  if (p.parentSession !== null && typeof p.parentSession !== "string") {
    return bad("parentSession is neither null nor a string");
  }
  return good(p);
}

/**
 * Reads a delegation entry's payload: `delegation` an object.
 *
 * @example
 * ```ts
 * import { readDelegationEntry } from "./entries_read.ts";
 * import assert from "node:assert/strict";
 * assert.equal(readDelegationEntry({ delegation: 1 }).ok, false);
 * ```
 */
export function readDelegationEntry(p: unknown): Read<DelegationPayload> {
  if (!isObject(p) || !isObject(p.delegation)) return bad("carries no delegation object");
  return good(p);
}

/**
 * Reads a checkpoint payload: exactly `final` (boolean), `hash` (string), `seq` (integer).
 *
 * @example
 * ```ts
 * import { readCheckpoint } from "./entries_read.ts";
 * import assert from "node:assert/strict";
 * assert.equal(readCheckpoint({ seq: 1, hash: "h", final: "yes" }).ok, false);
 * ```
 */
export function readCheckpoint(p: unknown): Read<CheckpointPayload> {
  if (!isObject(p)) return bad("the payload is not an object");
  const keys = Object.keys(p).sort().join(",");
  if (keys !== "final,hash,seq") {
    return bad(`has the members ${keys || "(none)"}, not final,hash,seq`);
  }
  if (!Number.isSafeInteger(p.seq)) return bad("seq is not an integer");
  if (typeof p.hash !== "string") return bad("hash is not a string");
  if (typeof p.final !== "boolean") return bad("final is not true or false");
  return good(p);
}

/**
 * Reads an intent payload: `tool` a non-empty string, `class` one of the four classes, `effect` an
 * object whose `writes` is a list of strings. Other members are the guard's record, not checked.
 *
 * @example
 * ```ts
 * import { readIntent } from "./entries_read.ts";
 * import assert from "node:assert/strict";
 * assert.equal(readIntent({ tool: "edit", class: null, effect: { writes: [] } }).ok, false);
 * assert.equal(readIntent({ tool: "edit", class: "none", effect: { writes: [] } }).ok, true);
 * ```
 */
export function readIntent(p: unknown): Read<IntentPayload> {
  if (!isObject(p)) return bad("the payload is not an object");
  if (typeof p.tool !== "string" || p.tool === "") return bad("tool is not a non-empty string");
  if (!(CLASSES as readonly unknown[]).includes(p.class)) {
    return bad(`class is not one of ${CLASSES.join(", ")}`);
  }
  if (!isObject(p.effect)) return bad("effect is not an object");
  if (!isStringList(p.effect.writes)) return bad("effect.writes is not a list of strings");
  return good(p);
}

const PLAN_KINDS = new Set(["none", "impossible", "files", "snapshot", "call", "staged"]);

/**
 * The undo plan of an intent read by {@link readIntent}, or null when it has none usable.
 *
 * @example
 * ```ts
 * import { intentUndoPlan } from "./entries_read.ts";
 * import assert from "node:assert/strict";
 * assert.equal(intentUndoPlan({ undo: { kind: "none" } })?.kind, "none");
 * assert.equal(intentUndoPlan({ undo: "x" }), null);
 * ```
 */
export function intentUndoPlan(p: Record<string, unknown>): UndoPlan | null {
  const u = p.undo;
  if (!isObject(u) || !PLAN_KINDS.has(u.kind as string)) return null;
  if (u.kind === "files" && !Array.isArray(u.files)) return null;
  if (u.kind === "snapshot" && (typeof u.root !== "string" || typeof u.before !== "string")) {
    return null;
  }
  if (u.kind === "call" && (typeof u.tool !== "string" || !isObject(u.args))) return null;
  return u as UndoPlan;
}

/**
 * Reads an outcome payload: `status` "ok" or "error"; `after` a post-state object or null.
 *
 * @example
 * ```ts
 * import { readOutcome } from "./entries_read.ts";
 * import assert from "node:assert/strict";
 * assert.equal(readOutcome({ status: "ok", after: null }).ok, true);
 * ```
 */
export function readOutcome(p: unknown): Read<OutcomePayload> {
  if (!isObject(p)) return bad("the payload is not an object");
  if (p.status !== "ok" && p.status !== "error") return bad("status is not ok or error");
  const a = p.after;
  if (a !== undefined && a !== null && !(isObject(a) && typeof a.kind === "string")) {
    return bad("after is not a post-state");
  }
  return good(p);
}

/**
 * Reads an undo payload: `target` a string, `status` undone, skipped or refused.
 *
 * @example
 * ```ts
 * import { readUndo } from "./entries_read.ts";
 * import assert from "node:assert/strict";
 * assert.equal(readUndo({ target: "act_1", status: "undone" }).ok, true);
 * ```
 */
export function readUndo(p: unknown): Read<UndoPayload> {
  if (!isObject(p)) return bad("the payload is not an object");
  if (typeof p.target !== "string") return bad("target is not a string");
  if (!["undone", "skipped", "refused"].includes(p.status as string)) {
    return bad("status is not undone, skipped or refused");
  }
  return good(p);
}

/**
 * Reads a refusal payload: `tool`, `stage` and `reason` strings.
 *
 * @example
 * ```ts
 * import { readRefusal } from "./entries_read.ts";
 * import assert from "node:assert/strict";
 * assert.equal(readRefusal({ tool: "x", stage: "gate", reason: "no" }).ok, true);
 * ```
 */
export function readRefusal(p: unknown): Read<RefusalPayload> {
  if (!isObject(p)) return bad("the payload is not an object");
  for (const k of ["tool", "stage", "reason"]) {
    if (typeof p[k] !== "string") return bad(`${k} is not a string`);
  }
  return good(p);
}

/**
 * Nesting depth of stored payload text (see `jsonTextDepth`); above `MAX_PAYLOAD_DEPTH` the
 * payload is refused by the writer and reported by verify without being parsed.
 *
 * @example
 * ```ts
 * import { payloadDepth } from "./entries_read.ts";
 * import assert from "node:assert/strict";
 * assert.equal(payloadDepth('{"a":{"b":[]}}'), 3);
 * ```
 */
export function payloadDepth(payloadJson: string): number {
  return jsonTextDepth(payloadJson);
}
