/**
 * Sockets, FIFOs and devices in a snapshotted tree. Snapshots leave them out (they are never
 * opened: a FIFO would block the reader), and each capture names them in a note (see `leftOut`).
 * After a snapshot restore, the undo takes away the ones the action made, from the notes of the
 * capture before and after it: named after, not before, and made (birth time, else inode change
 * time, in whole seconds) no earlier than the action started. One the action removed cannot be
 * made again (Deno has no mknod): it is named as not restored.
 *
 * @module
 */
import * as fs from "node:fs";
import { removeNoFollow } from "../core/nofollow.ts";
import { toRealPath } from "../core/paths.ts";
import { absOf, OTHER_NOTE } from "./tree.ts";

/**
 * The relative paths a capture's notes name as sockets, FIFOs or devices.
 *
 * @example
 * ```ts
 * import { specialsOf } from "./specials.ts";
 * import { leftOut } from "./tree.ts";
 * specialsOf([leftOut("a/fifo", { kind: "other" })!]); // ["a/fifo"]
 * ```
 */
export function specialsOf(notes: readonly string[] | undefined): string[] {
  const out: string[] = [];
  for (const n of notes ?? []) {
    if (n.endsWith(OTHER_NOTE)) out.push(n.slice(0, n.length - OTHER_NOTE.length));
  }
  return out;
}

function special(st: fs.Stats | null): boolean {
  return st !== null && !st.isFile() && !st.isDirectory() && !st.isSymbolicLink();
}

function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

/**
 * After a restore of `root`: removes the sockets, FIFOs and devices the action made (named in
 * `after`, not in `before`, made at or after `sinceMs`), never following a link on the way.
 * Returns the paths removed and those that were there before and are gone (not restorable).
 *
 * @example
 * ```ts
 * import { settleSpecials } from "./specials.ts";
 * settleSpecials(Deno.makeTempDirSync(), [], [], Date.now()); // { removed: [], missed: [] }
 * ```
 */
export function settleSpecials(
  root: string,
  before: readonly string[] | undefined,
  after: readonly string[] | undefined,
  sinceMs: number,
): { removed: string[]; missed: string[] } {
  const real = toRealPath(root);
  const was = new Set(specialsOf(before));
  const removed: string[] = [];
  const missed: string[] = [];
  // Times in whole seconds (Deno and some filesystems): a path made in the action's first second
  // counts as the action's.
  const since = Math.floor(sinceMs / 1000) * 1000;
  for (const rel of specialsOf(after)) {
    if (was.has(rel)) continue;
    const abs = absOf(real, rel);
    const st = lstatOrNull(abs);
    if (!special(st)) continue; // the restore already removed or replaced it
    const made = st!.birthtimeMs > 0 ? st!.birthtimeMs : st!.ctimeMs;
    if (made < since) continue; // older than the action: not the action's to remove
    removeNoFollow(real, abs);
    removed.push(rel);
  }
  for (const rel of was) {
    if (!special(lstatOrNull(absOf(real, rel)))) {
      missed.push(
        `${rel} (a socket, FIFO or device the action removed or replaced: undo ` +
          "cannot make one again)",
      );
    }
  }
  return { removed, missed };
}
