/**
 * Workspace files that are hard links to files outside the workspace (pnpm's store, a shared
 * cache). Without the copy-on-write view (the snapshot fallback) the sandbox binds the workspace
 * read-write, so a write through such a name would change every name of the file, outside the
 * workspace too. These files are bound read-only in the sandbox instead (see `bash.ts`).
 *
 * Each mount costs (bwrap re-reads the mount table per mount: 100 mounts ~40 ms, 500 ~1 s,
 * 1,000 ~2.5 s), so the mounts are as few as can be: a directory whose regular files (at any
 * depth) are all such links is one mount, and a directory that would need many mounts and holds
 * few other files (pnpm's `node_modules`: thousands of package files, two plain files of its own)
 * is one mount too; its few plain files are then read-only as well ({@link LinkScan.plainPinned}).
 * Over {@link MAX_PINNED_LINKS} mounts the command is not containable and asks.
 *
 * A file is linked outside when its link count is greater than the names of it the walk found
 * inside the workspace (two names of one file, both in the workspace, are not a way out).
 *
 * @module
 */
import { dirname, join } from "node:path";

/** Most read-only mounts of outside-linked files (or directories of them) a sandboxed command
 * may run with. */
export const MAX_PINNED_LINKS = 500;

/** A directory needing `n` mounts is one mount when it holds at most `n / PLAIN_RATIO` other
 * regular files (which become read-only with it). */
export const PLAIN_RATIO = 16;

/** What {@link outsideLinks} found. */
export interface LinkScan {
  /** Absolute paths of workspace regular files with a name outside the workspace (sorted). */
  paths: string[];
  /** What to bind read-only to cover them (directories and files, sorted). */
  mounts: string[];
  /** Regular files without a name outside that the mounts make read-only too. */
  plainPinned: number;
  /** Paths the walk looked at. */
  walked: number;
}

interface DirNode {
  /** Regular files in this directory not linked outside. */
  plain: number;
  /** Outside-linked files directly in this directory. */
  linked: string[];
  children: string[];
}

/**
 * Lists the regular files under `workspace` that have names outside it (link count above the
 * names found inside) and the read-only mounts that cover them, never following a symlink.
 * `skip`: absolute paths (and what lies below) left out, e.g. the paths the sandbox already
 * mounts read-only or hides. Unreadable directories are skipped (the sandboxed command, with the
 * same or fewer rights, cannot enter them either).
 *
 * @example
 * ```ts
 * import { outsideLinks } from "./hard_links.ts";
 * const dir = Deno.makeTempDirSync();
 * outsideLinks(dir, []).paths; // []
 * ```
 */
export function outsideLinks(workspace: string, skip: string[]): LinkScan {
  const skipped = new Set(skip);
  const seen = new Map<string, { nlink: number; names: string[] }>();
  const dirs = new Map<string, DirNode>();
  let walked = 0;
  const visit = (dir: string) => {
    const node: DirNode = { plain: 0, linked: [], children: [] };
    dirs.set(dir, node);
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch {
      return;
    }
    for (const e of entries) {
      const abs = join(dir, e.name);
      if (skipped.has(abs)) continue;
      walked++;
      if (e.isDirectory) {
        node.children.push(abs);
        visit(abs);
        continue;
      }
      if (!e.isFile) continue;
      let info: Deno.FileInfo;
      try {
        info = Deno.lstatSync(abs);
      } catch {
        continue;
      }
      if (!info.isFile) continue;
      const nlink = info.nlink ?? 1;
      if (nlink < 2) {
        node.plain++;
        continue;
      }
      const key = `${info.dev}:${info.ino}`;
      const s = seen.get(key);
      if (s) s.names.push(abs);
      else seen.set(key, { nlink, names: [abs] });
    }
  };
  visit(workspace);
  const paths: string[] = [];
  for (const s of seen.values()) {
    const outside = s.nlink > s.names.length;
    for (const n of s.names) {
      const node = dirs.get(dirname(n))!;
      if (outside) node.linked.push(n);
      else node.plain++;
    }
    if (outside) paths.push(...s.names);
  }
  paths.sort();
  // Bottom-up: the mounts a directory needs, and the plain files under it.
  let plainPinned = 0;
  const plan = (dir: string): { mounts: string[]; plain: number; pinned: number } => {
    const node = dirs.get(dir)!;
    const mounts = [...node.linked];
    let plain = node.plain;
    let pinned = 0;
    for (const c of node.children) {
      const r = plan(c);
      mounts.push(...r.mounts);
      plain += r.plain;
      pinned += r.pinned;
    }
    if (dir !== workspace && mounts.length > 0) {
      if (plain === 0) return { mounts: [dir], plain, pinned: 0 };
      if (mounts.length > 1 && plain * PLAIN_RATIO <= mounts.length) {
        return { mounts: [dir], plain, pinned: plain };
      }
    }
    return { mounts, plain, pinned };
  };
  const top = plan(workspace);
  plainPinned = top.pinned;
  return { paths, mounts: top.mounts.sort(), plainPinned, walked };
}
