/**
 * The `bash` tool: a shell command in the bubblewrap sandbox (reversible by snapshot), or — only
 * when asked for, or when no sandbox can be had — outside it (irreversible, approval every time).
 *
 * The command always goes through `runSandboxed`; bwrap is the only program retie starts. An
 * unavailable sandbox is never silently skipped: the effect says so, and why.
 *
 * @module
 */
import { relative } from "node:path";
import { z } from "zod";
import type { Effect } from "../core/effect.ts";
import type { Tool, ToolContext, ToolResult } from "../core/tool.ts";
import { gitProtectedPaths } from "../sandbox/protected_paths.ts";
import { workspaceProfile } from "../sandbox/profile.ts";
import { runSandboxed, type SandboxProfile } from "../sandbox/run.ts";
import { realProtectedPaths } from "./confine.ts";
import { protectedInside } from "./paths.ts";
import { guarded, settle } from "./results.ts";

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
  const base = {
    reads: [ctx.workspace],
    writes: [ctx.workspace],
    readsOutside: [],
    writesOutside: [],
    summary: `run shell command: ${cmd}`,
  };
  if (mode === "sandboxed") {
    return {
      ...base,
      class: "reversible",
      sandboxed: true,
      network: false,
      external: false,
      consequence: `runs \`${cmd}\` in the sandbox (no network; workspace restorable)`,
      reason: "sandboxed shell: it can write only the workspace, which a snapshot restores",
      // Left out of the snapshot because the sandbox mounts them read-only; the snapshot store
      // takes them relative to the root.
      undo: {
        kind: "snapshot",
        root: ctx.workspace,
        readOnly: gitProtectedPaths(ctx.workspace).map((p) => relative(ctx.workspace, p)),
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
  classify(args, ctx) {
    return settle(() => bashEffect(args, ctx));
  },
  handler(args, ctx) {
    return guarded(() => runBash(args, ctx));
  },
};

/**
 * The sandbox profile a call runs under.
 *
 * @example
 * ```ts
 * import { bashProfile } from "./bash.ts";
 * declare const ctx: import("../core/tool.ts").ToolContext;
 * bashProfile({ command: "ls", sandbox: false }, ctx).confined; // false
 * ```
 */
export function bashProfile(args: BashArgs, ctx: ToolContext): SandboxProfile {
  const mode = bashMode(args, ctx.sandbox);
  if (mode === "sandboxed" || mode === "sandboxed-network") {
    // The same profile `retie sandbox` uses, so the two cannot drift.
    return workspaceProfile(ctx.workspace, {
      network: mode === "sandboxed-network",
      hide: ctx.protectedPaths,
    });
  }
  return {
    workspace: ctx.workspace,
    network: true,
    readOnly: [],
    hidden: protectedInside(ctx.workspace, realProtectedPaths(ctx)),
    confined: false,
  };
}

async function runBash(args: BashArgs, ctx: ToolContext): Promise<ToolResult> {
  const timeout = args.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS;
  const profile = bashProfile(args, ctx);
  const r = await runSandboxed({
    profile,
    command: args.command,
    timeoutMs: timeout * 1000,
    maxOutputBytes: BASH_OUTPUT_BYTES,
    signal: ctx.signal,
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
  const parts: string[] = [];
  if (r.stdout.length > 0) parts.push(`stdout:\n${r.stdout.replace(/\n$/, "")}`);
  if (r.stderr.length > 0) parts.push(`stderr:\n${r.stderr.replace(/\n$/, "")}`);
  if (parts.length === 0) parts.push("(no output)");
  if (r.truncated) parts.push(`[output cut at ${BASH_OUTPUT_BYTES / 1024} KB per stream]`);
  let status = `exit code ${r.code}`;
  if (r.timedOut) status += ` (timed out after ${timeout}s)`;
  if (r.aborted) status += " (cancelled)";
  parts.push(status);
  return {
    ok: r.code === 0 && !r.timedOut && !r.aborted,
    output: parts.join("\n"),
    detail: {
      code: r.code,
      timedOut: r.timedOut,
      aborted: r.aborted,
      durationMs: r.durationMs,
      truncated: r.truncated,
      sandboxed: profile.confined,
      network: profile.network,
      ...(r.overlay ? { staged: true } : {}),
    },
  };
}
