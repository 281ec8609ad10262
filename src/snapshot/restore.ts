/**
 * Applying a restore: the filesystem half of `DirSnapshotStore.restore`, given the differences
 * between the tree and a manifest. Never follows a symlink: types come from the listing (lstat),
 * a path whose type changed is removed first, and files are written to a fresh `O_EXCL` name in
 * their (verified) directory and renamed over. Every parent is checked component by component
 * (`core/nofollow.ts`) before anything changes and again at each step: a parent swapped for a
 * symlink since the listing stops the restore with the reason, and nothing is written through it.
 *
 * @module
 */
import * as fs from "node:fs";
import { dirname } from "node:path";
import type { PathDiff } from "../core/snapshot.ts";
import { sha256Hex } from "../core/hash.ts";
import {
  checkDirChain,
  ConfinementError,
  readRegularNoFollow,
  removeNoFollow,
  writeFileNoFollow,
} from "../core/nofollow.ts";
import { absOf, type Manifest, type Seen } from "./tree.ts";
import { UNKEPT, unkeptRef } from "./keep.ts";
import type { RealPath } from "../core/paths.ts";

/**
 * Makes the tree at `real` equal to `man`, given `diffs` (sorted by path) and what the listing saw
 * (`cur`). `getBlob` returns verified file contents by hash.
 *
 * @example
 * ```ts
 * import { applyRestore } from "./restore.ts";
 * import { trustRealPath } from "../core/paths.ts";
 * // normally called by DirSnapshotStore.restore after comparing the tree with a manifest
 * applyRestore(trustRealPath("/work/p"), [], new Map(), new Map(), () => new Uint8Array());
 * ```
 */
export function applyRestore(
  real: RealPath,
  diffs: PathDiff[],
  man: Manifest,
  cur: Map<string, Seen>,
  getBlob: (hash: string) => Uint8Array,
): Map<string, string> {
  /** Paths that could not be brought back, with why. */
  const notRestored = new Map<string, string>();
  const touchedDirs = new Set<string>();
  // Before any change: no parent of a path to restore may be a symlink (or a file) unless the
  // listing saw it so and the restore replaces it (a command that swapped a directory for a link).
  const replaced = new Set(
    diffs.filter((d) => {
      const s = cur.get(d.path);
      const m = man.get(d.path);
      return s !== undefined && (m === undefined || m.kind !== s.kind);
    }).map((d) => d.path),
  );
  for (const d of diffs) precheck(real, d.path, replaced);
  // Directories we must write into or delete from need owner rwx for a non-root restorer.
  for (const [rel, s] of cur) {
    if (s.kind === "d" && (s.mode & 0o700) !== 0o700) {
      chmodDir(real, absOf(real, rel), s.mode | 0o700);
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
    if (m && m.kind === s.kind) continue;
    if (under(d.path)) continue;
    removeNoFollow(real, absOf(real, d.path), { recursive: s.kind === "d" });
    if (s.kind === "d") removed.push(d.path);
  }
  const gone = (p: string) => {
    const s = cur.get(p);
    const m = man.get(p);
    return !s || under(p) || (m !== undefined && s.kind !== m.kind);
  };
  // Directories checked from here on stay checked: nothing below removes a directory.
  const verified = new Set<string>();
  // 2. Directories (sorted: parents first), then files and symlinks.
  const changed = diffs.filter((d) => d.change !== "added").map((d) => d.path);
  for (const p of changed) {
    const m = man.get(p)!;
    if (m.kind === "d" && gone(p)) {
      checkDirChain(real, dirname(absOf(real, p)), { verified });
      Deno.mkdirSync(absOf(real, p), { mode: 0o700 });
      touchedDirs.add(p);
    } else if (m.kind === "d") touchedDirs.add(p);
  }
  for (const p of changed) {
    const m = man.get(p)!;
    const abs = absOf(real, p);
    if (m.kind === "f" && m.ref.startsWith(UNKEPT)) {
      const s = gone(p) ? undefined : cur.get(p);
      if (s && unkeptRef(s) === m.ref) {
        chmodFile(real, abs, m.mode, verified);
      } else {
        notRestored.set(p, "its contents were not kept by the snapshot (see the action's notes)");
      }
    } else if (m.kind === "f") {
      const s = gone(p) ? undefined : cur.get(p);
      if (s && sameContent(real, abs, m.ref, verified)) chmodFile(real, abs, m.mode, verified);
      else writeFileNoFollow(real, abs, getBlob(m.ref), m.mode, false, verified);
    } else if (m.kind === "l") {
      if (!gone(p)) removeNoFollow(real, abs);
      checkDirChain(real, dirname(abs), { verified });
      Deno.symlinkSync(m.ref, abs);
    }
  }
  // 3. Directory modes, deepest first (a read-only parent would block its children).
  const dirs = [...touchedDirs].filter((p) => man.get(p)?.kind === "d").sort().reverse();
  for (const p of dirs) chmodDir(real, absOf(real, p), man.get(p)!.mode, verified);
  return notRestored;
}

/** Throws when a parent of `rel` that the restore keeps is not a real directory now. */
function precheck(real: string, rel: string, replaced: Set<string>): void {
  const parts = rel.split("/");
  let a = "";
  for (let i = 0; i < parts.length - 1; i++) {
    a = a ? `${a}/${parts[i]}` : parts[i];
    if (replaced.has(a)) return; // removed and made again by the restore itself
    let st: fs.Stats;
    try {
      st = fs.lstatSync(absOf(real, a));
    } catch {
      return; // absent: made by the restore
    }
    if (st.isSymbolicLink() || !st.isDirectory()) {
      throw new ConfinementError(
        `${absOf(real, a)} is ${
          st.isSymbolicLink() ? "a symlink" : "not a directory"
        } now, though it was a directory when the tree was listed: not followed, nothing restored`,
      );
    }
  }
}

/** chmod of a directory reached through real directories only (chmod follows a link). */
function chmodDir(root: RealPath, abs: string, mode: number, verified?: Set<string>): void {
  checkDirChain(root, abs, { verified });
  Deno.chmodSync(abs, mode);
}

/** chmod of a regular file in a checked parent, never through a link. */
function chmodFile(root: RealPath, abs: string, mode: number, verified?: Set<string>): void {
  checkDirChain(root, dirname(abs), { verified });
  const fd = fs.openSync(
    abs,
    fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK,
  );
  try {
    fs.fchmodSync(fd, mode);
  } finally {
    fs.closeSync(fd);
  }
}

function sameContent(
  root: RealPath,
  abs: string,
  hash: string,
  verified?: Set<string>,
): boolean {
  checkDirChain(root, dirname(abs), { verified });
  // A link or anything else now is rewritten by rename, never followed or read.
  const bytes = readRegularNoFollow(abs);
  return bytes !== null && sha256Hex(bytes) === hash;
}
