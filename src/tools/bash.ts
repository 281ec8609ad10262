/**
 * The `bash` tool: a shell command in the bubblewrap sandbox (reversible by snapshot), or — only
 * when asked for, or when no sandbox can be had — outside it (irreversible, approval every time).
 * A command that only reads (`read_only_command.ts`) runs in the sandbox with the workspace
 * read-only: nothing to undo (class `none`), and nothing staged.
 *
 * The command always goes through `runSandboxed`; bwrap is the only program retie starts. An
 * unavailable sandbox is never silently skipped: the effect says so, and why.
 *
 * @module
 */
import { relative } from "node:path";
import { z } from "zod";
import type { Confinement, Effect } from "../core/effect.ts";
import type { Tool, ToolContext, ToolResult } from "../core/tool.ts";
import { workspaceSandbox } from "../sandbox/profile.ts";
import { type GitRevert, revertGitControl } from "../sandbox/git_guard.ts";
import { MAX_PINNED_LINKS, outsideLinks } from "../sandbox/hard_links.ts";
import { runSandboxed, type SandboxProfile } from "../sandbox/run.ts";
import { realProtectedPaths } from "./confine.ts";
import { isReadOnlyCommand } from "./read_only_command.ts";
import { protectedInside } from "./paths.ts";
import { guarded, settle } from "./results.ts";
import { errorMessage } from "../core/errors.ts";

/** Timeout when none is given. */
export const DEFAULT_TIMEOUT_SECONDS = 120;
/** Longest timeout a call may ask for. */
export const MAX_TIMEOUT_SECONDS = 3600;
/** Output kept per stream; the rest is dropped with a marker. */
export const BASH_OUTPUT_BYTES = 512 * 1024;

/** Arguments of `bash`. */
export const bashSchema = z.object({
  command: z.string().min(1).describe("Shell command, run with bash -c in the workspace"),
  timeout_seconds: z.number().int().min(1).max(MAX_TIMEOUT_SECONDS).optional().describe(
    `Kill the command after this many seconds (default ${DEFAULT_TIMEOUT_SECONDS})`,
  ),
  sandbox: z.boolean().optional().describe(
    "Run in the sandbox (default true). false runs on the host: not reversible, needs approval",
  ),
});
/** Arguments of `bash`, parsed. */
export type BashArgs = z.infer<typeof bashSchema>;

/** How a call will run, decided from its arguments and the session's sandbox settings. */
export type BashMode = "sandboxed" | "sandboxed-network" | "unsandboxed" | "unavailable";

/**
 * Decides how a call runs.
 *
 * @example
 * ```ts
 * import { bashMode } from "./bash.ts";
 * bashMode({ command: "ls" }, { available: true, network: false }); // "sandboxed"
 * ```
 */
export function bashMode(args: BashArgs, sandbox: ToolContext["sandbox"]): BashMode {
  if (args.sandbox === false) return "unsandboxed";
  if (!sandbox.available) return "unavailable";
  return sandbox.network ? "sandboxed-network" : "sandboxed";
}

function shortCommand(cmd: string): string {
  const one = cmd.replace(/\s*\n\s*/g, "; ");
  return one.length > 200 ? `${one.slice(0, 200)}…` : one;
}

/**
 * The effect of a bash call (see the module doc for the three situations).
 *
 * @example
 * ```ts
 * import { bashEffect } from "./bash.ts";
 * declare const ctx: import("../core/tool.ts").ToolContext;
 * bashEffect({ command: "pytest" }, ctx).class; // "reversible" when the sandbox is available
 * ```
 */
export function bashEffect(args: BashArgs, ctx: ToolContext): Effect {
  const cmd = shortCommand(args.command);
  const mode = bashMode(args, ctx.sandbox);
  const confinement = mode === "sandboxed" || mode === "sandboxed-network"
    ? sandboxConfinement(ctx, mode === "sandboxed-network")
    : undefined;
  const base = {
    reads: [ctx.workspace],
    writes: [ctx.workspace],
    readsOutside: [],
    writesOutside: [],
    summary: `run shell command: ${cmd}`,
  };
  if (mode === "sandboxed" && isReadOnlyCommand(args.command)) {
    // Nothing to stage or undo: the workspace is mounted read-only, so even a command wrongly
    // taken for a reader cannot change anything (it fails to write instead).
    return {
      ...base,
      writes: [],
      class: "none",
      sandboxed: true,
      network: false,
      external: false,
      summary: `run read-only command: ${cmd}`,
      consequence: `runs \`${cmd}\` in the sandbox with the workspace read-only (no network; ` +
        "nothing to undo)",
      reason: "a command that only reads: the sandbox mounts the workspace read-only",
      confinement: { ...confinement!, workspaceReadOnly: true },
      undo: { kind: "none" },
    };
  }
  if (mode === "sandboxed") {
    return {
      ...base,
      class: "reversible",
      sandboxed: true,
      network: false,
      external: false,
      consequence: `runs \`${cmd}\` in the sandbox (no network; workspace restorable)`,
      reason: "sandboxed shell: it can write only the workspace, which a snapshot restores",
      confinement,
      // Left out of the snapshot because the sandbox mounts them read-only; the snapshot store
      // takes them relative to the root.
      undo: {
        kind: "snapshot",
        root: ctx.workspace,
        readOnly: confinement!.readOnly.map((p) => relative(ctx.workspace, p)),
      },
    };
  }
  if (mode === "sandboxed-network") {
    return {
      ...base,
      class: "irreversible",
      sandboxed: true,
      network: true,
      external: true,
      consequence: `not reversible: runs \`${cmd}\` in the sandbox with network access`,
      reason: "the sandbox shares the network (--network): what the command sends cannot be undone",
      confinement,
      undo: {
        kind: "impossible",
        why: "the command can reach the network, and nothing can call back what it sent",
      },
    };
  }
  const unavailable = mode === "unavailable"
    ? ` (the sandbox is unavailable: ${ctx.sandbox.unavailableReason ?? "reason unknown"})`
    : "";
  return {
    ...base,
    class: "irreversible",
    sandboxed: false,
    network: true,
    external: true,
    consequence: `not reversible: runs \`${cmd}\` without the sandbox${unavailable}`,
    reason: mode === "unavailable"
      ? "no sandbox can be had, so the command would run on the host"
      : "the call asked to run outside the sandbox (sandbox: false)",
    undo: {
      kind: "impossible",
      why: "an unsandboxed command can change anything the user can, and nothing records what",
    },
  };
}

/**
 * The `bash` tool.
 *
 * @example
 * ```ts
 * import { bashTool } from "./bash.ts";
 * bashTool.name; // "bash"
 * ```
 */
export const bashTool: Tool<BashArgs> = {
  name: "bash",
  description: "Run a shell command in the workspace. It runs in a sandbox with no network " +
    "unless sandbox is false. Output is stdout and stderr, then the exit code.",
  schema: bashSchema,
  async classify(args, ctx) {
    return pinOutsideLinks(await settle(() => bashEffect(args, ctx)), ctx);
  },
  handler(args, ctx, approved) {
    return guarded(() => runBash(args, ctx, approved));
  },
};

/**
 * In the snapshot fallback (no copy-on-write view) a sandboxed command writes the workspace
 * itself: workspace files that are hard links to files outside it are bound read-only (a
 * directory of nothing but such files as a whole), so no write reaches their other names. Over
 * {@link MAX_PINNED_LINKS} such mounts the command cannot be contained and is irreversible (it
 * asks). Staged commands need none of this: they write a copy.
 *
 * @example
 * ```ts
 * import { bashEffect, pinOutsideLinks } from "./bash.ts";
 * declare const ctx: import("../core/tool.ts").ToolContext;
 * // const e = await pinOutsideLinks(bashEffect({ command: "make" }, ctx), ctx);
 * ```
 */
export async function pinOutsideLinks(effect: Effect, ctx: ToolContext): Promise<Effect> {
  if (effect.class !== "reversible" || !effect.sandboxed || !effect.confinement) return effect;
  if (ctx.commandsStaged && await ctx.commandsStaged()) return effect;
  const c = effect.confinement;
  const scan = outsideLinks(ctx.workspace, [...c.readOnly, ...c.hidden]);
  if (scan.paths.length === 0) return effect;
  if (scan.mounts.length <= MAX_PINNED_LINKS) {
    return { ...effect, confinement: { ...c, linked: scan.mounts } };
  }
  const first = relative(ctx.workspace, scan.paths[0]);
  const why = `${scan.paths.length} workspace files are hard links to files outside the ` +
    `workspace (e.g. ${first}), in more than the ${MAX_PINNED_LINKS} places the sandbox can ` +
    "make read-only without the copy-on-write view: a write through one would change the file " +
    "outside the workspace too, and no undo can take that back";
  return {
    ...effect,
    class: "irreversible",
    summary: `${effect.summary} (${scan.paths.length} workspace files are hard links to files ` +
      `outside it, in ${scan.mounts.length} places: too many to make read-only)`,
    consequence: `not reversible: ${effect.consequence.replace(/ \(no network; .*\)$/, "")} ` +
      `with ${scan.paths.length} hard-linked files writable`,
    reason: why,
    undo: { kind: "impossible", why },
  };
}

/** The workspace profile's read-only mounts, computed once, when the call is classified. */
function sandboxConfinement(ctx: ToolContext, network: boolean): Confinement {
  const { profile, git } = workspaceSandbox(ctx.workspace, { network, hide: ctx.protectedPaths });
  return {
    readOnly: profile.readOnly,
    hidden: profile.hidden,
    pinned: profile.pinned ?? [],
    reserved: profile.reserved ?? [],
    gitIdentity: Object.fromEntries(git.identity),
  };
}

/**
 * The sandbox profile a call runs under, from the effect the guard approved: a sandboxed effect
 * runs confined, with the read-only mounts it was approved with; anything else runs unconfined
 * (the guard approved it as irreversible).
 *
 * @example
 * ```ts
 * import { bashEffect, bashProfile } from "./bash.ts";
 * declare const ctx: import("../core/tool.ts").ToolContext;
 * const approved = bashEffect({ command: "ls", sandbox: false }, ctx);
 * bashProfile(approved, ctx).confined; // false
 * ```
 */
export function bashProfile(approved: Effect, ctx: ToolContext): SandboxProfile {
  if (approved.sandboxed) {
    if (!approved.confinement) {
      throw new Error("the approved effect of a sandboxed command says nothing of its mounts");
    }
    // The profile `retie sandbox` uses (built at classification), so the two cannot drift.
    return {
      workspace: ctx.workspace,
      network: approved.network,
      // A staged command writes a copy: hard links need no pinning there.
      readOnly: ctx.stageDir
        ? approved.confinement.readOnly
        : [...approved.confinement.readOnly, ...(approved.confinement.linked ?? [])],
      hidden: approved.confinement.hidden,
      pinned: approved.confinement.pinned,
      reserved: approved.confinement.reserved,
      confined: true,
      ...(approved.confinement.workspaceReadOnly ? { workspaceReadOnly: true } : {}),
    };
  }
  return {
    workspace: ctx.workspace,
    network: true,
    readOnly: [],
    hidden: protectedInside(ctx.workspace, realProtectedPaths(ctx)),
    confined: false,
  };
}

/** Decoders that hand a command's output on as text, chunk by chunk, while it runs. */
function liveOutput(on: NonNullable<ToolContext["onOutput"]>) {
  const out = new TextDecoder();
  const err = new TextDecoder();
  return {
    onStdout: (c: Uint8Array) => on("stdout", out.decode(c, { stream: true })),
    onStderr: (c: Uint8Array) => on("stderr", err.decode(c, { stream: true })),
  };
}

async function runBash(args: BashArgs, ctx: ToolContext, approved: Effect): Promise<ToolResult> {
  const timeout = args.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS;
  const profile = bashProfile(approved, ctx);
  const r = await runSandboxed({
    profile,
    command: args.command,
    timeoutMs: timeout * 1000,
    maxOutputBytes: BASH_OUTPUT_BYTES,
    signal: ctx.signal,
    ...(ctx.onOutput ? liveOutput(ctx.onOutput) : {}),
    stageDir: profile.confined ? ctx.stageDir : undefined,
  });
  if (r.overlay && !r.overlay.mounted) {
    return {
      ok: false,
      output: `the command did not run: the sandbox's copy-on-write view of the workspace could ` +
        `not be set up (${r.overlay.mountError}); run it again (retie now uses snapshots)`,
      detail: { overlayMounted: false, overlayError: r.overlay.mountError ?? "" },
    };
  }
  // The command and everything it started are gone: take away any git control path it created.
  // A staged command wrote only its stage, never the workspace: the guard checks git's files
  // after the apply instead (`afterStagedApply`), when its changes have reached the workspace.
  let git: GitRevert | null = null;
  if (profile.confined && approved.confinement && !r.overlay && !profile.workspaceReadOnly) {
    try {
      git = revertGitControl(ctx.workspace, approved.confinement.gitIdentity);
    } catch (e) {
      git = { removed: [], failed: [{ path: ctx.workspace, why: errorMessage(e) }] };
    }
  }
  const parts: string[] = [];
  if (r.stdout.length > 0) parts.push(`stdout:\n${r.stdout.replace(/\n$/, "")}`);
  if (r.stderr.length > 0) parts.push(`stderr:\n${r.stderr.replace(/\n$/, "")}`);
  if (parts.length === 0) parts.push("(no output)");
  if (r.truncated) parts.push(`[output cut at ${BASH_OUTPUT_BYTES / 1024} KB per stream]`);
  let status = `exit code ${r.code}`;
  if (r.timedOut) status += ` (timed out after ${timeout}s)`;
  if (r.aborted) status += " (cancelled)";
  parts.push(status);
  const linked = !ctx.stageDir ? approved.confinement?.linked ?? [] : [];
  if (linked.length > 0 && (r.code !== 0 || r.timedOut)) {
    parts.push(
      `note: read-only in the sandbox, because they are hard links to files outside the ` +
        `workspace: ${linked.slice(0, 5).map((p) => relative(ctx.workspace, p)).join(", ")}` +
        `${linked.length > 5 ? ` and ${linked.length - 5} more` : ""}`,
    );
  }
  if (profile.workspaceReadOnly && r.code !== 0 && /read-only file system/i.test(r.stderr)) {
    parts.push(
      "note: retie ran this command with the workspace read-only, because it looked like a " +
        "command that only reads; run it in a form that is not read-only (for example as part " +
        "of the command that needs the write) and it runs with undo instead",
    );
  }
  const gitNote = git ? describeGitRevert(ctx.workspace, git) : null;
  if (gitNote) parts.push(gitNote);
  return {
    ok: r.code === 0 && !r.timedOut && !r.aborted && (git === null || git.failed.length === 0),
    output: parts.join("\n"),
    detail: {
      code: r.code,
      timedOut: r.timedOut,
      aborted: r.aborted,
      durationMs: r.durationMs,
      truncated: r.truncated,
      sandboxed: profile.confined,
      network: profile.network,
      ...(git && (git.removed.length > 0 || git.failed.length > 0)
        ? { gitControlRemoved: git.removed, gitControlNotRemoved: git.failed }
        : {}),
      ...(r.overlay ? { staged: true } : {}),
      ...(profile.workspaceReadOnly ? { workspaceReadOnly: true } : {}),
    },
  };
}

/**
 * The note for the model and the record when a command touched git's control files (null when
 * it did not).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeGitRevert } from "./bash.ts";
 * assert.equal(describeGitRevert("/w", { removed: [], failed: [] }), null);
 * ```
 */
export function describeGitRevert(ws: string, g: GitRevert): string | null {
  if (g.removed.length === 0 && g.failed.length === 0) return null;
  const rel = (p: string) => relative(ws, p) || ".";
  const lines: string[] = [];
  if (g.removed.length > 0) {
    lines.push(
      `retie removed git control files this command created or swapped (${
        g.removed.map(rel).join(", ")
      }): git on the host would run or read them. A command that must change git's metadata ` +
        "(git init, worktree or submodule setup) has to run with sandbox: false, which asks.",
    );
  }
  for (const f of g.failed) {
    lines.push(`retie could NOT remove ${rel(f.path)} (${f.why}): check it before running git`);
  }
  return lines.join("\n");
}
