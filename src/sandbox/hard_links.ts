/**
 * Workspace files that are hard links to files outside the workspace (pnpm's store, a shared
 * cache). Without the copy-on-write view (the snapshot fallback) the sandbox binds the workspace
 * read-write, so a write through such a name would change every name of the file, outside the
 * workspace too. These files are bound read-only in the sandbox instead (see `bash.ts`): a
 * directory whose files are all such links as one mount (pnpm's `node_modules/.pnpm` is one), any
 * other such file on its own. Each mount costs (bwrap re-reads the mount table per mount: 100
 * mounts ~35 ms, 1,000 ~2.5 s), so over {@link MAX_PINNED_LINKS} mounts the command is not
 * containable and asks.
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

/** What {@link outsideLinks} found. */
export interface LinkScan {
  /** Absolute paths of workspace regular files with a name outside the workspace (sorted). */
  paths: string[];
  /** What to bind read-only to cover them: directories whose regular files (at any depth) are
   * all in `paths`, highest first, and the files of `paths` no such directory covers (sorted). */
  mounts: string[];
  /** Paths the walk looked at. */
  walked: number;
}

/**
 * Lists the regular files under `workspace` that have names outside it (link count above the
 * names found inside), never following a symlink. `skip`: absolute paths (and what lies below)
 * left out, e.g. the paths the sandbox already mounts read-only or hides. Unreadable directories
 * are skipped (the sandboxed command, a non-root id, cannot enter them either).
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
  /** Directories holding, at some depth, a regular file that is not linked outside. */
  const dirty = new Set<string>();
  const dirtyUp = (abs: string) => {
    for (let d = dirname(abs); d.length > workspace.length && !dirty.has(d); d = dirname(d)) {
      dirty.add(d);
    }
  };
  let walked = 0;
  const visit = (dir: string) => {
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
      const nlink = info.nlink ?? 1;
      if (!info.isFile) continue;
      if (nlink < 2) {
        dirtyUp(abs);
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
    if (s.nlink > s.names.length) paths.push(...s.names);
    else for (const n of s.names) dirtyUp(n);
  }
  paths.sort();
  const mounts = new Set<string>();
  for (const p of paths) {
    // The highest clean directory above the file (below the workspace), else the file itself.
    let top = p;
    for (let d = dirname(p); d.length > workspace.length && !dirty.has(d); d = dirname(d)) top = d;
    mounts.add(top);
  }
  return { paths, mounts: [...mounts].sort(), walked };
}
