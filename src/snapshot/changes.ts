/**
 * A capture from a list of changed paths instead of a walk: the previous index, updated with what
 * is on disk now at those paths. New directories are walked whole.
 *
 * @module
 */
import { absOf, type IndexEntry, leftOut, statMatches, tooLong, toSeen, walkTree } from "./tree.ts";
import type { Listed } from "./walk.ts";
import { RetieError } from "../core/errors.ts";

/** What a scan of the tree (a walk or a list of changes) produced for a capture. */
export interface Scan {
  /** The new index: unchanged paths keep the previous entry object. */
  entries: Map<string, IndexEntry>;
  /** Files to read and store: their new entry and absolute path. */
  toHash: [IndexEntry, string][];
  /** Paths not in the previous index. */
  added: number;
  /** Those paths, when known (a scan of changes): the manifest id then reuses the sorted keys. */
  addedKeys?: string[];
  /** Paths whose entry was replaced ({@link scanChanges} only). */
  changed?: string[];
  /** Paths of the previous index that are gone (filled by {@link scanChanges} only). */
  removed: string[];
  /** Paths looked at with lstat ({@link scanChanges} only). */
  looked?: number;
  /** Notes on paths left out (sockets, FIFOs, devices, paths too long). */
  leftOut?: string[];
}

/** The index entry for a listed path, its blob hash still to fill for files.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { entryOf } from "./changes.ts";
 * assert.deepEqual(entryOf({ rel: "a", target: "", kind: "d", mode: 0o755, size: 0, mtime: 0, ctime: 0, ino: 1 }).kind, "d");
 * ```
 */
export function entryOf(s: Listed): IndexEntry {
  return {
    kind: s.kind as IndexEntry["kind"],
    mode: s.mode,
    ref: s.kind === "l" ? s.target : "",
    size: s.size,
    mtime: s.mtime,
    ctime: s.ctime,
    ino: s.ino,
  };
}

/** True when the previous entry still describes the listed path (no read needed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sameEntry } from "./changes.ts";
 * const prev = { kind: "d", mode: 0o755, ref: "", size: 0, mtime: 0, ctime: 0, ino: 1 } as const;
 * const now = { rel: "a", target: "", kind: "d", mode: 0o755, size: 0, mtime: 0, ctime: 0, ino: 1 } as const;
 * assert.equal(sameEntry(prev, now, 0), true);
 * ```
 */
export function sameEntry(p: IndexEntry, s: Listed, indexTime: number): boolean {
  return (s.kind === "f" && statMatches(p, s, indexTime)) ||
    (s.kind === "d" && p.kind === "d" && p.mode === s.mode) ||
    (s.kind === "l" && p.kind === "l" && p.ref === s.target);
}

/** The error for a socket, FIFO or device in the tree.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unrestorable } from "./changes.ts";
 * assert.match(unrestorable("/work/p/sock").message, /sockets, FIFOs and devices cannot be restored/);
 * ```
 */
export function unrestorable(abs: string): RetieError {
  return new RetieError(`snapshot (${abs}): sockets, FIFOs and devices cannot be restored`, {
    hint: "remove it from the workspace or add its path to the excluded paths",
  });
}

function isNotFound(e: unknown): boolean {
  return e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory;
}

/**
 * Updates `prev` (the index of `real` at the previous capture) with the current state of the
 * absolute `paths` reported changed since. Returns why a walk is needed instead when the changes
 * cannot be trusted to name every changed path: a directory of the index moved or vanished
 * (inotify may report later events inside it by its old path), a change was reported under a path
 * that is not in the tree (through a symlink), or a new directory holds a symlink to a directory
 * (notify follows those).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scanChanges } from "./changes.ts";
 * const prev = { time: Date.now(), entries: new Map() };
 * // A change under a path the previous index does not hold: a string says why to walk instead.
 * assert.equal(
 *   scanChanges("/work/p", [], prev, new Set(["/work/p/src/main.ts"])),
 *   "a change was reported under src/main.ts, which is not in the tree",
 * );
 * ```
 */
export function scanChanges(
  real: string,
  exclude: string[],
  prev: { time: number; entries: Map<string, IndexEntry> },
  paths: ReadonlySet<string>,
): Scan | string {
  const ex = new Set(exclude);
  const excluded = (rel: string): boolean => {
    if (ex.size === 0) return false;
    for (let i = rel.indexOf("/"); i !== -1; i = rel.indexOf("/", i + 1)) {
      if (ex.has(rel.slice(0, i))) return true;
    }
    return ex.has(rel);
  };
  const entries = new Map(prev.entries);
  const scan: Scan = {
    entries,
    toHash: [],
    added: 0,
    removed: [],
    looked: 0,
    leftOut: [],
    changed: [],
    addedKeys: [],
  };
  const todo = new Set<string>();
  for (const abs of paths) {
    if (abs === real) todo.add(".");
    else if (abs.startsWith(real + "/")) {
      const rel = abs.slice(real.length + 1);
      if (!excluded(rel)) todo.add(rel);
    }
  }
  // Subtrees walked whole: paths below them need no look of their own.
  const covered: string[] = [];
  const isCovered = (rel: string) => covered.some((c) => rel.startsWith(c + "/"));
  const drop = (rel: string) => {
    entries.delete(rel);
    if (prev.entries.has(rel)) scan.removed.push(rel);
  };
  let byIno: Map<number, string[]> | undefined;
  // Sorted: a directory comes before the paths below it.
  const queue = [...todo].sort();
  const done = new Set<string>();
  for (let qi = 0; qi < queue.length; qi++) {
    const rel = queue[qi];
    if (done.has(rel) || isCovered(rel)) continue;
    done.add(rel);
    const old = entries.get(rel);
    if (rel !== ".") {
      const i = rel.lastIndexOf("/");
      const parent = entries.get(i === -1 ? "." : rel.slice(0, i));
      if (parent?.kind !== "d") {
        return `a change was reported under ${rel}, which is not in the tree`;
      }
    }
    const abs = absOf(real, rel);
    let info: Deno.FileInfo;
    if (tooLong(abs)) {
      return `a change was reported at a path too long to look at (${rel.length} chars)`;
    }
    try {
      info = Deno.lstatSync(abs);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      if (old?.kind === "d") return `the directory ${rel} moved or vanished`;
      drop(rel);
      continue;
    }
    scan.looked!++;
    const seen = toSeen(info);
    if (seen.kind === "other") {
      // Left out of snapshots (never opened): what was here before is gone from the tree.
      if (old) drop(rel);
      scan.leftOut?.push(leftOut(rel, seen)!);
      continue;
    }
    const s: Listed = { ...seen, rel, target: seen.kind === "l" ? Deno.readLinkSync(abs) : "" };
    if (old?.kind === "d" && (s.kind !== "d" || s.ino !== old.ino)) {
      return `the directory ${rel} moved or vanished`;
    }
    if (s.kind === "d" && old?.kind !== "d") {
      // A new directory (or one replacing a file): everything below it is new.
      if (old) drop(rel);
      if (!walkNew(real, rel, ex, scan)) {
        return `the new directory ${rel} holds a symlink to a directory`;
      }
      covered.push(rel);
      continue;
    }
    if (old && sameEntry(old, s, prev.time)) continue;
    const e = entryOf(s);
    if (!prev.entries.has(rel)) {
      scan.added++;
      scan.addedKeys!.push(rel);
    }
    entries.set(rel, e);
    scan.changed!.push(rel);
    if (s.kind === "f") {
      scan.toHash.push([e, abs]);
      // Another name of the same file changed too: look at every name of this inode.
      if ((info.nlink ?? 1) > 1) {
        byIno ??= inodeNames(prev.entries);
        for (const other of byIno.get(s.ino) ?? []) if (other !== rel) queue.push(other);
      }
    }
  }
  // A path dropped and then found again (a file replaced by a directory) is not removed.
  scan.removed = scan.removed.filter((k) => !entries.has(k));
  scan.addedKeys = [...new Set(scan.addedKeys)].filter((k) => !prev.entries.has(k));
  return scan;
}

function inodeNames(entries: Map<string, IndexEntry>): Map<number, string[]> {
  const m = new Map<number, string[]>();
  for (const [k, e] of entries) {
    if (e.kind !== "f") continue;
    const l = m.get(e.ino);
    if (l) l.push(k);
    else m.set(e.ino, [k]);
  }
  return m;
}

/** Walks a new directory into the scan; false when it holds a symlink to a directory. */
function walkNew(real: string, rel: string, ex: ReadonlySet<string>, scan: Scan): boolean {
  const sub = new Set<string>();
  for (const e of ex) if (e.startsWith(rel + "/")) sub.add(e.slice(rel.length + 1));
  let dirLink = false;
  walkTree(absOf(real, rel), sub, (r, abs, seen) => {
    const full = r === "." ? rel : `${rel}/${r}`;
    const note = leftOut(full, seen);
    if (note !== null) {
      scan.leftOut?.push(note);
      return;
    }
    const s: Listed = {
      ...seen,
      rel: full,
      target: seen.kind === "l" ? Deno.readLinkSync(abs) : "",
    };
    if (s.kind === "l") {
      try {
        if (Deno.statSync(abs).isDirectory) dirLink = true;
      } catch { /* dangling */ }
    }
    const e = entryOf(s);
    scan.entries.set(full, e);
    scan.added++;
    scan.addedKeys?.push(full);
    scan.changed?.push(full);
    if (s.kind === "f") scan.toHash.push([e, abs]);
  });
  return !dirLink;
}
