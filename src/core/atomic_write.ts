/**
 * One way to replace a file whole: write a temp file beside the target, fsync it, rename it over
 * the target, then fsync the directory (best effort). A reader sees the old file or the new one,
 * never a torn write, and a crash leaves at most a stray `*.tmp` file beside the target.
 *
 * Not for writes that must refuse symlinks along the way (confined tool writes, undo restores):
 * those use `core/nofollow.ts`.
 *
 * @module
 */

import { dirname } from "node:path";

/** Options for {@link writeFileAtomicSync}. */
export interface AtomicWriteOptions {
  /** Permission bits of the new file (exactly these, whatever the umask). Default 0o600. */
  mode?: number;
  /** Create missing parent directories with this mode first (e.g. 0o700). Default: do not. */
  mkdirMode?: number;
}

/**
 * Replaces `path` with `data` atomically: temp file beside it (`<path>.<pid>.tmp`), fsync,
 * rename, directory fsync. On failure the temp file is removed and the target is untouched.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeFileAtomicSync } from "./atomic_write.ts";
 * const path = `${Deno.makeTempDirSync()}/state.json`;
 * writeFileAtomicSync(path, '{"a":1}\n');
 * writeFileAtomicSync(path, '{"a":2}\n', { mode: 0o644 });
 * assert.equal(Deno.readTextFileSync(path), '{"a":2}\n');
 * assert.equal(Deno.statSync(path).mode! & 0o777, 0o644);
 * ```
 */
export function writeFileAtomicSync(
  path: string,
  data: string | Uint8Array,
  opts: AtomicWriteOptions = {},
): void {
  const mode = opts.mode ?? 0o600;
  const dir = dirname(path);
  if (opts.mkdirMode !== undefined) Deno.mkdirSync(dir, { recursive: true, mode: opts.mkdirMode });
  // One name per process: the call is synchronous, so two writes from one thread cannot
  // interleave, and a temp file a crashed process left behind is simply overwritten.
  const tmp = `${path}.${Deno.pid}.tmp`;
  const file = Deno.openSync(tmp, { write: true, create: true, truncate: true, mode });
  let closed = false;
  try {
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
    let off = 0;
    while (off < bytes.length) off += file.writeSync(bytes.subarray(off));
    Deno.chmodSync(tmp, mode); // exactly `mode`, whatever the umask
    file.syncSync();
    closed = true;
    file.close();
    Deno.renameSync(tmp, path);
  } catch (e) {
    if (!closed) {
      try {
        file.close();
      } catch { /* already closed */ }
    }
    try {
      Deno.removeSync(tmp);
    } catch { /* gone */ }
    throw e;
  }
  syncDir(dir);
}

/** Makes a rename in `dir` durable; best effort where directories cannot be fsynced. */
function syncDir(dir: string): void {
  let d: Deno.FsFile;
  try {
    d = Deno.openSync(dir, { read: true });
  } catch {
    return;
  }
  try {
    d.syncSync();
  } catch {
    /* some filesystems refuse fsync on directories */
  } finally {
    d.close();
  }
}
