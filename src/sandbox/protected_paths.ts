/**
 * Files inside the workspace that run code later, outside the sandbox: git hooks and git config
 * (`core.hooksPath`, `core.fsmonitor`, aliases, filters). They are mounted read-only in the sandbox;
 * a command that must change them is irreversible in effect and goes through approval.
 *
 * Found: every `.git` directory in the tree (nested repositories too), submodule git dirs under
 * `.git/modules`, `.git` files (worktrees, submodules) whose git dir lies inside the workspace, and
 * a `core.hooksPath` directory inside the workspace, and config files a git config includes
 * (`[include]`/`[includeIf] path =`) that lie inside the workspace. Git dirs outside the workspace
 * are not mounted at all, so they need no entry. When a git dir lacks `hooks/` or `config`, or either is a symlink,
 * the whole git dir is protected (a command could otherwise create them).
 *
 * @module
 */
import { dirname, isAbsolute, join, resolve } from "node:path";

function isInside(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith("/") ? root : root + "/");
}

function lstatOrNull(p: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(p);
  } catch {
    return null;
  }
}

function realOrNull(p: string): string | null {
  try {
    return Deno.realPathSync(p);
  } catch {
    return null;
  }
}

/** Adds the protected parts of git dir `g` (already known to be inside the workspace). */
function protectGitDir(ws: string, g: string, out: Set<string>, worktreeTop: string): void {
  const hooks = lstatOrNull(join(g, "hooks"));
  const config = lstatOrNull(join(g, "config"));
  const commondir = lstatOrNull(join(g, "commondir"));
  if (commondir?.isFile) {
    // A linked worktree's git dir: its own config.worktree, plus the common dir's hooks/config.
    const wt = join(g, "config.worktree");
    if (lstatOrNull(wt)?.isFile) out.add(wt);
    const rel = Deno.readTextFileSync(join(g, "commondir")).trim();
    const common = realOrNull(isAbsolute(rel) ? rel : resolve(g, rel));
    if (common && isInside(ws, common) && common !== g) protectGitDir(ws, common, out, worktreeTop);
    return;
  }
  if (!hooks?.isDirectory || !config?.isFile) {
    out.add(g);
    return;
  }
  out.add(join(g, "hooks"));
  out.add(join(g, "config"));
  const wt = join(g, "config.worktree");
  if (lstatOrNull(wt)?.isFile) out.add(wt);
  scanConfig(ws, join(g, "config"), out, worktreeTop, 0);
  if (out.has(wt)) scanConfig(ws, wt, out, worktreeTop, 0);
  // Submodule git dirs.
  const modules = join(g, "modules");
  if (lstatOrNull(modules)?.isDirectory) findModuleGitDirs(ws, modules, out);
}

/**
 * Protects what a git config file makes run or read later: a `core.hooksPath` directory inside the
 * workspace (those files are hooks too), and files it includes (`[include]`/`[includeIf] path =`)
 * that lie inside the workspace, whose own settings are scanned the same way.
 */
function scanConfig(ws: string, file: string, out: Set<string>, top: string, depth: number): void {
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch {
    return; // unreadable: git cannot read it either
  }
  let section = "";
  for (const line of text.split("\n")) {
    const head = /^\s*\[\s*([A-Za-z0-9.-]+)/.exec(line);
    if (head) section = head[1].toLowerCase();
    const kv = /^\s*(?:\[[^\]]*\]\s*)?([A-Za-z0-9-]+)\s*=\s*(.+?)\s*$/.exec(line);
    if (!kv) continue;
    const key = kv[1].toLowerCase();
    const v = kv[2].replace(/^"(.*)"$/, "$1");
    if (key === "hookspath") {
      const p = realOrNull(isAbsolute(v) ? v : resolve(top, v));
      if (p && isInside(ws, p)) out.add(p);
    } else if (key === "path" && (section === "include" || section === "includeif")) {
      // Relative include paths are relative to the including file's directory.
      const p = realOrNull(isAbsolute(v) ? v : resolve(dirname(file), v));
      if (p && isInside(ws, p) && !out.has(p)) {
        out.add(p);
        if (depth < 8) scanConfig(ws, p, out, top, depth + 1);
      }
    }
  }
}

function findModuleGitDirs(ws: string, dir: string, out: Set<string>): void {
  if (lstatOrNull(join(dir, "HEAD"))?.isFile) {
    protectGitDir(ws, dir, out, dir);
    return;
  }
  for (const e of Deno.readDirSync(dir)) {
    if (e.isDirectory) findModuleGitDirs(ws, join(dir, e.name), out);
  }
}

/** What the walk needs of one directory: its subdirectories (`.git` aside) and its `.git`. */
interface Listing {
  dirs: string[];
  git: "dir" | "file" | null;
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
  const l: Listing = { dirs: [], git: null, mtime, ctime, readAt };
  try {
    for (const e of Deno.readDirSync(dir)) {
      if (e.name === ".git") l.git = e.isDirectory ? "dir" : e.isFile ? "file" : null;
      else if (e.isDirectory) l.dirs.push(e.name);
    }
  } catch {
    cache.delete(dir);
    return null;
  }
  cache.set(dir, l);
  return l;
}

/**
 * Absolute paths inside `workspace` (a real path) that must be read-only in the sandbox. A
 * directory is read again only when an entry in it may have changed (see `listing`): a second call
 * costs one `lstat` per directory, not a listing of the tree.
 *
 * @example
 * ```ts
 * import { gitProtectedPaths } from "./protected_paths.ts";
 * gitProtectedPaths("/work/project"); // ["/work/project/.git/config", "/work/project/.git/hooks"]
 * ```
 */
export function gitProtectedPaths(workspace: string): string[] {
  const ws = Deno.realPathSync(workspace);
  const out = new Set<string>();
  let cache = listings.get(ws);
  if (!cache) listings.set(ws, cache = new Map());
  const seen = new Set<string>();
  const stack = [ws];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    seen.add(dir);
    const l = listing(dir, cache);
    if (!l) continue; // unreadable: the sandbox cannot read it either
    for (const sub of l.dirs) stack.push(join(dir, sub));
    if (l.git === "dir") protectGitDir(ws, join(dir, ".git"), out, dir);
    else if (l.git === "file") {
      const p = join(dir, ".git");
      // "gitdir: <path>" (worktree or submodule).
      try {
        const m = /^gitdir:\s*(.+?)\s*$/m.exec(Deno.readTextFileSync(p));
        if (m) {
          const g = realOrNull(isAbsolute(m[1]) ? m[1] : resolve(dirname(p), m[1]));
          if (g && isInside(ws, g)) protectGitDir(ws, g, out, dir);
        }
      } catch { /* unreadable */ }
      // The .git file itself redirects git: keep it as it is.
      out.add(p);
    }
  }
  for (const d of cache.keys()) if (!seen.has(d)) cache.delete(d);
  return [...out].sort();
}

/**
 * The git-protected path (see {@link gitProtectedPaths}) that covers `real` (a real path inside
 * `workspace`), or null. Only the repositories that enclose `real` are looked at (each ancestor
 * directory up to the workspace that holds a `.git`), so the cost follows the path's depth, not
 * the size of the workspace. The file tools use it: writing a hook or git config runs code later,
 * outside the sandbox, whichever tool wrote it.
 *
 * @example
 * ```ts
 * import { gitProtectedCover } from "./protected_paths.ts";
 * gitProtectedCover("/work/project", "/work/project/.git/hooks/pre-commit"); // "/work/project/.git/hooks"
 * gitProtectedCover("/work/project", "/work/project/src/main.ts"); // null
 * ```
 */
export function gitProtectedCover(workspace: string, real: string): string | null {
  const ws = realOrNull(workspace) ?? workspace;
  if (!isInside(ws, real)) return null;
  const out = new Set<string>();
  let dir = real;
  while (true) {
    const dotGit = join(dir, ".git");
    const st = lstatOrNull(dotGit);
    if (st?.isDirectory) protectGitDir(ws, dotGit, out, dir);
    else if (st?.isFile) {
      out.add(dotGit);
      try {
        const m = /^gitdir:\s*(.+?)\s*$/m.exec(Deno.readTextFileSync(dotGit));
        if (m) {
          const g = realOrNull(isAbsolute(m[1]) ? m[1] : resolve(dir, m[1]));
          if (g && isInside(ws, g)) protectGitDir(ws, g, out, dir);
        }
      } catch { /* unreadable */ }
    }
    if (dir === ws) break;
    dir = dirname(dir);
  }
  for (const p of out) if (isInside(p, real)) return p;
  return null;
}
