/**
 * The check after a sandboxed command: git's control paths (see `git_control.ts`) must be exactly
 * the ones that were there before, each the very same file. The sandbox already mounts the
 * existing ones read-only and pins the git dirs, but a command can still create what did not exist
 * (a `.git` where there was none, a `commondir`, a `config.worktree`, `info/`, alternates, a
 * `core.hooksPath` directory, a bare repository) or move a parent of a `.git` away and put its own
 * in place. Whatever control path is new or not the same file is removed before anything else
 * runs, and the removal is reported and recorded: git on the host never reads what the command
 * wrote there.
 *
 * @module
 */
import { join } from "node:path";
import { gitControl } from "./protected_paths.ts";
import { isWithin } from "../core/paths.ts";
import { errorMessage } from "../core/errors.ts";

/** What {@link revertGitControl} did. */
export interface GitRevert {
  /** Control paths the command created or swapped, removed again (absolute). */
  removed: string[];
  /** Those that could not be removed, with the reason. */
  failed: { path: string; why: string }[];
}

/**
 * The control paths of `workspace` now that are new since `before` (path → identity) or are no
 * longer the same file (a file that was there before under another name — a renamed parent — is
 * not new); outermost first, nothing listed inside another listed path.
 *
 * @example
 * ```ts
 * import { gitControlChanges } from "./git_guard.ts";
 * gitControlChanges("/work/p", {}); // e.g. ["/work/p/.git"] when a command ran `git init`
 * ```
 */
export function gitControlChanges(
  workspace: string,
  before: Record<string, string>,
  opts: { changedOnly?: string[] } = {},
): string[] {
  const now = gitControl(workspace, opts).identity;
  // The very same file under another name (a parent directory was renamed) is the user's own,
  // and was read-only while the command ran: moved, not planted. Left where it is.
  const known = new Set(Object.values(before));
  const changed = [...now.entries()]
    .filter(([p, id]) => before[p] !== id && !known.has(id))
    .map(([p]) => p)
    .sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  const out: string[] = [];
  for (const p of changed) if (!out.some((q) => isWithin(p, q))) out.push(p);
  return out;
}

/**
 * Removes every control path a command created or swapped (see {@link gitControlChanges}). Call it
 * only once the command and everything it started are gone (the sandbox's pid namespace is).
 * `changedOnly` (workspace-relative paths) says that nothing else in the workspace changed since
 * `before` was taken (a staged command's apply): only what those paths touch is looked at again.
 *
 * @example
 * ```ts
 * import { revertGitControl } from "./git_guard.ts";
 * const r = revertGitControl("/work/p", {});
 * r.removed; // the paths taken away
 * ```
 */
export function revertGitControl(
  workspace: string,
  before: Record<string, string>,
  opts: { changedOnly?: string[] } = {},
): GitRevert {
  const out: GitRevert = { removed: [], failed: [] };
  const ws = opts.changedOnly ? Deno.realPathSync(workspace) : workspace;
  const changed = opts.changedOnly?.map((rel) => rel === "" ? ws : join(ws, rel));
  // A removal can uncover more (a bare repository inside a new directory): look again, a few times.
  for (let round = 0; round < 4; round++) {
    const changes = gitControlChanges(
      workspace,
      before,
      changed ? { changedOnly: [...changed, ...out.removed] } : {},
    );
    if (changes.length === 0) break;
    let progress = false;
    for (const p of changes) {
      if (out.failed.some((f) => f.path === p)) continue;
      try {
        // Not followed: a symlink is removed as a link; a directory with everything in it.
        Deno.removeSync(p, { recursive: true });
        out.removed.push(p);
        progress = true;
      } catch (e) {
        out.failed.push({ path: p, why: errorMessage(e) });
      }
    }
    if (!progress) break;
  }
  return out;
}
