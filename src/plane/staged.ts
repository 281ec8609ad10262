/**
 * The guard's steps for a staged sandboxed command (`src/core/staging.ts`):
 *
 * 1. plan: when the staging service can mount an overlay here, a snapshot-undo call is planned as
 *    `staged` instead (no capture of the workspace before it runs);
 * 2. after the command: the stage is read, the prior state of exactly the touched paths stored,
 *    and a `staged-changes` event (the undo data) appended to the ledger, durably, **before** any
 *    change is applied; then the changes are applied; conflicts and refusals are said in the
 *    result. A crash between the record and the end of the apply is finished on the next start
 *    ({@link recoverStages}), and the ledger says whether it was completed or rolled back.
 *
 * @module
 */
import type { BlobStore } from "../core/blob_store.ts";
import type { Effect } from "../core/effect.ts";
import type { Stage, StagedRecord, StagingService } from "../core/staging.ts";
import type { ToolResult } from "../core/tool.ts";
import type { EntrySink, LedgerEntry } from "../ledger/mod.ts";
import type { PostState, UndoPlan } from "./undo_plan.ts";

/** The ledger event type that carries a staged command's undo data. */
export const STAGED_EVENT = "staged-changes";

/**
 * The staged plan for `effect`, or null when the call is not staged (then the snapshot store
 * plans it, as before).
 *
 * @example
 * ```ts
 * import { stagedPlan } from "./staged.ts";
 * import { unknownEffect } from "../core/effect.ts";
 * await stagedPlan(unknownEffect("x"), null); // null
 * ```
 */
export async function stagedPlan(
  effect: Effect,
  staging: StagingService | null | undefined,
): Promise<UndoPlan | null> {
  if (!staging || effect.class !== "reversible" || effect.undo.kind !== "snapshot") return null;
  if (!effect.sandboxed || effect.network) return null;
  if (!(await staging.probe()).ok) return null;
  return { kind: "staged", root: effect.undo.root, readOnly: effect.undo.readOnly };
}

/**
 * After a staged command: record its changes, then apply them. Returns the result (with notes on
 * anything not applied), the post-state for the outcome, and the workspace-relative paths the
 * apply changed (`touched`; null when an apply failed part-way and what it changed is unknown).
 *
 * @example
 * ```ts
 * import { finishStaged } from "./staged.ts";
 * // const { result, after } = finishStaged({ staging, blobs, sink }, stage, plan, actionId, result,
 * //   ctx.protectedPaths);
 * ```
 */
export function finishStaged(
  deps: { staging: StagingService; blobs: BlobStore; sink: EntrySink },
  stage: Stage,
  plan: Extract<UndoPlan, { kind: "staged" }>,
  actionId: string,
  result: ToolResult,
  protectedPaths: string[] = [],
): { result: ToolResult; after: PostState; touched: string[] | null } {
  const notes: string[] = [];
  // What reached the workspace (workspace-relative): nothing until the apply; null when unknown
  // (an apply that failed part-way).
  let touched: string[] | null = [];
  const post = (changed: number, applied: number, conflicts: string[]): PostState => ({
    kind: "staged",
    root: plan.root,
    changed,
    applied,
    conflicts,
  });
  const done = (after: PostState) => {
    try {
      deps.staging.discard(stage);
    } catch { /* a leftover stage is finished or removed on the next start */ }
    if (notes.length === 0) return { result, after, touched };
    return {
      touched,
      result: {
        ...result,
        ok: result.ok && !notes.some((n) => n.startsWith("not applied")),
        output: `${result.output}\n${notes.join("\n")}`,
        detail: { ...(result.detail ?? {}), staged: notes },
      },
      after,
    };
  };
  if (result.detail?.overlayMounted === false) {
    // The view could not be set up here: later commands use the snapshot store instead.
    deps.staging.disable(String(result.detail.overlayError ?? "the overlay could not be mounted"));
    return done(post(0, 0, []));
  }
  let record: StagedRecord;
  try {
    // Besides git's files, retie's own protected paths inside the workspace (`.retie/`, a
    // ledger kept there): a change to them, existing or not yet, is never applied.
    const inside = protectedPaths
      .filter((p) => p.startsWith(plan.root + "/"))
      .map((p) => p.slice(plan.root.length + 1));
    record = deps.staging.collect(stage, deps.blobs, [...plan.readOnly, ...inside]);
  } catch (e) {
    notes.push(`not applied to the workspace: its changes could not be read (${msg(e)})`);
    return done(post(0, 0, []));
  }
  if (record.paths.length === 0 && record.refused.length === 0 && record.conflicts.length === 0) {
    return done(post(0, 0, []));
  }
  let seq: number;
  try {
    seq = deps.sink.append("event", { type: STAGED_EVENT, record }, actionId).seq;
  } catch (e) {
    notes.push(`not applied to the workspace: its undo data could not be recorded (${msg(e)})`);
    return done(post(record.paths.length, 0, []));
  }
  if (record.refused.length > 0) {
    notes.push(
      `not applied to the workspace (nothing of it): ${record.refused.join("; ")}`,
    );
    return done(post(record.paths.length, 0, []));
  }
  let applied = 0;
  let conflicts = record.conflicts;
  try {
    touched = null;
    const r = deps.staging.apply(stage, record, seq);
    touched = r.applied;
    applied = r.applied.length;
    conflicts = r.conflicts;
  } catch (e) {
    notes.push(
      `not fully applied: ${msg(e)}; the next start of retie completes or rolls it back`,
    );
    const output = `${result.output}\n${notes[0]}`;
    return {
      result: { ...result, ok: false, output },
      after: post(record.paths.length, 0, []),
      touched,
    };
  }
  if (conflicts.length > 0) {
    notes.push(
      `kept as the person left them (changed in the workspace while the command ran; the ` +
        `command's version was not applied): ${conflicts.join(", ")}`,
    );
  }
  return done(post(record.paths.length, applied, conflicts));
}

function msg(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The staged record of an action, from its ledger entries (null when it recorded none).
 *
 * @example
 * ```ts
 * import { stagedRecordOf } from "./staged.ts";
 * stagedRecordOf([]); // null
 * ```
 */
export function stagedRecordOf(entries: LedgerEntry[]): StagedRecord | null {
  const e = entries.find((x) => x.kind === "event" && x.payload.type === STAGED_EVENT);
  return e ? e.payload.record as StagedRecord : null;
}

/**
 * Finishes the stages a crash left behind (each recorded: completed, rolled back or discarded).
 *
 * @example
 * ```ts
 * import { recoverStages } from "./staged.ts";
 * // recoverStages({ staging, blobs, sink, ledger }); // [{ action: "act_…", outcome: "completed" }]
 * ```
 */
export function recoverStages(deps: {
  staging: StagingService;
  blobs: BlobStore;
  sink: EntrySink;
  ledger: { entries(f: { actionId: string }): LedgerEntry[] };
}): { action: string; outcome: string }[] {
  const out: { action: string; outcome: string }[] = [];
  for (const id of deps.staging.pending()) {
    const entries = deps.ledger.entries({ actionId: id });
    const record = stagedRecordOf(entries);
    let outcome: string;
    try {
      outcome = deps.staging.resume(id, record, deps.blobs);
    } catch (e) {
      outcome = `failed: ${msg(e)}`;
    }
    out.push({ action: id, outcome });
    if (entries.length === 0) continue; // not an action of this ledger: nothing to record
    deps.sink.append("event", {
      type: "staged-recovery",
      action: id,
      outcome,
      message: outcome === "completed"
        ? "an apply interrupted by a crash was completed"
        : outcome === "rolled back"
        ? "an apply interrupted by a crash was rolled back: the workspace is as before the command"
        : outcome === "discarded"
        ? "a staged command that was never recorded was discarded: the workspace was not touched"
        : `an interrupted apply could not be finished: ${outcome}`,
    }, id);
  }
  return out;
}
