/**
 * Types of the guard's API: what it depends on, what a call is, how it ends.
 *
 * @module
 */
import type { BlobStore } from "../core/blob_store.ts";
import type { Effect, ReversibilityClass } from "../core/effect.ts";
import type { SnapshotStore } from "../core/snapshot.ts";
import type { StagingService } from "../core/staging.ts";
import type { AnyTool, FileChange, ToolContext, ToolResult } from "../core/tool.ts";
import type { Finding, InspectResult } from "../inspect/types.ts";
import type { Delegation, EntrySink } from "../ledger/mod.ts";
import type { CompiledPolicy } from "./policy.ts";
import type { Decision, Mode } from "./policy_schema.ts";

/** What the person is asked when the policy says `ask`. */
export interface ApprovalRequest {
  tool: string;
  /** The call's validated arguments, exactly as they will be used (the whole command, the whole
   * path): shown in the dialog, and what a remembered approval matches against. */
  args?: Record<string, unknown>;
  summary: string;
  consequence: string;
  class: ReversibilityClass;
  findings: Finding[];
  /** Id of the rule that asked. */
  rule: string;
  justification: string;
  /** What a write or edit would change (for the diff shown in the dialog). */
  changes?: FileChange[];
}

/** A person's answer, when it says more than yes or no. */
export interface ApprovalAnswer {
  approved: boolean;
  /** What the person told the model to do instead (with a refusal). */
  instead?: string;
}

/** Asks the person; resolves true (or `{approved: true}`) to approve. Never called when
 * headless. */
export type Approver = (req: ApprovalRequest) => Promise<boolean | ApprovalAnswer>;

/** What the guard writes through: an entry sink that carries the session's delegation. */
export interface GuardSink extends EntrySink {
  readonly delegation: Delegation;
}

/** Everything the guard depends on. */
export interface GuardDeps {
  /** The session writer from `openLedger(...).startSession(...)` (EntrySink + delegation). */
  sink: GuardSink;
  policy: CompiledPolicy;
  /** Prior file contents. */
  blobs: BlobStore;
  /** Workspace snapshots; null → snapshot undo impossible (such calls are refused). */
  snapshots: SnapshotStore | null;
  /** Staged commands over an overlay (preferred to snapshots when it works here). */
  staging?: StagingService | null;
  /**
   * Runs after a staged command's changes reached the workspace: takes away git control files
   * they created or swapped (the check a shell command gets right after it runs, which for a
   * staged one must follow the apply). `touched`: the workspace-relative paths the apply changed
   * (nothing else in the workspace was written by the command), or null when unknown. Not called
   * when the apply changed nothing. Returns what it says to the model and the record.
   */
  afterStagedApply?: (
    effect: Effect,
    touched: string[] | null,
  ) => { note: string; removed: string[] } | null;
  approve: Approver;
  mode: Mode;
  headless: boolean;
  /** `--yes`: ask → allow. */
  yes: boolean;
  /** The session has read untrusted input (web fetch). */
  untrustedInput?: () => boolean;
  now?: () => Date;
  /** The inspector (default: `inspectChanges` from src/inspect). */
  inspect?: (changes: FileChange[], root?: string) => InspectResult;
}

/** One tool call to run. */
export interface GuardCall {
  name: string;
  /** undefined: the model named a tool that does not exist. */
  tool: AnyTool | undefined;
  args: unknown;
  ctx: ToolContext;
}

/** Stages at which a call can be refused. */
export type RefusalStage =
  | "unknown-tool"
  | "invalid-arguments"
  | "classify"
  | "gate"
  | "scope"
  | "undo-plan"
  | "approval"
  | "record"
  /** Something the stages did not foresee threw (a policy, clock or scope check): fail closed. */
  | "internal";

/** How a call ended. */
export interface GuardOutcome {
  status: "ok" | "error" | "refused";
  /** null when refused (refusals get their own entry). */
  actionId: string | null;
  /** What goes back to the model (refusals say why, in words the model can act on). */
  result: ToolResult;
  effect: Effect | null;
  decision: Decision | null;
  rule: string | null;
  findings: Finding[];
  /** For diffs in the terminal. */
  changes: FileChange[];
  /** The refusal stage, when refused. */
  stage?: RefusalStage;
}

/** The guard. */
export interface Guard {
  run(call: GuardCall): Promise<GuardOutcome>;
}
