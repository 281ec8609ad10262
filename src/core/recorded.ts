/**
 * Shapes that are recorded in ledger entries and produced elsewhere: the inspector's findings and
 * the undo plan and post-state of an action, and the evidence a reviewer reads (the diff an intent
 * carries, the output excerpt an outcome carries). They live in `core` so the ledger's entry types
 * (`src/ledger/entries.ts`) can name them; `inspect/types.ts` and `plane/undo_plan.ts` re-export
 * them.
 *
 * @module
 */

/** Severity of a finding. */
export type Severity = "high" | "medium" | "low";

/** One finding on one file. */
export interface Finding {
  /** Rule id, e.g. `auth-check-removed`. */
  rule: string;
  severity: Severity;
  /** Path of the file (as given in the change). */
  path: string;
  /** Matches of the rule in the file before and after the change. */
  before: number;
  after: number;
  /** One line saying what was found. */
  message: string;
  /** 1-based line of the construct (in the after-text for additions, before-text for removals). */
  line?: number;
  /** The construct, e.g. `check_permissions() call removed from initial() (views.py:419)`. */
  detail?: string;
}

/** One file's prior state: its blob hash and mode, or null for both when it did not exist. */
export interface PlannedFile {
  path: string;
  blob: string | null;
  mode: number | null;
  /**
   * For an absent file: its missing parent directories (deepest first), which the action may
   * create; undo removes those that are empty again. Left out when the parent exists.
   */
  dirs?: string[];
}

/** The prepared inverse of an action, as recorded in its intent. */
export type UndoPlan =
  | { kind: "none" }
  | { kind: "impossible"; why: string }
  | { kind: "files"; files: PlannedFile[] }
  | {
    kind: "snapshot";
    root: string;
    readOnly: string[];
    before: string;
    /** What the snapshot left out or did not keep the contents of (FIFOs, sparse files, …). */
    notes?: string[];
  }
  /** The inverse is another tool call (an MCP tool's, named by a policy rule). */
  | { kind: "call"; tool: string; args: Record<string, unknown> }
  /** The command runs on a copy-on-write view; the prior state of what it changed is recorded
   * (an `event` entry of type `staged-changes`) before any of it reaches the workspace. */
  | { kind: "staged"; root: string; readOnly: string[] };

/** The state an action left, recorded in its outcome so undo can detect later changes. */
export type PostState =
  | { kind: "none" }
  | { kind: "files"; files: { path: string; sha256: string | null }[] }
  | { kind: "snapshot"; root: string; after: string; notes?: string[] }
  | { kind: "staged"; root: string; changed: number; applied: number; conflicts: string[] };

/** A bounded view of a tool's output. */
export interface OutputExcerpt {
  /** The first lines. */
  head: string[];
  /** The last lines (empty when the output fits in `head`). */
  tail: string[];
  /** Lines between head and tail that were left out. */
  omitted: number;
  /** Lines in the whole output. */
  lines: number;
}

/** One hunk of a recorded diff: lines start with ' ', '+' or '-'. */
export interface RecordedHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** The diff of one file a call changes. */
export interface RecordedDiff {
  path: string;
  /** `create`, `delete` or `modify`. */
  change: "create" | "delete" | "modify";
  hunks: RecordedHunk[];
  /** Lines left out to stay within {@link DIFF_LINES}. */
  omitted: number;
}
