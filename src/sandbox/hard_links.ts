/**
 * Workspace files that are hard links to files outside the workspace (pnpm's store, a shared
 * cache). Without the copy-on-write view (the snapshot fallback) the sandbox binds the workspace
 * read-write, so a write through such a name would change every name of the file, outside the
 * workspace too. These files are bound read-only onto themselves in the sandbox instead (see
 * `bash.ts`); over {@link MAX_PINNED_LINKS} of them the command is not containable and asks.
 *
 * A file is linked outside when its link count is greater than the names of it the walk found
 * inside the workspace (two names of one file, both in the workspace, are not a way out).
 *
 * @module
 */
import { join } from "node:path";

/** Most outside-linked files a sandboxed command may run with (each is one read-only mount). */
export const MAX_PINNED_LINKS = 2_000;

/** What {@link outsideLinks} found. */
export interface LinkScan {
  /** Absolute paths of workspace regular files with a name outside the workspace (sorted). */
  paths: string[];
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
      if (!info.isFile || nlink < 2) continue;
      const key = `${info.dev}:${info.ino}`;
      const s = seen.get(key);
      if (s) s.names.push(abs);
      else seen.set(key, { nlink, names: [abs] });
    }
  };
  visit(workspace);
  const paths: string[] = [];
  for (const s of seen.values()) if (s.nlink > s.names.length) paths.push(...s.names);
  return { paths: paths.sort(), walked };
}
