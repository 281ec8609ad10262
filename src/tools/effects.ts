/**
 * Builders for the effects of the file tools, so every tool states reads and writes the same way.
 *
 * @module
 */
import { type Effect, effect } from "../core/effect.ts";
import type { ToolContext } from "../core/tool.ts";
import type { ResolvedPath } from "./confine.ts";
import { gitProtectedCover } from "../sandbox/protected_paths.ts";
import { isWithin } from "../core/paths.ts";
import { displayPath } from "./paths.ts";

/**
 * The effect of a read-only call (class `none`) over the resolved paths. Outside paths land in
 * `readsOutside` (the policy then asks; headless denies); the guard hands the approved effect to
 * the handler, which reads outside only what it lists.
 *
 * @example
 * ```ts
 * import { readEffect } from "./effects.ts";
 * declare const ctx: import("../core/tool.ts").ToolContext;
 * declare const r: import("./confine.ts").ResolvedPath;
 * readEffect(ctx, "read", [r], "read a.ts").class; // "none"
 * ```
 */
export function readEffect(
  ctx: ToolContext,
  tool: string,
  paths: ResolvedPath[],
  summary: string,
): Effect {
  const reads = paths.map((p) => p.real);
  const readsOutside = reads.filter((p) => !isWithin(p, ctx.workspace));
  const where = readsOutside.length > 0
    ? `reads outside the workspace: ${readsOutside.join(", ")}`
    : "reads inside the workspace only";
  return {
    class: "none",
    reads,
    writes: [],
    readsOutside,
    writesOutside: [],
    sandboxed: false,
    network: false,
    external: false,
    summary,
    consequence: `no change: ${where}`,
    reason: `${tool} only reads files`,
    undo: { kind: "none" },
  };
}

/**
 * The effect of a call that writes one file (write, edit): `reversible`, undone by restoring the
 * file's prior bytes. A path outside the workspace lands in `writesOutside` (the policy denies; the
 * handler refuses anyway). A git hook or config (the paths the sandbox mounts read-only) is
 * `irreversible` in effect, so it goes through approval like a command that changes them.
 *
 * @example
 * ```ts
 * import { writeEffect } from "./effects.ts";
 * declare const ctx: import("../core/tool.ts").ToolContext;
 * declare const r: import("./confine.ts").ResolvedPath;
 * writeEffect(ctx, "edit", r, "edit a.ts").undo.kind; // "files"
 * ```
 */
export function writeEffect(
  ctx: ToolContext,
  tool: string,
  target: ResolvedPath,
  summary: string,
): Effect {
  const shown = displayPath(ctx.workspace, target.real);
  const inside = target.inside;
  const git = inside ? gitProtectedCover(ctx.workspace, target.real) : null;
  if (git !== null) {
    // Read-only in the sandbox for the same reason: git runs it later, outside any sandbox.
    return effect({
      class: "irreversible",
      reads: [target.real],
      writes: [target.real],
      summary,
      consequence: `not reversible in effect: ${
        target.exists ? "changes" : "creates"
      } ${shown}, which git runs or reads later, outside the sandbox (${
        displayPath(ctx.workspace, git)
      })`,
      reason: "git's control files (hooks, config, a .git, a git dir) make git run code or read " +
        "settings on the host; restoring the file cannot undo what ran",
      // The prior bytes are kept all the same: undo puts git's metadata back as it was, and says
      // that what git ran or read from it meanwhile cannot be called back.
      undo: { kind: "files", paths: [target.real] },
    });
  }
  return {
    class: "reversible",
    reads: [target.real],
    writes: [target.real],
    readsOutside: inside ? [] : [target.real],
    writesOutside: inside ? [] : [target.real],
    sandboxed: false,
    network: false,
    external: false,
    summary,
    consequence: inside
      ? `${target.exists ? "changes" : "creates"} ${shown}; undo restores its prior state`
      : `writes ${target.real}, outside the workspace (refused by the tool)`,
    reason: `${tool} writes one file whose prior bytes can be kept`,
    undo: { kind: "files", paths: [target.real] },
  };
}
