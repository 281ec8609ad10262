/**
 * Every ledger entry kind's payload, declared once: the writers build payloads only through the
 * constructors here, and the verifier, undo and replay read them back only through the readers
 * here (which check the shape instead of casting). The format is `docs/ledger-format.md`.
 *
 * @module
 */
import type { Effect, ReversibilityClass } from "../core/effect.ts";
import { sha256Hex } from "../core/hash.ts";
import { jsonValueDepth } from "../core/json_depth.ts";
import type {
  Finding,
  OutputExcerpt,
  PostState,
  RecordedDiff,
  UndoPlan,
} from "../core/recorded.ts";
import type { Delegation, EntryKind } from "./types.ts";

/** Deepest nesting a stored payload may have (the payload object itself is level 1). */
export const MAX_PAYLOAD_DEPTH = 100;
/** Deepest nesting of tool arguments that are run or recorded verbatim. */
export const MAX_ARGS_DEPTH = 64;
/** Characters of unrecordable arguments kept as a preview in a refusal. */
export const ARGS_PREVIEW_CHARS = 2000;

/** What a session's genesis entry records besides keys and delegation. */
export type GenesisFields = {
  /** The objective, verbatim in the user's words. */
  objective: string;
  provider: string;
  model: string;
  /** `name@digest12`. */
  policy: string;
  systemPromptDigest: string;
  instructionsDigest: string | null;
  /** Files read from the workspace or the user's config on the session's own behalf
   * (instructions, project policy): where, the sha256 of the bytes read, or why refused. */
  inputs?: { kind: string; path: string; digest: string | null; refused?: string }[];
  /** "bwrap (no network)" | "bwrap (network)" | "none: <reason>". */
  sandbox: string;
  version: string;
  workspace: string;
  mode: string;
  headless: boolean;
  /** A sub-agent's type (its session's `parentSession` names the caller). */
  agentType?: string;
  /** MCP servers started for the session: name, transport, grants and how many tools. */
  mcp?: { server: string; transport: string; grants: string[]; tools: number }[];
};

/** genesis: opens a session (signed by the user key). */
export type GenesisPayload = GenesisFields & {
  userPublicKey: string;
  agentPublicKey: string;
  delegation: Delegation;
  /** The session whose delegation (or delegation entry) is this one's parent; null for a root. */
  parentSession: string | null;
};

/** delegation: a sub-delegation the session's agent issued. */
export type DelegationPayload = { delegation: Delegation };

/** checkpoint: the head right before it, signed by the user key. */
export type CheckpointPayload = { seq: number; hash: string; final: boolean };

/** The effect of an action as recorded in its intent. */
export type EffectRecord = {
  summary: string;
  consequence: string;
  reason: string;
  reads: string[];
  writes: string[];
  readsOutside: string[];
  writesOutside: string[];
  sandboxed: boolean;
  network: boolean;
  external: boolean;
};

/** intent: an action about to run, durable before it runs. */
export type IntentPayload = {
  tool: string;
  args: unknown;
  class: ReversibilityClass;
  effect: EffectRecord;
  decision: string;
  rule: string | null;
  approvedBy: string;
  undo: UndoPlan;
  findings: Finding[];
  risk: number;
  /** The diffs of the files the call changes, for a reviewer (absent when it changes none). */
  diff?: RecordedDiff[];
};

/** outcome: how an action ended. */
export type OutcomePayload = {
  status: "ok" | "error";
  resultDigest: string;
  resultBytes: number;
  durationMs: number;
  after: PostState | null;
  detail: unknown;
  /** The first and last lines of the output (absent for a side-effect-free call that succeeded). */
  excerpt?: OutputExcerpt;
};

/** Arguments that could not be recorded verbatim: why, and enough to recognise them. */
export type OmittedArgs = {
  why: string;
  /** SHA-256 of the arguments' JSON text (null when even that could not be produced). */
  sha256: string | null;
  bytes: number;
  /** The first {@link ARGS_PREVIEW_CHARS} characters of that text. */
  preview: string;
};

/** refusal: a call that never became an action (one shape for every stage). */
export type RefusalPayload = {
  tool: string;
  stage: string;
  reason: string;
  /** The arguments as given, or null when they were not recordable (see `argsOmitted`). */
  args: unknown;
  argsOmitted?: OmittedArgs;
  class?: ReversibilityClass;
  rule?: string;
  findings?: Finding[];
};

/** undo: an undo (or a skip, or a refusal to undo) of an earlier action. */
export type UndoPayload = {
  target: string;
  status: "undone" | "skipped" | "refused";
  reason: string;
  restored: string[];
};

/** finding: an inspector or injection finding not tied to one action. */
export type FindingPayload = { type: string; message: string } & Record<string, unknown>;

/** event: session events (turns, mode switches, questions, model changes). */
export type EventPayload = { type: string } & Record<string, unknown>;

/** The payload type of each entry kind. */
export type EntryPayloads = {
  genesis: GenesisPayload;
  delegation: DelegationPayload;
  intent: IntentPayload;
  outcome: OutcomePayload;
  refusal: RefusalPayload;
  undo: UndoPayload;
  finding: FindingPayload;
  event: EventPayload;
  checkpoint: CheckpointPayload;
};

/** Kinds a session appends itself (genesis and checkpoints come from the ledger). */
export type AppendKind = Exclude<EntryKind, "genesis" | "checkpoint">;

/** Every entry kind, in the order of the spec. */
export const ENTRY_KINDS: readonly EntryKind[] = [
  "genesis",
  "delegation",
  "intent",
  "outcome",
  "refusal",
  "undo",
  "finding",
  "event",
  "checkpoint",
];

/** Kinds whose `action_id` must be set; every other kind has a NULL action id. */
export const ACTION_KINDS: ReadonlySet<string> = new Set(["intent", "outcome", "undo"]);

// ---------------------------------------------------------------------------------------------
// Constructors: the one way each payload is built.

/**
 * The genesis payload.
 *
 * @example
 * ```ts ignore
 * genesisPayload(fields, user.publicKey, agent.publicKey, delegation, null).parentSession; // null
 * ```
 */
export function genesisPayload(
  fields: GenesisFields,
  userPublicKey: string,
  agentPublicKey: string,
  delegation: Delegation,
  parentSession: string | null,
): GenesisPayload {
  return { ...fields, userPublicKey, agentPublicKey, delegation, parentSession };
}

/**
 * The payload of a delegation entry.
 *
 * @example
 * ```ts ignore
 * writer.append("delegation", delegationPayload(sub));
 * ```
 */
export function delegationPayload(delegation: Delegation): DelegationPayload {
  return { delegation };
}

/**
 * The payload of a checkpoint of `head` (the entry right before the checkpoint).
 *
 * @example
 * ```ts
 * import { checkpointPayload } from "./entries.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(checkpointPayload({ seq: 4, hash: "ab" }, true), { seq: 4, hash: "ab", final: true });
 * ```
 */
export function checkpointPayload(
  head: { seq: number; hash: string },
  final: boolean,
): CheckpointPayload {
  return { seq: head.seq, hash: head.hash, final };
}

/** A JSON-safe copy (anything JSON cannot carry becomes its string form). */
function jsonSafe(v: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(v ?? null));
  } catch {
    return String(v);
  }
}

function omitted(why: string, text: string | null): OmittedArgs {
  return {
    why,
    sha256: text === null ? null : sha256Hex(text),
    bytes: text === null ? 0 : new TextEncoder().encode(text).length,
    preview: (text ?? "").slice(0, ARGS_PREVIEW_CHARS),
  };
}

/**
 * Tool arguments as they can be recorded: verbatim (JSON-safe) when nested at most
 * {@link MAX_ARGS_DEPTH} levels, else null plus a digest and a preview, so a refusal of arguments
 * nobody should record is itself always recordable.
 *
 * @example
 * ```ts
 * import { recordableArgs } from "./entries.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(recordableArgs({ path: "a" }), { args: { path: "a" } });
 * let deep: unknown = 1;
 * for (let i = 0; i < 5000; i++) deep = [deep];
 * assert.equal(recordableArgs(deep).args, null);
 * ```
 */
export function recordableArgs(
  args: unknown,
): { args: unknown; argsOmitted?: OmittedArgs } {
  const depth = jsonValueDepth(args, MAX_ARGS_DEPTH);
  if (depth <= MAX_ARGS_DEPTH) return { args: jsonSafe(args) };
  let text: string | null = null;
  try {
    text = JSON.stringify(args);
  } catch { /* too deep even for JSON.stringify: digest left out */ }
  return {
    args: null,
    argsOmitted: omitted(`nested more than ${MAX_ARGS_DEPTH} levels deep`, text),
  };
}

/**
 * Arguments that arrived as text (before parsing): recordable when they are JSON nested at most
 * {@link MAX_ARGS_DEPTH} levels; otherwise a digest and a preview, with `why`.
 *
 * @example
 * ```ts
 * import { recordableArgsText } from "./entries.ts";
 * import assert from "node:assert/strict";
 * assert.equal(recordableArgsText("{oops", "not valid JSON").argsOmitted?.preview, "{oops");
 * ```
 */
export function recordableArgsText(
  text: string,
  why: string,
): { args: null; argsOmitted: OmittedArgs } {
  return { args: null, argsOmitted: omitted(why, text) };
}

/**
 * The intent payload of an approved call.
 *
 * @example
 * ```ts ignore
 * sink.append("intent", intentPayload({ tool: "edit", args, effect, decision: "allow", rule: null,
 *   approvedBy: "policy", undo: plan, findings: [], risk: 0 }), actionId);
 * ```
 */
export function intentPayload(i: {
  tool: string;
  args: unknown;
  effect: Effect;
  decision: string;
  rule: string | null;
  approvedBy: string;
  undo: UndoPlan;
  findings: Finding[];
  risk: number;
  diff?: RecordedDiff[];
}): IntentPayload {
  const e = i.effect;
  return {
    tool: i.tool,
    args: recordableArgs(i.args).args,
    class: e.class,
    effect: {
      summary: e.summary,
      consequence: e.consequence,
      reason: e.reason,
      reads: e.reads,
      writes: e.writes,
      readsOutside: e.readsOutside,
      writesOutside: e.writesOutside,
      sandboxed: e.sandboxed,
      network: e.network,
      external: e.external,
    },
    decision: i.decision,
    rule: i.rule,
    approvedBy: i.approvedBy,
    undo: i.undo,
    findings: i.findings,
    risk: i.risk,
    ...(i.diff?.length ? { diff: i.diff } : {}),
  };
}

/**
 * The outcome payload of an action that ran.
 *
 * @example
 * ```ts
 * import { outcomePayload } from "./entries.ts";
 * import assert from "node:assert/strict";
 * const o = outcomePayload({ ok: true, output: "done", durationMs: 1.5, after: null, detail: {} });
 * assert.equal(o.status, "ok");
 * assert.equal(o.resultBytes, 4);
 * ```
 */
export function outcomePayload(o: {
  ok: boolean;
  output: string;
  durationMs: number;
  after: PostState | null;
  detail: Record<string, unknown>;
  excerpt?: OutputExcerpt;
}): OutcomePayload {
  return {
    status: o.ok ? "ok" : "error",
    resultDigest: sha256Hex(o.output),
    resultBytes: new TextEncoder().encode(o.output).length,
    durationMs: o.durationMs,
    after: o.after,
    detail: recordableArgs(o.detail).args ?? {},
    ...(o.excerpt ? { excerpt: o.excerpt } : {}),
  };
}

/**
 * The refusal payload: one shape whatever the stage. Pass `args` (parsed) or `argsText` (when
 * the arguments never parsed); arguments too deep to record are replaced by a digest.
 *
 * @example
 * ```ts
 * import { refusalPayload } from "./entries.ts";
 * import assert from "node:assert/strict";
 * const r = refusalPayload({ tool: "x", stage: "unknown-tool", reason: 'unknown tool "x"', args: {} });
 * assert.deepEqual(r, { tool: "x", stage: "unknown-tool", reason: 'unknown tool "x"', args: {} });
 * ```
 */
export function refusalPayload(r: {
  tool: string;
  stage: string;
  reason: string;
  args?: unknown;
  argsText?: { text: string; why: string };
  class?: ReversibilityClass;
  rule?: string | null;
  findings?: Finding[];
}): RefusalPayload {
  const a = r.argsText
    ? recordableArgsText(r.argsText.text, r.argsText.why)
    : recordableArgs(r.args);
  const out: RefusalPayload = { tool: r.tool, stage: r.stage, reason: r.reason, args: a.args };
  if (a.argsOmitted) out.argsOmitted = a.argsOmitted;
  if (r.class) out.class = r.class;
  if (r.rule) out.rule = r.rule;
  if (r.findings?.length) out.findings = r.findings;
  return out;
}

/**
 * The payload of an undo entry.
 *
 * @example
 * ```ts
 * import { undoPayload } from "./entries.ts";
 * import assert from "node:assert/strict";
 * assert.equal(undoPayload({ target: "act_1", status: "skipped", reason: "x", restored: [] }).target, "act_1");
 * ```
 */
export function undoPayload(u: UndoPayload): UndoPayload {
  return { target: u.target, status: u.status, reason: u.reason, restored: u.restored };
}

/**
 * A finding entry's payload.
 *
 * @example
 * ```ts
 * import { findingPayload } from "./entries.ts";
 * import assert from "node:assert/strict";
 * assert.equal(findingPayload("untrusted-input", "read a page", { url: "u" }).type, "untrusted-input");
 * ```
 */
export function findingPayload(
  type: string,
  message: string,
  fields: Record<string, unknown> = {},
): FindingPayload {
  return { ...(recordableArgs(fields).args as Record<string, unknown> ?? {}), type, message };
}

/**
 * An event entry's payload.
 *
 * @example
 * ```ts
 * import { eventPayload } from "./entries.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(eventPayload("mode", { mode: "plan" }), { type: "mode", mode: "plan" });
 * ```
 */
export function eventPayload(type: string, fields: Record<string, unknown> = {}): EventPayload {
  return { ...(recordableArgs(fields).args as Record<string, unknown> ?? {}), type };
}
