/**
 * Confined writes: a verified temp file in the verified parent directory, renamed over the target.
 *
 * The target is re-resolved when the handler runs (never trusted from classification); parents
 * are created one component at a time, refusing anything that became a symlink; the temp file is
 * created `O_EXCL|O_NOFOLLOW` and checked by identity (device and inode); after the rename the target is
 * opened again and must be the very inode that was written. A file with several hard links is
 * refused: its other names may lie outside the workspace.
 *
 * @module
 */
import * as fs from "node:fs";
import { basename, dirname, join } from "node:path";
import { RetieError } from "../core/errors.ts";
import type { Effect } from "../core/effect.ts";
import type { ToolContext } from "../core/tool.ts";
import { gitProtectedCover } from "../sandbox/protected_paths.ts";
import { openedPath, openVerified, resolveToolPath } from "./confine.ts";
import { isWithin } from "../core/paths.ts";
import { components, displayPath } from "./paths.ts";

const C = fs.constants;

/**
 * Makes sure directory `dir` (a real path inside the workspace) exists, creating missing parts one
 * by one and refusing any part that is (now) a symlink or a file.
 *
 * @example
 * ```ts
 * import { ensureDirInside } from "./confine_write.ts";
 * declare const ctx: import("../core/tool.ts").ToolContext;
 * ensureDirInside(ctx, `${ctx.workspace}/src/new`);
 * ```
 */
export function ensureDirInside(ctx: ToolContext, dir: string): void {
  if (!isWithin(dir, ctx.workspace)) {
    throw new RetieError(`refused (${dir}): outside the workspace`, {
      hint: "tools write only inside the workspace",
      exitCode: 2,
    });
  }
  let cur = ctx.workspace;
  for (const c of components(dir.slice(ctx.workspace.length))) {
    cur = join(cur, c);
    let st: fs.Stats | null = null;
    try {
      st = fs.lstatSync(cur);
    } catch { /* missing: create below */ }
    if (st === null) {
      try {
        fs.mkdirSync(cur);
      } catch (e) {
        if ((e as { code?: string }).code !== "EEXIST") throw e;
      }
      st = fs.lstatSync(cur);
    }
    if (!st.isDirectory()) {
      throw new RetieError(
        `cannot create the directory (${displayPath(ctx.workspace, cur)}): it is ` +
          (st.isSymbolicLink() ? "a symlink (it changed after the call was checked)" : "a file"),
        { hint: "choose another path, or look at what is there with ls", exitCode: 2 },
      );
    }
  }
}

/** The result of {@link writeFileConfined}. */
export interface WriteOutcome {
  real: string;
  created: boolean;
  bytes: number;
}

/**
 * Writes `data` to the path argument `input`, inside the workspace only: resolves it, creates the
 * parents, writes a verified temp file beside it and renames it into place (keeping the old mode).
 *
 * @throws RetieError when the path is outside, protected, a directory, a hard-linked file, or
 *   changes while the write is under way.
 * @example
 * ```ts
 * import { writeFileConfined } from "./confine_write.ts";
 * declare const ctx: import("../core/tool.ts").ToolContext;
 * await writeFileConfined(ctx, "notes/todo.md", new TextEncoder().encode("- ship\n"));
 * ```
 */
export function writeFileConfined(
  ctx: ToolContext,
  input: string,
  data: Uint8Array,
  approved?: Effect,
): WriteOutcome {
  const r = resolveToolPath(ctx, input);
  if (!r.inside) {
    throw new RetieError(`refused (${input}): it resolves to ${r.real}, outside the workspace`, {
      hint: `tools write only inside the workspace (${ctx.workspace})`,
      exitCode: 2,
    });
  }
  if (approved) checkApproved(ctx, input, r.real, approved);
  const parent = dirname(r.real);
  ensureDirInside(ctx, parent);
  const old = existingTarget(ctx, input, r.real);
  const tmp = join(parent, `.${basename(r.real)}.retie-${crypto.randomUUID().slice(0, 8)}.tmp`);
  const mode = old ? old.mode & 0o7777 : 0o666;
  const fd = fs.openSync(tmp, C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, mode);
  let renamed = false;
  try {
    const opened = openedPath(fd, tmp);
    if (opened !== tmp) {
      throw new RetieError(`refused (${input}): the directory moved while writing (${opened})`, {
        hint: "something else is changing the workspace; check it and try again",
      });
    }
    if (old) fs.fchmodSync(fd, mode); // the umask must not narrow the file's old mode
    let off = 0;
    while (off < data.length) off += fs.writeSync(fd, data, off, data.length - off);
    const tmpStat = fs.fstatSync(fd);
    fs.closeSync(fd);
    fs.renameSync(tmp, r.real);
    renamed = true;
    verifyRenamed(ctx, input, r.real, tmpStat);
  } catch (e) {
    try {
      fs.closeSync(fd);
    } catch { /* already closed */ }
    if (!renamed) {
      try {
        fs.unlinkSync(tmp);
      } catch { /* nothing left behind */ }
    }
    throw e;
  }
  return { real: r.real, created: old === null, bytes: data.length };
}

/** The write must be the one approved: the same file, and git's only if approved as such. */
function checkApproved(ctx: ToolContext, input: string, real: string, approved: Effect): void {
  if (!approved.writes.includes(real)) {
    throw new RetieError(
      `refused (${input}): it now resolves to ${real}, not the file this call was approved to write`,
      { hint: "something changed the workspace since the call was checked; call it again" },
    );
  }
  const git = gitProtectedCover(ctx.workspace, real);
  if (git !== null && approved.class !== "irreversible") {
    throw new RetieError(
      `refused (${input}): ${displayPath(ctx.workspace, real)} is now git's control ` +
        `(${displayPath(ctx.workspace, git)}), which this call was not approved to change`,
      { hint: "call it again: a write to git's files needs a person's approval" },
    );
  }
}

function existingTarget(ctx: ToolContext, input: string, real: string): fs.Stats | null {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(real);
  } catch {
    return null;
  }
  const shown = displayPath(ctx.workspace, real);
  if (st.isDirectory()) {
    throw new RetieError(`cannot write (${shown}): it is a directory`, {
      hint: "give the path of a file inside it",
      exitCode: 2,
    });
  }
  if (st.isSymbolicLink()) {
    throw new RetieError(`refused (${input}): ${shown} became a symlink after it was checked`, {
      hint: "something else is changing the workspace; check it and try again",
    });
  }
  if (!st.isFile()) {
    throw new RetieError(`cannot write (${shown}): it is not a regular file`, {
      hint: "choose a regular file",
      exitCode: 2,
    });
  }
  if (st.nlink > 1) {
    throw new RetieError(
      `refused (${shown}): the file has ${st.nlink} hard links, and the others may be outside ` +
        "the workspace",
      {
        hint: "break the link first (copy the file and replace it) or edit it yourself",
        exitCode: 2,
      },
    );
  }
  return st;
}

function verifyRenamed(ctx: ToolContext, input: string, real: string, tmp: fs.Stats): void {
  const v = openVerified(ctx, real, { noFollow: true });
  try {
    if (v.real !== real || v.stat.ino !== tmp.ino || v.stat.dev !== tmp.dev) {
      throw new RetieError(`the write to ${input} landed elsewhere (${v.real})`, {
        hint: "something else is changing the workspace; check it",
      });
    }
  } finally {
    fs.closeSync(v.fd);
  }
}
