/**
 * What a snapshot keeps of a file's contents, and what it does not: a sparse file (its size says
 * nothing of what really changed: holes are not stored), a file over {@link MAX_FILE_BYTES}, or
 * anything past {@link MAX_CAPTURE_BYTES} read in one capture, or anything that would take the
 * whole store past its cap (the retention setting `undoMaxMiB`). A file not kept is recorded with an
 * {@link UNKEPT} ref built from its size, mtime and inode, so a change to it is still seen; a
 * restore removes it when the action made it and names it as not restored otherwise.
 *
 * @module
 */

/** Prefix of the ref of a file whose contents a snapshot did not keep (then size:mtime:ino). */
export const UNKEPT = "unkept:";
/** Largest file whose contents a snapshot keeps. */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;
/** Most bytes one capture reads and stores; files beyond it are not kept (and said so). */
export const MAX_CAPTURE_BYTES = 512 * 1024 * 1024;
/** Files above this size that have less than half of it on disk are sparse: contents not kept. */
export const SPARSE_MIN_BYTES = 4 * 1024 * 1024;

/**
 * The ref of a file whose contents are not kept.
 *
 * @example
 * ```ts
 * import { unkeptRef } from "./keep.ts";
 * unkeptRef({ size: 5, mtime: 6, ino: 7 }); // "unkept:5:6:7"
 * ```
 */
export function unkeptRef(s: { size: number; mtime: number; ino: number }): string {
  return `${UNKEPT}${s.size}:${s.mtime}:${s.ino}`;
}

/**
 * Why a file's contents are not kept, in words for the record, or null when they are. `sofar`:
 * bytes the capture has read already.
 *
 * @example
 * ```ts
 * import { notKept } from "./keep.ts";
 * notKept({ size: 10 }, "/nonexistent", 0); // null
 * ```
 */
export function notKept(
  e: { size: number },
  abs: string,
  sofar: number,
  room: { bytes: number; used: number; cap: number } | null = null,
): string | null {
  const mib = (n: number) => `${(n / 1048576).toFixed(n < 1048576 ? 2 : 0)} MiB`;
  let alloc = e.size;
  if (e.size > SPARSE_MIN_BYTES) {
    try {
      alloc = (Deno.lstatSync(abs).blocks ?? e.size / 512) * 512;
    } catch { /* gone: the read finds out */ }
  }
  if (e.size > SPARSE_MIN_BYTES && alloc * 2 < e.size) {
    return `a sparse file (${mib(e.size)}, ${mib(alloc)} on disk): its contents are not kept; ` +
      "undo removes it if the action made it, and cannot restore it otherwise";
  }
  if (e.size > MAX_FILE_BYTES) {
    return `${mib(e.size)}, over the ${mib(MAX_FILE_BYTES)} a snapshot keeps of one file: ` +
      "its contents are not kept; undo cannot restore it";
  }
  if (sofar + e.size > MAX_CAPTURE_BYTES) {
    return `the snapshot already read ${mib(sofar)} (the cap is ${mib(MAX_CAPTURE_BYTES)}): ` +
      "its contents are not kept; undo cannot restore it";
  }
  if (room !== null && sofar + e.size > room.bytes) {
    return `the snapshot store holds ${mib(room.used)}, its cap is ${mib(room.cap)} ` +
      "(undoMaxMiB in retention.json): its contents are not kept; undo cannot restore it " +
      "(raise the cap, or remove the snapshot store file beside the ledger to start it afresh)";
  }
  return null;
}
