/**
 * A confined, .gitignore-aware directory walk for ls, glob and grep.
 *
 * Every directory is opened and checked first, listed by its real path, and checked again by
 * identity (device and inode) after listing, so what is
 * listed is what was verified. A walk root that is itself ignored (named explicitly) is walked
 * with only the ignore files found inside it. Symlinks are reported, never followed. `.git` is hidden, protected
 * paths are skipped silently, and ignore rules come from every `.gitignore` between the workspace
 * root and the entry (deeper files win, `!` re-includes), plus `.git/info/exclude`.
 *
 * @module
 */
import * as fs from "node:fs";
import { join, relative } from "node:path";
import ignore, { type Ignore } from "ignore";
import type { ToolContext } from "../core/tool.ts";
import { openVerified, realProtectedPaths } from "./confine.ts";
import { isWithin } from "../core/paths.ts";
import { protectedCover } from "./paths.ts";

/** One entry met by the walk. */
export interface WalkEntry {
  /** Absolute real path. */
  abs: string;
  /** Path relative to the walk root, `/`-separated. */
  rel: string;
  kind: "file" | "dir" | "symlink" | "other";
}

/** Options of {@link walk}. */
export interface WalkOptions {
  /** Real path of a directory, already resolved and allowed by classification. */
  root: string;
  /** Descend into subdirectories. */
  recursive: boolean;
  /** Stop after meeting this many entries. */
  maxEntries: number;
  /** Outside paths the call was approved to read. */
  approvedOutside: readonly string[];
}

/** What the walk left out. */
export interface WalkStats {
  /** Entries hidden by .gitignore rules. */
  ignored: number;
  /** The walk stopped at `maxEntries`. */
  truncated: boolean;
  /** Directories that could not be listed (permissions, races). */
  unreadable: string[];
}

interface Level {
  base: string;
  ig: Ignore;
}

/**
 * Walks `opts.root` depth-first in name order, calling `visit` for each entry kept; `visit`
 * returns false to stop. Directories are visited before their contents.
 *
 * @example
 * ```ts
 * import { walk } from "./walk.ts";
 * declare const ctx: import("../core/tool.ts").ToolContext;
 * const files: string[] = [];
 * walk(ctx, { root: ctx.workspace, recursive: true, maxEntries: 1000, approvedOutside: [] },
 *   (e) => { if (e.kind === "file") files.push(e.rel); });
 * ```
 */
export function walk(
  ctx: ToolContext,
  opts: WalkOptions,
  visit: (e: WalkEntry) => boolean | void,
): WalkStats {
  const stats: WalkStats = { ignored: 0, truncated: false, unreadable: [] };
  let seen = 0;
  const protectedPaths = realProtectedPaths(ctx);
  let levels = ancestorLevels(ctx, opts.root);
  // A directory named explicitly is searched even when ignored (ls node_modules/pkg): only the
  // ignore files inside it then apply.
  if (isIgnored(levels, opts.root, true)) levels = [];

  const dirWalk = (dir: string, levels: Level[], first: boolean): boolean => {
    let names: fs.Dirent[];
    let real: string;
    try {
      const v = openVerified(ctx, dir, {
        directory: true,
        noFollow: !first,
        approvedOutside: opts.approvedOutside,
      });
      real = v.real;
      try {
        names = fs.readdirSync(real, { withFileTypes: true });
        // The listing must be of the directory that was checked: same device and inode after.
        const again = fs.lstatSync(real);
        if (again.dev !== v.stat.dev || again.ino !== v.stat.ino) {
          throw new Error(`${dir} was replaced while it was being listed`);
        }
      } finally {
        fs.closeSync(v.fd);
      }
    } catch (e) {
      if (first) throw e;
      stats.unreadable.push(dir);
      return true;
    }
    const own = loadIgnore(ctx, real, opts.approvedOutside);
    const here = own ? [...levels, own] : levels;
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const d of names) {
      if (d.name === ".git") continue;
      const abs = join(real, d.name);
      if (protectedCover(abs, protectedPaths)) continue;
      const kind = d.isDirectory()
        ? "dir"
        : d.isFile()
        ? "file"
        : d.isSymbolicLink()
        ? "symlink"
        : "other";
      if (isIgnored(here, abs, kind === "dir")) {
        stats.ignored++;
        continue;
      }
      if (++seen > opts.maxEntries) {
        stats.truncated = true;
        return false;
      }
      if (visit({ abs, rel: relative(opts.root, abs), kind }) === false) return false;
      if (kind === "dir" && opts.recursive && !dirWalk(abs, here, false)) return false;
    }
    return true;
  };

  dirWalk(opts.root, levels, true);
  return stats;
}

/** Ignore levels above the walk root: the workspace's exclude file and each .gitignore on the way. */
function ancestorLevels(ctx: ToolContext, root: string): Level[] {
  const out: Level[] = [];
  if (!isWithin(root, ctx.workspace)) return out;
  const exclude = readSmall(ctx, join(ctx.workspace, ".git", "info", "exclude"), []);
  if (exclude !== null) out.push({ base: ctx.workspace, ig: ignore().add(exclude) });
  let cur = ctx.workspace;
  const rest = relative(ctx.workspace, root).split("/").filter((c) => c.length > 0);
  for (const c of [null, ...rest]) {
    if (c !== null) cur = join(cur, c);
    if (cur === root) break;
    const lvl = loadIgnore(ctx, cur, []);
    if (lvl) out.push(lvl);
  }
  return out;
}

function loadIgnore(ctx: ToolContext, dir: string, approved: readonly string[]): Level | null {
  const text = readSmall(ctx, join(dir, ".gitignore"), approved);
  return text === null ? null : { base: dir, ig: ignore().add(text) };
}

/** Reads a small regular file through the confined open; null when absent or unreadable. */
function readSmall(ctx: ToolContext, path: string, approved: readonly string[]): string | null {
  try {
    const v = openVerified(ctx, path, { noFollow: true, approvedOutside: approved });
    try {
      if (!v.stat.isFile() || v.stat.size > 1024 * 1024) return null;
      return fs.readFileSync(v.fd, "utf8");
    } finally {
      fs.closeSync(v.fd);
    }
  } catch {
    return null;
  }
}

function isIgnored(levels: Level[], abs: string, isDir: boolean): boolean {
  let state = false;
  for (const l of levels) {
    if (abs === l.base || !isWithin(abs, l.base)) continue;
    const t = l.ig.test(relative(l.base, abs) + (isDir ? "/" : ""));
    if (t.ignored) state = true;
    else if (t.unignored) state = false;
  }
  return state;
}
