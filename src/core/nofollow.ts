/**
 * Writes that never follow a link out of a root: the primitives undo and snapshot restore use.
 *
 * Every directory between the root and the path is looked at with `lstat`, one component at a
 * time, and must be a real directory (a symlink — say a parent swapped for a link to `/etc` after
 * the action — is refused, never followed); the root itself must be its own real path. A file is
 * written to a fresh `O_EXCL|O_NOFOLLOW` name, checked by identity (the inode the descriptor holds
 * is the one at the expected path, whose parent chain is checked again), and renamed over the
 * target. What is removed is removed by name in its checked parent: a symlink goes as a link.
 *
 * No process of the agent runs while retie restores (sandboxed commands die with their sandbox),
 * so the check-then-act window is closed against what was planted before the undo; the identity
 * checks after each create catch a swap in between.
 *
 * @module
 */
import * as fs from "node:fs";
import { dirname, join } from "node:path";
import { errorMessage } from "./errors.ts";
import { isWithin, type RealPath } from "./paths.ts";

const C = fs.constants;

/** A restore that would leave its root, refused, with the reason. */
export class ConfinementError extends Error {
  override name = "ConfinementError";
}

function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

/**
 * Checks that `dir` lies in `root` and that every directory from `root` down to `dir` is a real
 * directory, not a symlink; with `create`, missing ones are made (mode 0700, then checked).
 *
 * @throws ConfinementError naming the component and why.
 * @example
 * ```ts
 * import { checkDirChain } from "./nofollow.ts";
 * import { toRealPath } from "./paths.ts";
 * const root = toRealPath(Deno.makeTempDirSync());
 * checkDirChain(root, root); // the root alone: fine, it is a real directory
 * ```
 */
export function checkDirChain(
  root: RealPath,
  dir: string,
  opts: { create?: boolean; verified?: Set<string> } = {},
): void {
  if (!isWithin(dir, root) || dir.split("/").some((c) => c === ".." || c === ".")) {
    throw new ConfinementError(`${dir} is outside ${root}: never restored`);
  }
  // Within one restore (no other process of the agent runs), a directory already checked on this
  // walk stays what it was until the restore itself removes something (the caller clears the set).
  const seen = opts.verified;
  if (seen?.has(dir)) return;
  if (seen && !seen.has(root)) {
    checkDirChain(root, root);
    seen.add(root);
  }
  if (seen?.has(dirname(dir)) && dir !== root) {
    checkOne(dir, opts.create ?? false);
    seen.add(dir);
    return;
  }
  let real: string;
  try {
    real = fs.realpathSync(root);
  } catch (e) {
    throw new ConfinementError(`the root ${root} cannot be resolved: ${errorMessage(e)}`);
  }
  if (real !== root) {
    throw new ConfinementError(`the root ${root} is reached through a symlink (it is ${real})`);
  }
  let cur: string = root;
  for (const c of dir.slice(root.length).split("/").filter((x) => x.length > 0)) {
    if (c === ".." || c === ".") throw new ConfinementError(`${dir}: "${c}" in the path`);
    cur = join(cur, c);
    checkOne(cur, opts.create ?? false);
    seen?.add(cur);
  }
}

/** One component: a real directory (made when `create` and absent), never a link. */
function checkOne(cur: string, create: boolean): void {
  let st = lstatOrNull(cur);
  if (st === null && create) {
    try {
      fs.mkdirSync(cur, { mode: 0o755 });
    } catch (e) {
      if ((e as { code?: string }).code !== "EEXIST") throw e;
    }
    st = lstatOrNull(cur);
  }
  if (st === null) throw new ConfinementError(`${cur} does not exist`);
  if (st.isSymbolicLink()) {
    throw new ConfinementError(
      `${cur} is a symlink (to ${fs.readlinkSync(cur)}), not the directory it was: not followed`,
    );
  }
  if (!st.isDirectory()) throw new ConfinementError(`${cur} is not a directory`);
}

/**
 * Writes `data` at `path` (inside `root`) with `mode`, never through a link: parents checked
 * (and made, with `createParents`), a fresh temp file checked by identity, renamed over `path`.
 *
 * @example
 * ```ts
 * import { writeFileNoFollow } from "./nofollow.ts";
 * import { toRealPath } from "./paths.ts";
 * const root = toRealPath(Deno.makeTempDirSync());
 * writeFileNoFollow(root, `${root}/a/b.txt`, new TextEncoder().encode("hi"), 0o644, true);
 * ```
 */
export function writeFileNoFollow(
  root: RealPath,
  path: string,
  data: Uint8Array,
  mode: number,
  createParents = false,
  verified?: Set<string>,
): void {
  const parent = dirname(path);
  checkDirChain(root, parent, { create: createParents, verified });
  const tmp = join(parent, `.retie-restore-${crypto.randomUUID()}`);
  const fd = fs.openSync(tmp, C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, 0o600);
  let renamed = false;
  try {
    const st = fs.fstatSync(fd);
    const seen = lstatOrNull(tmp);
    if (!seen || seen.ino !== st.ino || seen.dev !== st.dev) {
      throw new ConfinementError(`${parent} changed while writing ${path}`);
    }
    if (!verified) checkDirChain(root, parent);
    let off = 0;
    while (off < data.length) off += fs.writeSync(fd, data, off, data.length - off);
    fs.fchmodSync(fd, mode);
    fs.closeSync(fd);
    const target = lstatOrNull(path);
    if (target?.isDirectory()) throw new ConfinementError(`${path} is a directory now`);
    fs.renameSync(tmp, path);
    renamed = true;
  } catch (e) {
    try {
      fs.closeSync(fd);
    } catch { /* closed */ }
    if (!renamed) {
      try {
        fs.unlinkSync(tmp);
      } catch { /* gone */ }
    }
    throw e;
  }
}

/**
 * Removes `path` (inside `root`) by name in its checked parent: a symlink goes as a link, a
 * directory with its contents only when `recursive`. Absent is fine.
 *
 * @example
 * ```ts
 * import { removeNoFollow } from "./nofollow.ts";
 * import { toRealPath } from "./paths.ts";
 * const root = toRealPath(Deno.makeTempDirSync());
 * removeNoFollow(root, `${root}/absent.txt`);
 * ```
 */
export function removeNoFollow(root: RealPath, path: string, opts: { recursive?: boolean } = {}) {
  if (path === root) throw new ConfinementError(`refusing to remove the root ${root}`);
  const parent = dirname(path);
  try {
    checkDirChain(root, parent);
  } catch (e) {
    // A parent that does not exist holds nothing to remove.
    if (e instanceof ConfinementError && /does not exist$/.test(e.message)) return;
    throw e;
  }
  const st = lstatOrNull(path);
  if (st === null) return;
  if (st.isDirectory() && opts.recursive) fs.rmSync(path, { recursive: true, force: true });
  else if (st.isDirectory()) fs.rmdirSync(path);
  else fs.unlinkSync(path);
}

/**
 * A regular file's bytes, opened without following a link at `path` and without waiting on a
 * FIFO; null when it is absent or not a regular file (a link, a FIFO, a device, a directory).
 *
 * @example
 * ```ts
 * import { readRegularNoFollow } from "./nofollow.ts";
 * readRegularNoFollow("/nonexistent"); // null
 * ```
 */
export function readRegularNoFollow(path: string): Uint8Array | null {
  let fd: number;
  try {
    fd = fs.openSync(path, C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return null;
    return new Uint8Array(fs.readFileSync(fd));
  } finally {
    fs.closeSync(fd);
  }
}
