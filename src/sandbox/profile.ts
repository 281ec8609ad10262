/**
 * The profile the bash tool and `retie sandbox` use, built one way so both run commands alike.
 *
 * @module
 */
import { join } from "node:path";
import { cacheDir, configDir, defaultLedgerPath, ledgerFiles, stateDir } from "../core/dirs.ts";
import { RetieError } from "../core/errors.ts";
import type { SandboxProfile } from "./bwrap_args.ts";
import { gitProtectedPaths } from "./protected_paths.ts";
import { normalizeExcludes } from "../snapshot/mod.ts";

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

function realOrNull(p: string): string | null {
  try {
    return Deno.realPathSync(p);
  } catch {
    return null;
  }
}

/**
 * The confined profile for `workspace`: git hooks/config and snapshot-excluded paths read-only,
 * retie's config/state/cache and the default ledger (`$RETIE_LEDGER`) with its side files hidden
 * when they lie inside the workspace.
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
  const ws = realOrNull(workspace);
  if (!ws || !Deno.statSync(ws).isDirectory) {
    throw new RetieError(`sandbox workspace (${workspace}): not an existing directory`, {
      hint: "pass --workspace DIR with a directory that exists",
      exitCode: 2,
    });
  }
  const inside = (p: string) => p.startsWith(ws + "/");
  const readOnly = new Set(gitProtectedPaths(ws));
  for (const rel of normalizeExcludes(opts.snapshotExclude ?? [])) {
    const p = realOrNull(join(ws, rel));
    if (p && inside(p)) readOnly.add(p);
  }
  const hidden = new Set<string>();
  // The default ledger ($RETIE_LEDGER may put it anywhere) and its side files, besides the dirs.
  const own = ledgerFiles(defaultLedgerPath());
  for (const d of [configDir(), stateDir(), cacheDir(), ...own, ...(opts.hide ?? [])]) {
    const p = realOrNull(d);
    if (p && (p === ws || ws.startsWith(p + "/"))) {
      throw new RetieError(`sandbox workspace (${ws}) lies inside retie's own state (${p})`, {
        hint: "run retie from a project directory, not from its state or config directory",
        exitCode: 2,
      });
    }
    if (p && inside(p)) hidden.add(p);
  }
  return {
    workspace: ws,
    network: opts.network ?? false,
    readOnly: [...readOnly].sort(),
    // A path under another hidden path is covered already (and could not be mounted on inside
    // the empty tmpfs that hides its parent).
    hidden: [...hidden].filter((p) => ![...hidden].some((q) => p.startsWith(q + "/"))).sort(),
    confined: true,
  };
}
