/**
 * The profile the bash tool and `retie sandbox` use, built one way so both run commands alike.
 *
 * @module
 */
import { join } from "node:path";
import { cacheDir, configDir, defaultLedgerPath, ledgerFiles, stateDir } from "../core/dirs.ts";
import { RetieError } from "../core/errors.ts";
import type { SandboxProfile } from "./bwrap_args.ts";
import { gitControl, type GitControlSet } from "./protected_paths.ts";
import { normalizeExcludes } from "../snapshot/mod.ts";
import { isBelow, isWithin, realPathOrNull } from "../core/paths.ts";

/** Options for {@link workspaceProfile}. */
export interface WorkspaceProfileOptions {
  /** Share the host network. */
  network?: boolean;
  /** Paths (relative to the workspace) left out of undo snapshots: mounted read-only, so the undo
   * plan still covers everything the command can write. Pass the same list to `capture`. */
  snapshotExclude?: string[];
  /** More absolute paths to hide (e.g. a ledger given with --ledger). */
  hide?: string[];
}

/** Name of the workspace's project-policy directory: hidden in the sandbox whether or not it
 * exists, so a command can neither read nor create it (the next session's policy). */
export const PROJECT_DIR = ".retie";

/**
 * The confined profile for `workspace` (see {@link workspaceSandbox}).
 *
 * @example
 * ```ts
 * import { workspaceProfile } from "./profile.ts";
 * import { runSandboxed } from "./run.ts";
 * const profile = workspaceProfile(Deno.cwd(), { snapshotExclude: ["node_modules"] });
 * await runSandboxed({ profile, command: "npm test", timeoutMs: 120_000 });
 * ```
 */
export function workspaceProfile(
  workspace: string,
  opts: WorkspaceProfileOptions = {},
): SandboxProfile {
  return workspaceSandbox(workspace, opts).profile;
}

/**
 * The confined profile for `workspace`, with the git control set it was built from (its
 * `identity` is what `git_guard.ts` compares after the command): git's control files and
 * snapshot-excluded paths read-only, git dirs pinned, the workspace's `.retie/` hidden whether or
 * not it exists,
 * retie's config/state/cache and the default ledger (`$RETIE_LEDGER`) with its side files hidden
 * when they lie inside the workspace.
 *
 * @example
 * ```ts
 * import { workspaceSandbox } from "./profile.ts";
 * const { profile, git } = workspaceSandbox(Deno.cwd());
 * profile.hidden.some((p) => p.endsWith("/.retie")); // true
 * git.identity.size >= 0; // true
 * ```
 */
export function workspaceSandbox(
  workspace: string,
  opts: WorkspaceProfileOptions = {},
): { profile: SandboxProfile; git: GitControlSet } {
  const ws = realPathOrNull(workspace);
  if (!ws || !Deno.statSync(ws).isDirectory) {
    throw new RetieError(`sandbox workspace (${workspace}): not an existing directory`, {
      hint: "pass --workspace DIR with a directory that exists",
      exitCode: 2,
    });
  }
  const git = gitControl(ws);
  const readOnly = new Set(git.readOnly);
  for (const rel of normalizeExcludes(opts.snapshotExclude ?? [])) {
    const p = realPathOrNull(join(ws, rel));
    if (p && isBelow(p, ws)) readOnly.add(p);
  }
  const hidden = new Set<string>();
  const project = join(ws, PROJECT_DIR);
  const pst = (() => {
    try {
      return Deno.lstatSync(project);
    } catch {
      return null;
    }
  })();
  if (pst && !pst.isDirectory) {
    throw new RetieError(
      `the workspace's ${PROJECT_DIR} (${project}) is not a directory (a symlink or a file)`,
      {
        hint: `remove it or make it a plain directory: retie keeps the project policy there, ` +
          `and a command must not be able to swap it`,
        exitCode: 2,
      },
    );
  }

  // The default ledger ($RETIE_LEDGER may put it anywhere) and its side files, besides the dirs.
  const own = ledgerFiles(defaultLedgerPath());
  for (const d of [configDir(), stateDir(), cacheDir(), ...own, ...(opts.hide ?? [])]) {
    const p = realPathOrNull(d);
    if (p && isWithin(ws, p)) {
      throw new RetieError(`sandbox workspace (${ws}) lies inside retie's own state (${p})`, {
        hint: "run retie from a project directory, not from its state or config directory",
        exitCode: 2,
      });
    }
    if (p && isBelow(p, ws)) hidden.add(p);
  }
  const profile: SandboxProfile = {
    workspace: ws,
    network: opts.network ?? false,
    readOnly: [...readOnly].sort(),
    pinned: [...git.pinned].sort(),
    // A path under another hidden path is covered already (and could not be mounted on inside
    // the empty tmpfs that hides its parent).
    hidden: [...hidden].filter((p) => ![...hidden].some((q) => isBelow(p, q))).sort(),
    reserved: [project],
    confined: true,
  };
  return { profile, git };
}
