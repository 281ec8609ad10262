/**
 * What git reads as control, per git directory: the files that make the user's next `git` command
 * on the host run code or read configuration (hooks, config, `config.worktree`, `commondir`,
 * `gitdir`, `info/` (attributes select filter drivers), alternates, old-style remotes), the targets
 * of those that are symlinks, the git dirs a `commondir`, a submodule (`modules/`) or a linked
 * worktree (`worktrees/`) leads to, a `core.hooksPath` (the repository's, or a relative or
 * in-workspace one from the user's global or system config) and included config files.
 *
 * Everything is collected into a {@link GitControlSet}: `readOnly` (mounted read-only in the
 * sandbox), `pinned` (git dirs mounted on themselves: a mount point cannot be renamed or removed,
 * so a command cannot swap a `.git` for its own) and `identity` (every control path that exists,
 * with its device and inode: the sandbox compares it after the command, so anything that appeared
 * or was swapped — a `.git` created where none was, a `commondir` added — is seen and removed).
 *
 * @module
 */
import * as fs from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { isBelow, isWithin, realPathOrNull } from "../core/paths.ts";

/** Entries of a git dir that git reads as control (relative to the git dir). */
export const GIT_CONTROL_ENTRIES: readonly string[] = [
  "config",
  "config.worktree",
  "hooks",
  "info",
  "commondir",
  "gitdir",
  "objects/info/alternates",
  "objects/info/http-alternates",
  "remotes",
  "branches",
];

/** The control paths of a workspace, as the sandbox and the file tools use them. */
export interface GitControlSet {
  /** Control paths that exist: mounted read-only in the sandbox. */
  readOnly: Set<string>;
  /** Git directories inside the workspace: mounted on themselves (cannot be renamed or removed). */
  pinned: Set<string>;
  /** Every control path that exists, with `dev:ino` (lstat): compared after a command. */
  identity: Map<string, string>;
}

/** An empty set to fill. */
export function emptyControlSet(): GitControlSet {
  return { readOnly: new Set(), pinned: new Set(), identity: new Map() };
}

/** lstat, or null when the path does not exist (or cannot be looked at). */
export function lstatOrNull(p: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(p);
  } catch {
    return null;
  }
}

/** Most of a git file read to find what it points at (configs, `.git` files, `commondir`). */
const READ_MAX = 1024 * 1024;

/**
 * A small text file's contents, opened without waiting on a FIFO and read only when it is a
 * regular file (a FIFO, a device such as `/dev/zero` behind a symlink, or a directory throws).
 *
 * @example
 * ```ts
 * import { readSmallText } from "./git_control.ts";
 * try { readSmallText("/nonexistent"); } catch { /* absent *\/ }
 * ```
 */
export function readSmallText(p: string): string {
  const fd = fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new Error(`${p}: not a regular file`);
    if (st.size > READ_MAX) throw new Error(`${p}: larger than ${READ_MAX} bytes`);
    return fs.readFileSync(fd, "utf8");
  } finally {
    fs.closeSync(fd);
  }
}

function note(out: GitControlSet, p: string, st: Deno.FileInfo): void {
  out.identity.set(p, `${st.dev}:${st.ino}:${st.isSymlink ? "l" : st.isDirectory ? "d" : "f"}`);
}

/** Adds an existing control path. A symlink is followed to its target when that lies inside
 * `ws` (the target is what the sandbox mounts read-only); the link itself is watched, since a
 * mount cannot cover a link (the after-check sees it replaced). */
function addControl(ws: string, p: string, out: GitControlSet): void {
  const st = lstatOrNull(p);
  if (!st) return;
  note(out, p, st);
  if (!st.isSymlink) {
    out.readOnly.add(p);
    return;
  }
  const t = realPathOrNull(p);
  if (t && isBelow(t, ws)) {
    const ts = lstatOrNull(t);
    if (ts) note(out, t, ts);
    out.readOnly.add(t);
  }
}

/**
 * True when `dir` looks like a git directory to git's discovery: a `HEAD` file and an `objects`
 * directory or a `commondir` file.
 *
 * @example
 * ```ts
 * import { isGitDir } from "./git_control.ts";
 * isGitDir("/nonexistent"); // false
 * ```
 */
export function isGitDir(dir: string): boolean {
  const head = lstatOrNull(join(dir, "HEAD"));
  if (!head || head.isDirectory) return false;
  return lstatOrNull(join(dir, "objects"))?.isDirectory === true ||
    lstatOrNull(join(dir, "commondir")) !== null;
}

/** The user's global and system git config files (read directly: they are the user's own). */
export function globalGitConfigs(): string[] {
  const env = (k: string) => {
    try {
      return Deno.env.get(k);
    } catch {
      return undefined;
    }
  };
  const home = env("HOME");
  const xdg = env("XDG_CONFIG_HOME") ?? (home ? join(home, ".config") : undefined);
  return [
    "/etc/gitconfig",
    ...(xdg ? [join(xdg, "git", "config")] : []),
    ...(home ? [join(home, ".gitconfig")] : []),
  ];
}

/** `core.hooksPath` values in the user's global and system config, read once per process. */
let globalHooks: string[] | undefined;

/**
 * The `core.hooksPath` values set in the user's global or system git config (a relative one is
 * relative to each working tree, so it may name a directory the workspace holds).
 *
 * @example
 * ```ts
 * import { globalHooksPaths } from "./git_control.ts";
 * globalHooksPaths().length >= 0; // true
 * ```
 */
export function globalHooksPaths(): string[] {
  if (globalHooks) return globalHooks;
  const found: string[] = [];
  for (const f of globalGitConfigs()) {
    let text: string;
    try {
      text = readSmallText(f);
    } catch {
      continue;
    }
    for (const [key, v] of configEntries(text)) if (key === "core.hookspath") found.push(v);
  }
  globalHooks = found;
  return found;
}

/** `section.key` (lower case) and value of each setting in a git config text. */
function configEntries(text: string): [string, string][] {
  const out: [string, string][] = [];
  let section = "";
  for (const line of text.split("\n")) {
    const head = /^\s*\[\s*([A-Za-z0-9.-]+)/.exec(line);
    if (head) section = head[1].toLowerCase();
    const kv = /^\s*(?:\[[^\]]*\]\s*)?([A-Za-z0-9-]+)\s*=\s*(.+?)\s*$/.exec(line);
    if (!kv) continue;
    out.push([`${section}.${kv[1].toLowerCase()}`, kv[2].replace(/^"(.*)"$/, "$1")]);
  }
  return out;
}

/**
 * Protects what a git config file makes run or read later: a `core.hooksPath` directory inside the
 * workspace, and files it includes (`[include]`/`[includeIf] path =`) inside the workspace, whose
 * own settings are scanned the same way.
 */
function scanConfig(ws: string, file: string, out: GitControlSet, top: string, depth: number) {
  let text: string;
  try {
    text = readSmallText(file);
  } catch {
    return; // unreadable: git cannot read it either
  }
  for (const [key, v] of configEntries(text)) {
    if (key === "core.hookspath") {
      if (v.startsWith("~")) continue; // the user's home: outside the workspace
      const p = resolve(top, v);
      if (isBelow(p, ws)) addControl(ws, p, out);
    } else if (key === "include.path" || key === "includeif.path") {
      const p = realPathOrNull(isAbsolute(v) ? v : resolve(dirname(file), v));
      if (p && isWithin(p, ws) && !out.readOnly.has(p)) {
        addControl(ws, p, out);
        if (depth < 8) scanConfig(ws, p, out, top, depth + 1);
      }
    }
  }
}

/**
 * Adds the control entries of git dir `g` (a path inside `ws`; `top` is the working tree it
 * serves, for relative `core.hooksPath`), and follows `commondir`, submodules and linked worktrees.
 *
 * @example
 * ```ts
 * import { emptyControlSet, protectGitDir } from "./git_control.ts";
 * const out = emptyControlSet();
 * protectGitDir("/work/p", "/work/p/.git", out, "/work/p");
 * ```
 */
export function protectGitDir(
  ws: string,
  g: string,
  out: GitControlSet,
  top: string,
  depth = 0,
): void {
  if (depth > 8 || out.pinned.has(g)) return;
  const st = lstatOrNull(g);
  if (!st) return;
  if (st.isSymlink) {
    const real = realPathOrNull(g);
    note(out, g, st);
    if (real && isBelow(real, ws)) protectGitDir(ws, real, out, top, depth + 1);
    return;
  }
  if (!st.isDirectory) return;
  note(out, g, st);
  if (g !== ws) out.pinned.add(g);
  for (const e of GIT_CONTROL_ENTRIES) addControl(ws, join(g, e), out);
  for (const h of globalHooksPaths()) {
    const p = resolve(top, h);
    if (isBelow(p, ws)) addControl(ws, p, out);
  }
  scanConfig(ws, join(g, "config"), out, top, 0);
  scanConfig(ws, join(g, "config.worktree"), out, top, 0);
  const cd = join(g, "commondir");
  if (lstatOrNull(cd)?.isFile) {
    try {
      const rel = readSmallText(cd).trim();
      const common = realPathOrNull(isAbsolute(rel) ? rel : resolve(g, rel));
      if (common && isWithin(common, ws) && common !== g) {
        protectGitDir(ws, common, out, top, depth + 1);
      }
    } catch { /* unreadable: git cannot use it either */ }
  }
  for (const sub of ["modules", "worktrees"]) {
    const d = join(g, sub);
    if (lstatOrNull(d)?.isDirectory) findGitDirs(ws, d, out, depth + 1);
  }
}

/** Git dirs below `dir` (submodule and worktree git dirs, which may nest by name). */
function findGitDirs(ws: string, dir: string, out: GitControlSet, depth: number): void {
  if (depth > 16) return;
  if (isGitDir(dir)) {
    protectGitDir(ws, dir, out, dir, depth);
    return;
  }
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return;
  }
  for (const e of entries) if (e.isDirectory) findGitDirs(ws, join(dir, e.name), out, depth + 1);
}

/**
 * Adds what a `.git` entry (file, directory or symlink) at `dotGit` in working tree `top` makes
 * git read: the entry itself, and the git dir it is or points at (when inside the workspace).
 *
 * @example
 * ```ts
 * import { emptyControlSet, protectDotGit } from "./git_control.ts";
 * const out = emptyControlSet();
 * protectDotGit("/work/p", "/work/p/.git", out, "/work/p");
 * ```
 */
export function protectDotGit(ws: string, dotGit: string, out: GitControlSet, top: string) {
  const st = lstatOrNull(dotGit);
  if (!st) return;
  if (st.isDirectory || st.isSymlink) {
    protectGitDir(ws, dotGit, out, top);
    return;
  }
  note(out, dotGit, st);
  out.readOnly.add(dotGit); // "gitdir: <path>" redirects git: keep it as it is
  try {
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readSmallText(dotGit));
    if (m) {
      const g = realPathOrNull(isAbsolute(m[1]) ? m[1] : resolve(dirname(dotGit), m[1]));
      if (g && isWithin(g, ws)) protectGitDir(ws, g, out, top);
    }
  } catch { /* unreadable */ }
}
