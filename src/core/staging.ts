/**
 * The contract for staged shell commands: a sandboxed command runs against a copy-on-write view
 * of the workspace (an overlay whose lower layer is the workspace and whose upper layer, in a
 * stage directory outside it, collects the command's writes, deletions and renames). Afterwards
 * the stage is read (cost ∝ what the command changed), the prior state of exactly the touched
 * paths is stored and recorded, and only then are the changes applied to the workspace.
 *
 * Implemented in `src/snapshot/` (reading, recording, applying, restoring) and `src/sandbox/`
 * (running the command over the overlay); the plane sees only these types.
 *
 * @module
 */
import type { BlobStore } from "./blob_store.ts";

/** Names inside a stage directory, shared by the runner (which writes them) and the reader. */
export const STAGE_LAYOUT = {
  /** The overlay's upper layer: what the command wrote, whiteouts for what it deleted. */
  upper: "upper",
  /** The overlay's work directory (same mount as `upper`). */
  work: "work",
  /** Mount point of the untouched workspace inside the runner, for the opaque-directory check. */
  lower: "lower",
  /** Written by the runner once the overlay is mounted (absent: the command never ran). */
  mounted: "mounted",
  /** The mount's error output when it failed. */
  mountError: "mount.err",
  /** NUL-separated upper-relative directories that hide their lower contents (replaced dirs). */
  opaque: "opaque",
  /** Written by retie once the staged changes are recorded: the apply may have begun. */
  recorded: "recorded.json",
} as const;

/** The state of one path, as recorded before and after an action. */
export type EntryState =
  | { type: "absent" }
  | {
    type: "file";
    mode: number;
    size: number;
    /** Blob ids of the non-zero 1 MiB chunks, by chunk index (holes are left out). */
    chunks?: Record<string, string>;
    /** mtime in ms (kept on restore). */
    mtime?: number;
  }
  | { type: "dir"; mode: number; mtime?: number }
  | { type: "symlink"; target: string }
  | { type: "fifo"; mode: number };

/** One touched path: its state before (the undo) and a digest of its state after. */
export interface StagedPath {
  /** Workspace-relative path ("a/b.txt"). */
  path: string;
  /**
   * Prior state. For a directory the command replaced or deleted, `tree` holds the blob id of a
   * JSON manifest of the whole prior subtree (`[relPath, EntryState][]`, parents first).
   */
  before: EntryState;
  tree?: string;
  /** Digest of the state the apply leaves (type, mode, size, mtime, target; subtree for dirs). */
  after: string;
  /** The path is a directory whose own entry is kept; only its mode changes. */
  modeOnly?: boolean;
}

/** What one staged command changed, recorded in the ledger before anything is applied. */
export interface StagedRecord {
  /** Workspace root (absolute real path). */
  root: string;
  paths: StagedPath[];
  /** Paths changed in the workspace while the command ran: left as the person made them. */
  conflicts: string[];
  /** Paths the command changed that cannot be applied, with why (the action is not applied). */
  refused: string[];
  /** Total bytes of prior file contents stored for undo. */
  priorBytes: number;
}

/** How a staged apply ended. */
export interface ApplyReport {
  applied: string[];
  /** Paths left as they were because of a conflict. */
  conflicts: string[];
}

/** The stage of one action: where its overlay layers live. */
export interface Stage {
  id: string;
  dir: string;
  root: string;
  /** When the command started (ms since the epoch): later workspace changes are conflicts. */
  startedMs: number;
}

/** The staging service the guard and undo use. */
export interface StagingService {
  /** Whether commands can run on an overlay here, and if not, why (decided once, lazily). */
  probe(): Promise<{ ok: boolean; why?: string }>;
  /** Creates an empty stage for an action. */
  create(actionId: string, root: string): Stage;
  /** Reads the upper layer and stores the prior state of every touched path (nothing applied). */
  collect(stage: Stage, blobs: BlobStore, readOnly: string[]): StagedRecord;
  /** Marks the stage recorded (the ledger holds `record` at `seq`), then applies it. */
  apply(stage: Stage, record: StagedRecord, seq: number): ApplyReport;
  /** Removes a stage (after the outcome is recorded, or when nothing is to be applied). */
  discard(stage: Stage): void;
  /** Digests of the current state of the recorded paths, for undo's clobber check. */
  current(record: StagedRecord): string[];
  /**
   * Puts every recorded path of action `actionId` back in its prior state and checks that it
   * reads so; returns the paths restored, throws saying what is not restored. Paths in `skip`
   * (conflicts the apply left alone) are not touched.
   */
  restore(
    record: StagedRecord,
    blobs: BlobStore,
    actionId: string,
    skip?: ReadonlySet<string>,
  ): string[];
  /** Marks overlays unusable from now on (a run whose mount failed), with why. */
  disable(why: string): void;
  /** Drops what is kept for the undo of these actions (their undo data was pruned). */
  forget(actionIds: Iterable<string>): void;
  /** Ids of stages left behind (by a crash). */
  pending(): string[];
  /** Finishes a stage left behind, given its recorded changes (null: never recorded). */
  resume(id: string, record: StagedRecord | null, blobs: BlobStore): string;
}
