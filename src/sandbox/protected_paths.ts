/**
 * Paths inside the workspace that make git run code or read configuration later, outside the
 * sandbox (see `git_control.ts` for what counts): every `.git` entry in the tree (any case: a
 * case-insensitive filesystem reads `.GIT` as `.git`; nested repositories too), the git dirs they
 * are or point at, bare repositories (a directory with `HEAD` and `objects`), and what their
 * configs and the user's global config make git read. In the sandbox they are read-only and the
 * git dirs cannot be renamed; anything new among them after a command is removed
 * (`git_guard.ts`). The file tools treat a write to any of them as irreversible in effect.
 *
 * @module
 */
import { dirname, join } from "node:path";
import {
  emptyControlSet,
  type GitControlSet,
  isGitDir,
  lstatOrNull,
  protectDotGit,
  protectGitDir,
} from "./git_control.ts";
import { isWithin, realPathOrNull } from "../core/paths.ts";

export type { GitControlSet } from "./git_control.ts";

/** What the walk needs of one directory: its subdirectories (`.git` aside) and its `.git`. */
interface Listing {
  /** The subdirectories' full paths. */
  dirs: string[];
  /** Names of entries that are `.git` in any case. */
  git: string[];
  /** The directory holds `HEAD` and `objects`/`commondir`: a bare git dir. */
  bare: boolean;
  mtime: number;
  ctime: number;
  readAt: number;
}

/** Per workspace, the listings of its directories, reused while a directory's times say that no
 * entry was added, removed or renamed in it since it was read. */
const listings = new Map<string, Map<string, Listing>>();

/**
 * A directory's listing, from the cache when it is still good. Creating, removing or renaming an
 * entry sets the directory's mtime and ctime to now, and nothing can set ctime back; Deno reports
 * ctime in whole seconds, so a listing is reused only when the directory's ctime is more than a
 * second (plus a margin for the coarse clock) older than the read, and neither time moved since.
 */
function listing(dir: string, cache: Map<string, Listing>): Listing | null {
  const st = lstatOrNull(dir);
  if (!st?.isDirectory) return null;
  const mtime = st.mtime?.getTime() ?? 0;
  const ctime = st.ctime?.getTime() ?? 0;
  const c = cache.get(dir);
  if (c && c.mtime === mtime && c.ctime === ctime && ctime < c.readAt - 1020) return c;
  const readAt = Date.now();
  const l: Listing = { dirs: [], git: [], bare: false, mtime, ctime, readAt };
  let head = false, objects = false;
  try {
    for (const e of Deno.readDirSync(dir)) {
      if (e.name.toLowerCase() === ".git") l.git.push(e.name);
      else if (e.isDirectory) l.dirs.push(dir === "/" ? `/${e.name}` : `${dir}/${e.name}`);
      if (e.name === "HEAD" && !e.isDirectory) head = true;
      if ((e.name === "objects" && e.isDirectory) || e.name === "commondir") objects = true;
    }
    l.bare = head && objects;
  } catch {
    cache.delete(dir);
    return null;
  }
  cache.set(dir, l);
  return l;
}

/**
 * The git control set of `workspace` (a real path): what the sandbox mounts read-only, the git
 * dirs it pins, and the identity of every control path that exists. A directory is read again
 * only when an entry in it may have changed (see `listing`): a second call costs one `lstat` per
 * directory, not a listing of the tree. With `changedOnly` (absolute real paths: the only paths
 * that changed since the previous call, e.g. what a staged command's apply renamed into place),
 * only the parents of those paths and the directories at or below them are looked at again.
 *
 * @example
 * ```ts
 * import { gitControl } from "./protected_paths.ts";
 * gitControl("/work/project").pinned; // Set {"/work/project/.git"}
 * ```
 */
export function gitControl(
  workspace: string,
  opts: { changedOnly?: string[] } = {},
): GitControlSet {
  const ws = Deno.realPathSync(workspace);
  const out = emptyControlSet();
  let cache = listings.get(ws);
  if (!cache) listings.set(ws, cache = new Map());
  const changed = opts.changedOnly ? new Set(opts.changedOnly) : null;
  const parents = new Set(opts.changedOnly?.map((c) => dirname(c)));
  // Only these paths changed since the last walk: a directory that is neither the parent of one
  // nor at or below one keeps its entries, so its listing is reused without looking at it.
  const seen = new Set<string>();
  // Each directory with whether it lies at or below a changed path.
  const stack: [string, boolean][] = [[ws, false]];
  while (stack.length > 0) {
    const [dir, below] = stack.pop()!;
    seen.add(dir);
    const inChanged = below || changed?.has(dir) === true;
    const cached = changed && !inChanged && !parents.has(dir) ? cache.get(dir) : undefined;
    const l = cached ?? listing(dir, cache);
    if (!l) continue; // unreadable: the sandbox cannot read it either
    if (l.bare) {
      // A bare repository (or a git dir under another name): git discovers it from inside.
      protectGitDir(ws, dir, out, dir);
      continue;
    }
    for (const sub of l.dirs) stack.push([sub, inChanged]);
    for (const g of l.git) protectDotGit(ws, join(dir, g), out, dir);
  }
  for (const d of cache.keys()) if (!seen.has(d)) cache.delete(d);
  return out;
}

/**
 * Absolute paths inside `workspace` (a real path) that must be read-only in the sandbox (the
 * `readOnly` part of {@link gitControl}).
 *
 * @example
 * ```ts
 * import { gitProtectedPaths } from "./protected_paths.ts";
 * gitProtectedPaths("/work/project"); // ["/work/project/.git/config", "/work/project/.git/hooks", …]
 * ```
 */
export function gitProtectedPaths(workspace: string): string[] {
  return [...gitControl(workspace).readOnly].sort();
}

/**
 * Why writing `real` (a real path inside `workspace`) changes what git runs or reads on the host,
 * as the path that covers it, or null. It covers: any path with a `.git` component (any case);
 * anything inside a git dir (a directory with `HEAD` and `objects`); a write that would make a
 * directory one (its `HEAD`, or under its `objects`); and the control set of the repositories
 * that enclose `real` (hooksPath, included configs, git dirs a `.git` file points at, symlink
 * targets). Only `real`'s ancestors are looked at, so the cost follows its depth.
 *
 * @example
 * ```ts
 * import { gitProtectedCover } from "./protected_paths.ts";
 * gitProtectedCover("/work/project", "/work/project/.git/hooks/pre-commit"); // "/work/project/.git"
 * gitProtectedCover("/work/project", "/work/project/src/main.ts"); // null
 * ```
 */
export function gitProtectedCover(workspace: string, real: string): string | null {
  const ws = realPathOrNull(workspace) ?? workspace;
  if (!isWithin(real, ws)) return null;
  // A `.git` component, in any case.
  let dir = ws;
  for (const c of real.slice(ws.length).split("/").filter((x) => x.length > 0)) {
    dir = join(dir, c);
    if (c.toLowerCase() === ".git") return dir;
  }
  const out = emptyControlSet();
  dir = real;
  while (true) {
    if (isGitDir(dir)) return dir;
    if (dir !== real && wouldBeGitDir(dir, real)) return join(dir, relTop(dir, real));
    const l = lstatOrNull(dir);
    if (l?.isDirectory) {
      try {
        for (const e of Deno.readDirSync(dir)) {
          if (e.name.toLowerCase() === ".git") protectDotGit(ws, join(dir, e.name), out, dir);
        }
      } catch { /* unreadable */ }
    }
    if (dir === ws) break;
    dir = dirname(dir);
  }
  for (const p of [...out.readOnly, ...out.pinned]) if (isWithin(real, p)) return p;
  return null;
}

function relTop(dir: string, real: string): string {
  return real.slice(dir.length + 1).split("/")[0];
}

/** True when writing `real` would complete a git dir at `dir` (its HEAD, objects or commondir). */
function wouldBeGitDir(dir: string, real: string): boolean {
  const top = relTop(dir, real);
  const head = top === "HEAD" || (lstatOrNull(join(dir, "HEAD")) !== null);
  const objects = top === "objects" || top === "commondir" ||
    lstatOrNull(join(dir, "objects"))?.isDirectory === true ||
    lstatOrNull(join(dir, "commondir")) !== null;
  return head && objects && (top === "HEAD" || top === "objects" || top === "commondir");
}
