/**
 * Path confinement for the file tools: resolve what a path really names, and check what was
 * really opened.
 *
 * Deno's own path permissions are lexical (they do not follow symlinks), so keeping the tools in
 * the workspace is retie's job. Two checks, both needed:
 *
 * - **At classification** ({@link resolveToolPath}): the path is resolved component by component
 *   the way the kernel does (symlinks followed, `..` applied to the real parent, `/proc/self/root`
 *   is a symlink to `/`), so the effect names the real path and says when it is outside.
 * - **At open** ({@link openVerified}): a name checked earlier proves nothing (it can be swapped for
 *   a symlink in between), so the handler opens first and then asks the kernel which file the
 *   descriptor refers to (its device and inode, matched against the name's real path after the
 *   open). That path, not the name as given, is checked against the
 *   workspace and the protected paths. Writes go to a fresh temp file (created `O_EXCL|O_NOFOLLOW`,
 *   verified the same way) in the verified parent directory and are renamed over the target.
 *
 * A regular file with more than one hard link may have its other names anywhere, so writes to it
 * are refused; reads are judged by the path they were opened through.
 *
 * @module
 */
import * as fs from "node:fs";
import { dirname, join, resolve } from "node:path";
import { errorMessage, RetieError } from "../core/errors.ts";
import type { ToolContext } from "../core/tool.ts";
import { isWithin, type RealPath } from "../core/paths.ts";
import { components, displayPath, pathProblem, protectedCover } from "./paths.ts";

const C = fs.constants;
const MAX_LINKS = 40;

/** A tool path argument resolved to the real path it names. */
export interface ResolvedPath {
  /** The argument as given. */
  input: string;
  /** Absolute real path (symlinks resolved; a missing tail is appended as written). */
  real: RealPath;
  /** The path exists now. */
  exists: boolean;
  /** The real path lies inside the workspace. */
  inside: boolean;
}

/**
 * Resolves `input` (relative to `base`, or absolute) to a real path, following symlinks component by
 * component like the kernel. Components that do not exist are appended as written.
 *
 * @example
 * ```ts
 * import { resolveRealPath } from "./confine.ts";
 * resolveRealPath("/", "/proc/self/root/etc").real; // "/etc"
 * ```
 */
export function resolveRealPath(
  base: string,
  input: string,
): { real: RealPath; exists: boolean } {
  let cur = input.startsWith("/") ? "/" : fs.realpathSync(base);
  const pending = components(input);
  let links = 0;
  let missing = false;
  while (pending.length > 0) {
    const c = pending.shift()!;
    if (c === ".") continue;
    if (c === "..") {
      cur = dirname(cur); // `cur` never holds a symlink, so its lexical parent is its real parent
      continue;
    }
    const next = join(cur, c);
    if (missing) {
      cur = next;
      continue;
    }
    let st: fs.Stats;
    try {
      st = fs.lstatSync(next);
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === "ENOENT" || code === "ENOTDIR") {
        missing = true; // the rest is appended as written; opening it will say what is wrong
        cur = next;
        continue;
      }
      throw new RetieError(`cannot resolve the path (${input}): ${errorMessage(e)}`, {
        hint: "choose a path you can reach",
        exitCode: 2,
        cause: e,
      });
    }
    if (st.isSymbolicLink()) {
      if (++links > MAX_LINKS) {
        throw new RetieError(`cannot resolve the path (${input}): too many levels of symlinks`, {
          hint: "the path contains a symlink loop; name the file by another path",
          exitCode: 2,
        });
      }
      const target = fs.readlinkSync(next);
      if (target.startsWith("/")) cur = "/";
      pending.unshift(...components(target));
      continue;
    }
    cur = next;
  }
  return { real: cur as RealPath, exists: !missing };
}

/**
 * Resolves a tool's path argument against the workspace and refuses protected paths.
 *
 * @throws RetieError when the path is malformed or reaches a protected path (ledger, stores,
 *   config): those are never reachable through tools, whatever the policy says.
 * @example
 * ```ts
 * import { resolveToolPath } from "./confine.ts";
 * declare const ctx: import("../core/tool.ts").ToolContext;
 * const r = resolveToolPath(ctx, "src/main.ts");
 * r.inside; // true when src/main.ts really lies in the workspace
 * ```
 */
export function resolveToolPath(ctx: ToolContext, input: string): ResolvedPath {
  const problem = pathProblem(input);
  if (problem) {
    throw new RetieError(`bad path (${JSON.stringify(input)}): ${problem}`, {
      hint: "give a path relative to the workspace, e.g. src/main.ts",
      exitCode: 2,
    });
  }
  const { real, exists } = resolveRealPath(ctx.workspace, input);
  refuseProtected(ctx, input, real);
  return { input, real, exists, inside: isWithin(real, ctx.workspace) };
}

/**
 * The protected paths as the checks need them: each made absolute and, besides, resolved to its
 * real path (a ledger given as `--ledger ledger.db`, or under a symlinked directory, must still be
 * matched against the real paths the tools compare it with).
 *
 * @example
 * ```ts
 * import { realProtectedPaths } from "./confine.ts";
 * declare const ctx: import("../core/tool.ts").ToolContext;
 * realProtectedPaths(ctx).every((p) => p.startsWith("/")); // true
 * ```
 */
export function realProtectedPaths(ctx: Pick<ToolContext, "protectedPaths">): string[] {
  // Resolved once per list (a call's context keeps its list): walks open every file they read.
  const cached = resolvedProtected.get(ctx.protectedPaths);
  if (cached) return cached;
  const out = new Set<string>();
  for (const p of ctx.protectedPaths) {
    const abs = resolve(p);
    out.add(abs);
    try {
      out.add(resolveRealPath("/", abs).real);
    } catch { /* unresolvable (a loop): the lexical path stays protected */ }
  }
  const list = [...out];
  resolvedProtected.set(ctx.protectedPaths, list);
  return list;
}

const resolvedProtected = new WeakMap<readonly string[], string[]>();

/** Throws when `real` is or lies under a protected path. */
function refuseProtected(ctx: ConfineScope, input: string, real: string): void {
  const cover = protectedCover(real, realProtectedPaths(ctx));
  if (cover) {
    throw new RetieError(
      `refused (${input}): it resolves to ${real}, which is retie's own state (${cover})`,
      {
        hint: "the ledger, the snapshot and blob stores and retie's config are never reachable " +
          "through tools; leave them alone",
        exitCode: 2,
      },
    );
  }
}

/**
 * The real path of what descriptor `fd` (opened through `name`) refers to, checked by identity:
 * the name is resolved to a real path after the open, and that path must hold the very inode
 * (device and inode number) the descriptor has. A symlink or directory swapped in before or after
 * the open makes the two differ, and the call is refused. (Deno grants `/proc/self/fd` only to
 * `--allow-all`, which retie never has, so the kernel's own link cannot be read.)
 *
 * @example
 * ```ts
 * import { openedPath } from "./confine.ts";
 * import { closeSync, openSync } from "node:fs";
 * const fd = openSync("/etc/hostname", "r");
 * openedPath(fd, "/etc/hostname"); // "/etc/hostname"
 * closeSync(fd);
 * ```
 */
export function openedPath(fd: number, name: string): RealPath {
  const st = fs.fstatSync(fd);
  let real: RealPath;
  let at: fs.Stats;
  try {
    real = fs.realpathSync(name) as RealPath;
    at = fs.lstatSync(real);
  } catch (e) {
    throw new RetieError(`${name} moved or was deleted while it was being opened`, {
      hint: "something else is changing the workspace; check it and try again",
      cause: e,
    });
  }
  if (at.dev !== st.dev || at.ino !== st.ino) {
    throw new RetieError(
      `${name} changed while it was being opened (now ${real} is another file)`,
      {
        hint:
          "something else is changing the workspace (a symlink swapped in?); check it and try again",
      },
    );
  }
  return real;
}

/** What confinement needs to know: the workspace and the paths nobody may reach. */
export type ConfineScope = Pick<ToolContext, "workspace" | "protectedPaths">;

/** An open, verified descriptor. Close it with `fs.closeSync(fd)`. */
export interface VerifiedFd {
  fd: number;
  /** Real path of what was opened, from the kernel. */
  real: RealPath;
  stat: fs.Stats;
}

/** Options of {@link openVerified}. */
export interface OpenOptions {
  /** Open a directory (O_DIRECTORY) instead of a file. */
  directory?: boolean;
  /** Do not follow a symlink in the last component (walks: entries were seen as non-links). */
  noFollow?: boolean;
  /** Real paths outside the workspace that the call was approved to read (and what lies below). */
  approvedOutside?: readonly string[];
}

/**
 * Opens `path` for reading, then checks the file actually opened: inside the workspace (or under an
 * approved outside path), not protected, not a hard link to a protected file.
 *
 * @throws RetieError with the reason when the check fails (the descriptor is closed).
 * @example
 * ```ts
 * import { openVerified } from "./confine.ts";
 * import { closeSync } from "node:fs";
 * declare const ctx: import("../core/tool.ts").ToolContext;
 * const v = openVerified(ctx, `${ctx.workspace}/README.md`);
 * closeSync(v.fd);
 * ```
 */
export function openVerified(
  ctx: ConfineScope,
  path: string,
  opts: OpenOptions = {},
): VerifiedFd {
  // O_NONBLOCK: opening a FIFO must not hang the call; it changes nothing for regular files.
  let flags = C.O_RDONLY | C.O_NONBLOCK;
  if (opts.directory) flags |= C.O_DIRECTORY;
  if (opts.noFollow) flags |= C.O_NOFOLLOW;
  let fd: number;
  try {
    fd = fs.openSync(path, flags);
  } catch (e) {
    throw openError(ctx, path, e);
  }
  try {
    const real = openedPath(fd, path);
    const stat = fs.fstatSync(fd);
    refuseProtected(ctx, path, real);
    if (protectedInode(ctx, stat)) {
      throw new RetieError(`refused (${path}): it is a hard link to retie's own state`, {
        hint: "remove the hard link; retie's ledger, stores and config are never reachable",
        exitCode: 2,
      });
    }
    const approved = (opts.approvedOutside ?? []).some((a) => isWithin(real, a));
    if (!isWithin(real, ctx.workspace) && !approved) {
      throw new RetieError(
        `refused (${displayPath(ctx.workspace, path)}): it now resolves to ${real}, outside the ` +
          "workspace, which this call was not approved to read",
        {
          hint: "the path changed after the call was checked (a symlink swapped in?); " +
            "check the workspace and ask again",
        },
      );
    }
    return { fd, real, stat };
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

/**
 * True when `st` (a file with several links) is one of the protected files: a protected path
 * itself, or a file up to two levels inside a protected directory (ledger, stores and their
 * side files live there). Only files with nlink > 1 pay for this look.
 */
function protectedInode(ctx: ConfineScope, st: fs.Stats): boolean {
  if (st.nlink <= 1 || !st.isFile()) return false;
  let budget = 2000;
  const same = (p: string, depth: number): boolean => {
    if (--budget < 0) return false;
    let q: fs.Stats;
    try {
      q = fs.lstatSync(p);
    } catch {
      return false; // absent: nothing to protect
    }
    if (q.isFile()) return q.dev === st.dev && q.ino === st.ino;
    if (!q.isDirectory() || depth >= 2) return false;
    try {
      return fs.readdirSync(p).some((n) => same(join(p, n), depth + 1));
    } catch {
      return false;
    }
  };
  return realProtectedPaths(ctx).some((p) => same(p, 0));
}

function openError(ctx: ConfineScope, path: string, e: unknown): RetieError {
  const code = (e as { code?: string }).code;
  const shown = displayPath(ctx.workspace, path);
  const why: Record<string, [string, string]> = {
    ENOENT: ["no such file or directory", "check the path with ls or glob"],
    ENOTDIR: ["a component of the path is not a directory", "check the path with ls"],
    EISDIR: ["it is a directory", "use ls to list a directory"],
    EACCES: ["permission denied", "choose a file you can read"],
    ELOOP: ["it is a symlink where none was expected", "the workspace changed; check it with ls"],
  };
  const [msg, hint] = why[code ?? ""] ?? [String(errorMessage(e) ?? e), "check the path"];
  return new RetieError(`cannot open (${shown}): ${msg}`, { hint, cause: e });
}

/**
 * Reads a text file that retie reads on its own behalf from the workspace (instructions, the
 * project policy), under the same confinement as the `read` tool: opened first, then checked by
 * what was really opened (inside the workspace, not retie's own state, a regular file, at most
 * `maxBytes`). Returns null when the file does not exist; throws {@link RetieError} with the
 * reason when it is refused (a symlink leading outside, a FIFO, a device, too large).
 *
 * @example
 * ```ts
 * import { readConfinedText } from "./confine.ts";
 * const r = readConfinedText({ workspace: "/tmp", protectedPaths: [] }, "/tmp/AGENTS.md", 65536);
 * r === null || typeof r.text === "string"; // true
 * ```
 */
export function readConfinedText(
  scope: ConfineScope,
  path: string,
  maxBytes: number,
): { text: string; real: string; bytes: Uint8Array } | null {
  try {
    fs.lstatSync(path);
  } catch {
    return null;
  }
  const v = openVerified(scope, path);
  try {
    const shown = displayPath(scope.workspace, path);
    if (!v.stat.isFile()) {
      throw new RetieError(`refused (${shown}): not a regular file`, {
        hint: "make it a plain text file, or remove it",
        exitCode: 2,
      });
    }
    if (v.stat.size > maxBytes) {
      throw new RetieError(`refused (${shown}): ${v.stat.size} bytes, more than ${maxBytes}`, {
        hint: "make it shorter",
        exitCode: 2,
      });
    }
    const buf = new Uint8Array(Math.min(v.stat.size, maxBytes) + 1);
    let n = 0;
    while (n < buf.length) {
      const k = fs.readSync(v.fd, buf, n, buf.length - n, n);
      if (k <= 0) break;
      n += k;
    }
    if (n > maxBytes) {
      throw new RetieError(`refused (${shown}): it grew past ${maxBytes} bytes while read`, {
        hint: "make it shorter",
        exitCode: 2,
      });
    }
    const bytes = buf.subarray(0, n);
    return { text: new TextDecoder().decode(bytes), real: v.real, bytes };
  } finally {
    fs.closeSync(v.fd);
  }
}
