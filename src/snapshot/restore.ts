/**
 * Applying a restore: the filesystem half of `DirSnapshotStore.restore`, given the differences
 * between the tree and a manifest. Never follows a symlink: types come from the listing (lstat),
 * a path whose type changed is removed first, and files are written to a fresh `O_EXCL` name in
 * their (verified) directory and renamed over.
 *
 * @module
 */
import { dirname } from "node:path";
import type { PathDiff } from "../core/snapshot.ts";
import { sha256Hex } from "../core/hash.ts";
import { absOf, type Manifest, type ManifestEntry, type Seen } from "./tree.ts";

/**
 * Makes the tree at `real` equal to `man`, given `diffs` (sorted by path) and what the listing saw
 * (`cur`). `getBlob` returns verified file contents by hash.
 *
 * @example
 * ```ts
 * import { applyRestore } from "./restore.ts";
 * // normally called by DirSnapshotStore.restore after comparing the tree with a manifest
 * applyRestore("/work/p", [], new Map(), new Map(), () => new Uint8Array());
 * ```
 */
export function applyRestore(
  real: string,
  diffs: PathDiff[],
  man: Manifest,
  cur: Map<string, Seen>,
  getBlob: (hash: string) => Uint8Array,
): void {
  const touchedDirs = new Set<string>();
  // Directories we must write into or delete from need owner rwx for a non-root restorer.
  for (const [rel, s] of cur) {
    if (s.kind === "d" && (s.mode & 0o700) !== 0o700) {
      Deno.chmodSync(absOf(real, rel), s.mode | 0o700);
      touchedDirs.add(rel);
    }
  }
  // 1. Remove what must go: new paths, and paths whose type changed (deepest last is fine:
  //    removing a directory removes its subtree, which we then skip).
  const removed: string[] = [];
  const under = (p: string) => removed.some((r) => p.startsWith(r + "/"));
  for (const d of diffs) {
    const s = cur.get(d.path);
    const m = man.get(d.path);
    if (!s || d.path === ".") continue;
    if (m && m.t === s.kind) continue;
    if (under(d.path)) continue;
    Deno.removeSync(absOf(real, d.path), { recursive: s.kind === "d" });
    if (s.kind === "d") removed.push(d.path);
  }
  const gone = (p: string) => {
    const s = cur.get(p);
    const m = man.get(p);
    return !s || under(p) || (m !== undefined && s.kind !== m.t);
  };
  // 2. Directories (sorted: parents first), then files and symlinks.
  const changed = diffs.filter((d) => d.change !== "added").map((d) => d.path);
  for (const p of changed) {
    const m = man.get(p)!;
    if (m.t === "d" && gone(p)) {
      Deno.mkdirSync(absOf(real, p), { mode: 0o700 });
      touchedDirs.add(p);
    } else if (m.t === "d") touchedDirs.add(p);
  }
  for (const p of changed) {
    const m = man.get(p)!;
    const abs = absOf(real, p);
    if (m.t === "f") {
      const s = gone(p) ? undefined : cur.get(p);
      if (s && sameContent(abs, m.r)) Deno.chmodSync(abs, m.m);
      else writeFile(abs, m, getBlob(m.r));
    } else if (m.t === "l") {
      if (!gone(p)) Deno.removeSync(abs);
      Deno.symlinkSync(m.r, abs);
    }
  }
  // 3. Directory modes, deepest first (a read-only parent would block its children).
  const dirs = [...touchedDirs].filter((p) => man.get(p)?.t === "d").sort().reverse();
  for (const p of dirs) Deno.chmodSync(absOf(real, p), man.get(p)!.m);
}

function sameContent(abs: string, hash: string): boolean {
  return sha256Hex(Deno.readFileSync(abs)) === hash;
}

/** Writes `data` to a fresh name beside `abs`, then renames over it (never through a symlink). */
function writeFile(abs: string, m: ManifestEntry, data: Uint8Array): void {
  const tmp = `${dirname(abs)}/.retie-restore-${crypto.randomUUID()}`;
  const f = Deno.openSync(tmp, { write: true, createNew: true, mode: 0o600 });
  try {
    let off = 0;
    while (off < data.length) off += f.writeSync(data.subarray(off));
  } finally {
    f.close();
  }
  Deno.chmodSync(tmp, m.m);
  Deno.renameSync(tmp, abs);
}
