/**
 * What a tool call touches, and how hard it is to undo.
 *
 * A tool computes an {@link Effect} from its arguments before anything runs; the plane gates, plans
 * the undo and records on the strength of it.
 *
 * @module
 */

/**
 * Reversibility classes, from least to most consequential.
 *
 * - `none`: no side effect (reads).
 * - `reversible`: an inverse can be stated and prepared before the action runs.
 * - `irreversible`: nobody can state an inverse (unconfined shell, network side effects).
 * - `unknown`: no rule covers it (a tool nobody classified).
 */
export type ReversibilityClass = "none" | "reversible" | "irreversible" | "unknown";

/** All classes, in order of consequence. */
export const CLASSES: readonly ReversibilityClass[] = [
  "none",
  "reversible",
  "irreversible",
  "unknown",
] as const;

/** What the plane must prepare so the action can be reversed. */
export type UndoNeed =
  /** Nothing to reverse (class `none`). */
  | { kind: "none" }
  /** Prior bytes (and modes) of these absolute paths; a path absent now is deleted on undo. */
  | { kind: "files"; paths: string[] }
  /** A snapshot of the workspace `root`; `readOnly` lists paths the action cannot write (left out). */
  | { kind: "snapshot"; root: string; readOnly: string[] }
  /** No inverse can exist; `why` says so in words for the record. */
  | { kind: "impossible"; why: string }
  /** The inverse is another tool call (an MCP tool's, named by a policy rule), gated and recorded
   * like any call when the undo runs. */
  | { kind: "call"; tool: string; args: Record<string, unknown> };

/** The consequence of one tool call, computed from its arguments. */
export interface Effect {
  /** Reversibility class. */
  class: ReversibilityClass;
  /** Absolute real paths the call reads. */
  reads: string[];
  /** Absolute real paths the call writes (created, changed or deleted). */
  writes: string[];
  /** Of `reads`, those outside the workspace. */
  readsOutside: string[];
  /** Of `writes`, those outside the workspace. */
  writesOutside: string[];
  /** True when the call runs inside the bubblewrap sandbox. */
  sandboxed: boolean;
  /** True when the call reaches the network (the agent's, or a sandbox with --network). */
  network: boolean;
  /** True when the call has side effects beyond this machine that no local undo reverses. */
  external: boolean;
  /** Short line for the timeline: "edit calc.py", "run shell command: pytest". */
  summary: string;
  /** The consequence in words, for the approval prompt: "not reversible: runs `rm -rf build` without the sandbox". */
  consequence: string;
  /** Why this class: the rule that decided it. */
  reason: string;
  /** What to prepare for the undo. */
  undo: UndoNeed;
  /** For a sandboxed call: how the sandbox confines it, decided with the class and handed to the
   * handler as approved. */
  confinement?: Confinement;
}

/** The mounts a sandboxed call runs under, beyond the workspace itself (absolute real paths). */
export interface Confinement {
  /** Paths inside the workspace mounted read-only (git's control files, snapshot exclusions). */
  readOnly: string[];
  /** Paths inside the workspace made invisible (retie's own state, if it lies there). */
  hidden: string[];
  /** Git dirs mounted on themselves (writable, but they cannot be renamed or removed). */
  pinned: string[];
  /** Directories hidden whether or not they exist (the project's `.retie/`). */
  reserved: string[];
  /** Every git control path that existed, with its identity: after the command, anything new or
   * swapped among them is removed (see `sandbox/git_guard.ts`). */
  gitIdentity: Record<string, string>;
  /** Workspace files hard-linked to files outside it (or directories of only such files),
   * mounted read-only when the command writes the workspace itself (not staged). */
  linked?: string[];
  /** The whole workspace mounted read-only: a command that only reads (nothing to undo). */
  workspaceReadOnly?: boolean;
}

/** What every effect must say; everything else defaults to "touches nothing". */
export type EffectFields =
  & Pick<Effect, "class" | "summary" | "consequence" | "reason">
  & Partial<Effect>;

/**
 * Builds an Effect: no paths, not sandboxed, no network, no external side effect and no undo
 * unless the fields say otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { effect } from "./effect.ts";
 * assert.deepEqual(effect({ class: "none", summary: "ask", consequence: "no change", reason: "asks" }).writes, []);
 * ```
 */
export function effect(fields: EffectFields): Effect {
  return {
    reads: [],
    writes: [],
    readsOutside: [],
    writesOutside: [],
    sandboxed: false,
    network: false,
    external: false,
    undo: { kind: "none" },
    ...fields,
  };
}

/**
 * The effect of a call that nobody classified: class `unknown`, no inverse.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unknownEffect } from "./effect.ts";
 * assert.deepEqual(unknownEffect("mcp__github__push").class, "unknown");
 * ```
 */
export function unknownEffect(tool: string): Effect {
  return effect({
    class: "unknown",
    summary: `call unclassified tool ${tool}`,
    consequence: `unknown consequence: no rule classifies the tool "${tool}"`,
    reason: "no classification rule for this tool",
    undo: { kind: "impossible", why: "nobody classified this tool, so no inverse can be stated" },
  });
}
