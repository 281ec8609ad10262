/**
 * Undo of a staged command: its recorded paths are put back in their prior state, after checking
 * that each still reads as the command left it (else refused, unless forced), and checked again
 * afterwards so that "undone" is said only of a restore that was achieved.
 *
 * @module
 */
import type { BlobStore } from "../core/blob_store.ts";
import type { StagingService } from "../core/staging.ts";
import type { LedgerEntry } from "../ledger/mod.ts";
import { stagedRecordOf } from "./staged.ts";
import type { PostState } from "./undo_plan.ts";
import { errorMessage } from "../core/errors.ts";

/** How undo decided on a staged action (the shape `undo.ts` records). */
export interface StagedDecision {
  status: "undone" | "skipped" | "refused";
  reason: string;
  restored?: string[];
  differs?: string[];
}

/**
 * Decides and performs the undo of one staged action.
 *
 * @example
 * ```ts
 * import { undoStaged } from "./staged_undo.ts";
 * // const d = undoStaged(entries, { blobs, staging, force: false });
 * // d.status; // "undone" | "skipped" | "refused"
 * ```
 */
export function undoStaged(
  entries: LedgerEntry[],
  deps: { blobs: BlobStore; staging?: StagingService | null; force?: boolean },
): StagedDecision {
  const id = entries.find((e) => e.kind === "intent")?.actionId ?? "";
  const record = stagedRecordOf(entries);
  const outcome = entries.find((e) => e.kind === "outcome");
  const post = outcome?.payload.after as PostState | null | undefined;
  const recovery = entries.find((e) => e.kind === "event" && e.payload.type === "staged-recovery");
  if (!record || record.paths.length === 0) {
    return {
      status: "skipped",
      reason: "nothing to undo: the command changed nothing in the workspace",
    };
  }
  if (recovery?.payload.outcome === "rolled back" || recovery?.payload.outcome === "discarded") {
    return {
      status: "skipped",
      reason: `nothing to undo: its apply was ${recovery.payload.outcome} after a crash`,
    };
  }
  if (!recovery && post?.kind === "staged" && post.applied === 0) {
    return {
      status: "skipped",
      reason: "nothing to undo: none of the command's changes were applied",
    };
  }
  if (!deps.staging) {
    return { status: "refused", reason: "no staging store is available to restore from" };
  }
  // Paths the apply left alone (changed by the person meanwhile) are not the command's to undo.
  const skip = new Set(post?.kind === "staged" ? post.conflicts : []);
  const now = deps.staging.current(record);
  const differs = record.paths
    .filter((p, i) => !skip.has(p.path) && now[i] !== p.after)
    .map((p) => `${p.path || "."}: changed since the action`);
  if (!outcome && !recovery) {
    differs.push("the action has no recorded outcome (it never ran to the end)");
  }
  if (differs.length > 0 && !deps.force) {
    return {
      status: "refused",
      reason: `the state changed since the action (${differs.length} difference${
        differs.length === 1 ? "" : "s"
      }: ${differs.join("; ")}); use --force to restore anyway`,
      differs,
    };
  }
  try {
    const restored = deps.staging.restore(record, deps.blobs, id, skip);
    const forced = differs.length > 0 ? ` (forced over: ${differs.join("; ")})` : "";
    return {
      status: "undone",
      reason: `restored the state before the action${forced}`,
      restored,
      differs,
    };
  } catch (e) {
    return { status: "refused", reason: `restore failed: ${errorMessage(e)}`, differs };
  }
}
