/**
 * The state of one workspace path for staged commands: reading it (storing a file's bytes in the
 * blob store in 1 MiB chunks, holes left out), digesting it (for the clobber check), and writing a
 * recorded state back (undo). Paths are opened below a root whose every parent component is
 * checked not to be a symlink, so nothing is read or written outside the workspace.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { BlobStore } from "../core/blob_store.ts";
import type { EntryState } from "../core/staging.ts";

/** Chunk size for stored file contents; an all-zero chunk is a hole and is not stored. */
export const CHUNK = 1 << 20;
/** The system's limit on a path (PATH_MAX, with its NUL). */
export const PATH_LIMIT = 4095;

/** A subtree manifest: relative path ("" is the top) and state, parents first. */
export type TreeManifest = [string, EntryState][];

/**
 * Throws unless every directory between `root` and `rel` is a real directory (not a symlink).
 *
 * @example
 * ```ts
 * import { confinedPath } from "./upper_state.ts";
 * confinedPath(Deno.cwd(), "a.txt"); // `${Deno.cwd()}/a.txt` when nothing on the way is a link
 * ```
 */
export function confinedPath(root: string, rel: string): string {
  if (rel.startsWith("/") || rel.split("/").some((p) => p === ".." || p === ".")) {
    throw new Error(`${rel}: not a plain path below the workspace`);
  }
  const parts = rel.split("/").filter((p) => p !== "");
  let at = root;
  for (const p of parts.slice(0, -1)) {
    at = join(at, p);
    const st = Deno.lstatSync(at);
    if (!st.isDirectory) throw new Error(`${rel}: ${at} is not a directory (a link?)`);
  }
  const full = join(root, ...parts);
  if (full.length > PATH_LIMIT) throw new Error(`${rel}: longer than the system's path limit`);
  return full;
}

function isZero(b: Uint8Array): boolean {
  const words = Math.floor(b.length / 4);
  const w = new Uint32Array(b.buffer, b.byteOffset, words);
  for (let i = 0; i < words; i++) if (w[i] !== 0) return false;
  for (let i = words * 4; i < b.length; i++) if (b[i] !== 0) return false;
  return true;
}

/** lstat that returns null for a missing path. */
export function lstatOrNull(p: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(p);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}

/**
 * True when the entry was written after `sinceMs`: its mtime (ms) is later, or its ctime
 * (which Deno gives to the second, and nobody can set) falls in a later second.
 *
 * @example
 * ```ts
 * import { changedSince } from "./upper_state.ts";
 * changedSince(Deno.lstatSync("/"), Date.now() + 10_000); // false
 * ```
 */
export function changedSince(st: Deno.FileInfo | null, sinceMs: number): boolean {
  if (!st) return false;
  const m = st.mtime?.getTime() ?? 0;
  const c = st.ctime?.getTime() ?? 0;
  return m > sinceMs || Math.floor(c / 1000) > Math.floor(sinceMs / 1000);
}

/** True for an overlay whiteout (a character device 0:0). */
export function isWhiteout(st: Deno.FileInfo): boolean {
  return st.isCharDevice === true && st.rdev === 0;
}

/**
 * The state of `path` (lstat'ed), with a file's contents stored in `blobs` when given.
 *
 * @example
 * ```ts
 * import { readState } from "./upper_state.ts";
 * readState("/nonexistent/x").type; // "absent"
 * ```
 */
export function readState(path: string, blobs?: BlobStore): EntryState {
  const st = lstatOrNull(path);
  if (!st) return { type: "absent" };
  const mode = (st.mode ?? 0) & 0o7777;
  if (st.isSymlink) return { type: "symlink", target: Deno.readLinkSync(path) };
  if (st.isDirectory) return { type: "dir", mode };
  if (st.isFifo) return { type: "fifo", mode };
  if (!st.isFile) throw new Error(`${path}: a socket or device cannot be recorded`);
  const out: EntryState = { type: "file", mode, size: st.size, mtime: st.mtime?.getTime() };
  if (!blobs) return out;
  const chunks: Record<string, string> = {};
  // Holes are looked for only in a file that has some (fewer blocks than its size needs).
  const sparse = st.blocks !== null && st.blocks * 512 < st.size;
  const f = Deno.openSync(path, { read: true });
  try {
    const buf = new Uint8Array(CHUNK);
    for (let i = 0; i * CHUNK < st.size; i++) {
      let n = 0;
      while (n < CHUNK) {
        const r = f.readSync(buf.subarray(n));
        if (r === null || r === 0) break;
        n += r;
      }
      if (n === 0) break;
      const part = buf.subarray(0, n);
      if (!sparse || !isZero(part)) chunks[String(i)] = blobs.put(part.slice());
    }
  } finally {
    f.close();
  }
  return { ...out, chunks };
}

/** Bytes a recorded file state holds in the blob store. */
export function storedBytes(s: EntryState): number {
  if (s.type !== "file" || !s.chunks) return 0;
  return Object.keys(s.chunks).reduce((n, i) => n + Math.min(CHUNK, s.size - Number(i) * CHUNK), 0);
}

/** The metadata the clobber check compares (contents by size and mtime, not by hash). */
function stateLine(rel: string, s: EntryState): string {
  switch (s.type) {
    case "absent":
      return `${rel}\0absent`;
    case "file":
      return `${rel}\0file\0${s.mode}\0${s.size}\0${s.mtime ?? ""}`;
    case "dir":
      return `${rel}\0dir\0${s.mode}`;
    case "symlink":
      return `${rel}\0symlink\0${s.target}`;
    case "fifo":
      return `${rel}\0fifo\0${s.mode}`;
  }
}

/**
 * Lists the subtree at `path` (itself first, as ""), states without contents unless `blobs`.
 *
 * @example
 * ```ts
 * import { listTree } from "./upper_state.ts";
 * listTree("/nonexistent"); // [["", { type: "absent" }]]
 * ```
 */
export function listTree(path: string, blobs?: BlobStore): TreeManifest {
  const out: TreeManifest = [];
  const visit = (p: string, rel: string) => {
    if (p.length > PATH_LIMIT) {
      throw new Error(
        `${rel.slice(0, 60)}… (${rel.length} characters): longer than the system's path limit`,
      );
    }
    const s = readState(p, blobs);
    out.push([rel, s]);
    if (s.type !== "dir") return;
    const names = [...Deno.readDirSync(p)].map((e) => e.name).sort();
    for (const n of names) visit(join(p, n), rel ? `${rel}/${n}` : n);
  };
  visit(path, "");
  return out;
}

/**
 * Digest of the state at `path` (a whole subtree for a directory), as the clobber check sees it.
 *
 * @example
 * ```ts
 * import { stateDigest } from "./upper_state.ts";
 * stateDigest("/nonexistent").length; // 64
 * ```
 */
export function stateDigest(path: string, modeOnly = false): string {
  return manifestDigest(modeOnly ? [["", readState(path)]] : listTree(path));
}

/**
 * Digest of a manifest, as {@link stateDigest} computes it from the tree on disk.
 *
 * @example
 * ```ts
 * import { ABSENT_DIGEST, manifestDigest } from "./upper_state.ts";
 * manifestDigest([["", { type: "absent" }]]) === ABSENT_DIGEST; // true
 * ```
 */
export function manifestDigest(m: TreeManifest): string {
  const h = createHash("sha256");
  for (const [rel, s] of m) h.update(stateLine(rel, s) + "\n");
  return h.digest("hex");
}

/** The digest of an absent path (what a deletion leaves). */
export const ABSENT_DIGEST: string = createHash("sha256").update("\0absent\n").digest("hex");

/** Removes whatever is at `path` (a subtree too), never following a link. */
export function removeEntry(path: string): void {
  const st = lstatOrNull(path);
  if (!st) return;
  if (st.isDirectory) Deno.removeSync(path, { recursive: true });
  else Deno.removeSync(path);
}

/**
 * Writes a recorded state at `path` (whose parent exists and was checked): files beside it then
 * renamed over it, so another name of the file it replaces is never written.
 *
 * @example
 * ```ts
 * import { writeState } from "./upper_state.ts";
 * import { BlobStore } from "../core/blob_store.ts";
 * const dir = Deno.makeTempDirSync();
 * writeState(`${dir}/x`, { type: "symlink", target: "y" }, new BlobStore(":memory:"));
 * Deno.readLinkSync(`${dir}/x`); // "y"
 * ```
 */
export function writeState(
  path: string,
  s: EntryState,
  blobs: BlobStore,
  opts: { fresh?: boolean } = {},
): void {
  // `fresh`: the path is inside a tree this restore has just created, so nothing is there to
  // replace: written in place (one rename and two lstats fewer per file).
  const tmp = opts.fresh ? path : `${path}.retie-undo-${Deno.pid}`;
  if (!opts.fresh) removeEntry(tmp);
  switch (s.type) {
    case "absent":
      removeEntry(path);
      return;
    case "dir": {
      if (opts.fresh) {
        // Writable while its entries are written; the caller applies the mode last.
        Deno.mkdirSync(path, { mode: 0o700 });
        return;
      }
      const st = lstatOrNull(path);
      if (!st?.isDirectory) {
        removeEntry(path);
        Deno.mkdirSync(path);
      }
      Deno.chmodSync(path, s.mode);
      return;
    }
    case "symlink":
      Deno.symlinkSync(s.target, tmp);
      break;
    case "fifo":
      throw new Error(`${path}: a FIFO is restored from the kept entry, not written`);
    case "file": {
      const f = Deno.openSync(tmp, { write: true, createNew: true, mode: 0o600 });
      try {
        for (const [i, id] of Object.entries(s.chunks ?? {})) {
          const bytes = blobs.get(id);
          f.seekSync(Number(i) * CHUNK, Deno.SeekMode.Start);
          let n = 0;
          while (n < bytes.length) n += f.writeSync(bytes.subarray(n));
        }
        f.truncateSync(s.size); // the tail hole, if any
      } finally {
        f.close();
      }
      Deno.chmodSync(tmp, s.mode);
      if (s.mtime !== undefined) Deno.utimeSync(tmp, new Date(), new Date(s.mtime));
      break;
    }
  }
  if (opts.fresh) return;
  const st = lstatOrNull(path);
  if (st?.isDirectory) Deno.removeSync(path, { recursive: true });
  Deno.renameSync(tmp, path);
}
