/**
 * The sandbox's /etc: one prepared copy of the allowlisted entries (`ETC_ALLOWLIST`), bound
 * read-only at /etc with a single mount. bwrap re-reads /proc/self/mountinfo for every mount, so
 * the 31 `--ro-bind-try` it replaces cost ~4 ms per command.
 *
 * What is copied, from `source` (the host's /etc):
 * - allowlisted files, with their content and permission bits (setuid/setgid dropped);
 * - allowlisted directories, recursively: files, subdirectories, and symlinks as symlinks (same
 *   target text, e.g. /etc/ssl/certs/*.pem → /usr/share/ca-certificates/…, which resolves through
 *   the read-only /usr inside the sandbox);
 * - an allowlisted entry that is itself a symlink (resolv.conf → /run/…, localtime →
 *   /usr/share/zoneinfo/…) as its target's content: a bind mount follows the symlink, so that
 *   content is exactly what `--ro-bind-try` showed, and it works whatever the target (/run is
 *   absent in the sandbox). localtime gets no special case for the same reason.
 * Missing, dangling, unreadable (EACCES) and special (fifo, socket, device) entries are skipped.
 * Nothing else of /etc is ever read. A walk over 20,000 entries or 64 MiB throws (the caller then
 * binds the entries one by one).
 *
 * Where and when: `<cacheDir>/sandbox-etc/<content hash>/` (the parent is 0700). Before every
 * sandboxed command `ensureEtcView` computes a cheap fingerprint: lstat + stat of each top-level
 * entry (~31 of each, no recursion). While it matches, the view found earlier in this process is
 * used. Otherwise (and on the first call of a process) the allowlist is walked; the hash of that
 * walk (every path; type, mode, size, mtime, inode of files and directories) names the view,
 * which is reused if it exists and otherwise copied into a temp dir and renamed into place. So an
 * in-place edit of a file nested in an allowlisted directory (e.g. /etc/perl/x) is picked up when
 * the top-level entry's lstat/stat changes or at the next process start, not in between.
 *
 * Two processes may build the same view at once: the rename that loses finds the winner's
 * directory and uses it. Views and stray temp dirs unused for a day are removed best-effort; a
 * view in use is touched every 10 minutes so that a running sandbox never loses its /etc.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { cacheDir } from "../core/dirs.ts";
import { ETC_ALLOWLIST } from "./bwrap_args.ts";

/** Options for {@link ensureEtcView} and {@link buildEtcView}; tests point them at a fake /etc. */
export interface EtcViewOptions {
  /** The host directory the allowlist's `/etc/…` paths are read from (default `/etc`). */
  source?: string;
  /** Absolute `/etc/…` paths to copy (default `ETC_ALLOWLIST`). */
  allowlist?: readonly string[];
  /** Directory that holds the views (default `<cacheDir>/sandbox-etc`). */
  root?: string;
}

/** One entry of the view; `top` marks an allowlisted path (its parents may need creating). */
type Item =
  & { rel: string; top: boolean }
  & (
    | { kind: "dir"; mode: number }
    | { kind: "file"; mode: number; src: string }
    | { kind: "link"; src: string }
  );

const KEEP_UNUSED_MS = 24 * 3600_000;
/** Beyond this (a top-level link to a huge directory?) the per-entry binds are cheaper. */
const MAX_ITEMS = 20_000;
const MAX_BYTES = 64 << 20;
const TOUCH_EVERY_MS = 10 * 60_000;

/** Per process: options key → last fingerprint, its view, when the view was last touched. */
const memo = new Map<string, { fp: string; path: string; touched: number }>();

function resolveOpts(o: EtcViewOptions) {
  const allowlist = o.allowlist ?? ETC_ALLOWLIST;
  const rels = allowlist.map((e) => {
    const rel = e.startsWith("/etc/") ? e.slice(5) : "";
    if (!rel || rel.split("/").some((s) => s === "" || s === "." || s === "..")) {
      throw new Error(`etc view: allowlist entry (${e}) must be a plain /etc/… path`);
    }
    return rel;
  });
  return { source: o.source ?? "/etc", rels, root: o.root ?? join(cacheDir(), "sandbox-etc") };
}

/** A NotFound or PermissionDenied: skip the entry. Anything else is a real failure. */
function skippable(e: unknown): boolean {
  return e instanceof Deno.errors.NotFound || e instanceof Deno.errors.PermissionDenied;
}

function exists(p: string): boolean {
  try {
    Deno.statSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Marks a view as in use (its mtime); best-effort, e.g. on a read-only cache. */
function touch(p: string): void {
  try {
    const now = new Date();
    Deno.utimeSync(p, now, now);
  } catch { /* a stale mtime only risks early removal by another process */ }
}

function statLine(s: Deno.FileInfo): string {
  const kind = s.isFile ? "f" : s.isDirectory ? "d" : s.isSymlink ? "l" : "o";
  return `${kind} ${s.mode} ${s.size} ${s.mtime?.getTime()} ${s.ctime?.getTime()} ${s.ino}`;
}

/**
 * The cheap fingerprint of the allowlist: sha256 over lstat, link target and stat of each
 * top-level entry. No recursion: this runs before every sandboxed command.
 *
 * @example
 * ```ts
 * import { etcFingerprint } from "./etc_view.ts";
 * etcFingerprint().length; // 64 (hex sha256)
 * ```
 */
export function etcFingerprint(opts: EtcViewOptions = {}): string {
  const { source, rels } = resolveOpts(opts);
  const h = createHash("sha256").update(`etc-view v1\0${source}\0`);
  for (const rel of rels) {
    const p = join(source, rel);
    let line = rel;
    try {
      const l = Deno.lstatSync(p);
      line += `\0${statLine(l)}`;
      if (l.isSymlink) line += `\0${Deno.readLinkSync(p)}\0${statLine(Deno.statSync(p))}`;
    } catch (e) {
      line += `\0${(e as Error).name}`;
    }
    h.update(line + "\n");
  }
  return h.digest("hex");
}

/**
 * Walks the allowlist (no content read): what to copy, and a hash naming it. Nested symlinks get
 * no lstat: a link cannot change in place, so replacing one changes its directory's mtime, which
 * is hashed (this keeps the walk cheap: /etc/ssl/certs and /etc/alternatives are mostly links).
 */
function scan(source: string, rels: string[]): { items: Item[]; name: string } {
  const items: Item[] = [];
  let bytes = 0;
  const h = createHash("sha256").update(`etc-view v1\0${source}\0`);
  const add = (it: Item, s?: Deno.FileInfo) => {
    items.push(it);
    bytes += s?.size ?? 0;
    if (items.length > MAX_ITEMS || bytes > MAX_BYTES) {
      throw new Error(
        `etc view: the allowlist holds over ${items.length} entries or ${bytes} bytes`,
      );
    }
    h.update(`${it.rel}\0${it.kind}\0${s ? statLine(s) : ""}\n`);
  };
  const walk = (src: string, rel: string, s: Deno.FileInfo, top = false) => {
    if (s.isFile) return add({ kind: "file", rel, top, mode: s.mode! & 0o777, src }, s);
    if (!s.isDirectory) return; // fifo, socket, device
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(src)].sort((a, b) => a.name < b.name ? -1 : 1);
    } catch (e) {
      if (skippable(e)) return;
      throw e;
    }
    add({ kind: "dir", rel, top, mode: (s.mode! & 0o777) | 0o700 }, s); // u+rwx: removable
    for (const e of entries) {
      const [p, r] = [join(src, e.name), `${rel}/${e.name}`];
      try {
        if (e.isSymlink) add({ kind: "link", rel: r, top: false, src: p });
        else walk(p, r, Deno.lstatSync(p));
      } catch (err) {
        if (!skippable(err)) throw err;
      }
    }
  };
  for (const rel of rels) {
    const p = join(source, rel);
    try {
      walk(p, rel, Deno.statSync(p), true); // follows a top-level symlink, like a bind mount
    } catch (e) {
      if (!skippable(e)) throw e;
    }
  }
  return { items, name: h.digest("hex").slice(0, 32) };
}

/** Copies the scanned items into `dir`; an entry that vanished or is unreadable is left out. */
function copyInto(dir: string, items: Item[]): void {
  const dirs: [string, number][] = [];
  for (const it of items) {
    const dst = join(dir, it.rel);
    try {
      // An allowlisted path's parents: ssl/ for ssl/certs.
      if (it.top) Deno.mkdirSync(dirname(dst), { recursive: true, mode: 0o755 });
      if (it.kind === "dir") {
        Deno.mkdirSync(dst);
        dirs.push([dst, it.mode]);
      } else if (it.kind === "link") {
        Deno.symlinkSync(Deno.readLinkSync(it.src), dst);
      } else {
        Deno.copyFileSync(it.src, dst);
        Deno.chmodSync(dst, it.mode);
      }
    } catch (e) {
      if (!skippable(e)) throw e;
      try {
        if (it.kind === "file") Deno.removeSync(dst); // a partial copy
      } catch { /* none */ }
    }
  }
  // Directory modes last, deepest first: a read-only directory would block its children.
  for (const [d, mode] of dirs.reverse()) Deno.chmodSync(d, mode);
  Deno.chmodSync(dir, 0o755);
}

/** Removes views and temp dirs other than `keep` that nobody touched for a day. Best-effort. */
function removeStale(root: string, keep: string): void {
  const cutoff = Date.now() - KEEP_UNUSED_MS;
  try {
    for (const e of Deno.readDirSync(root)) {
      const p = join(root, e.name);
      try {
        if (p !== keep && (Deno.lstatSync(p).mtime?.getTime() ?? 0) < cutoff) {
          Deno.removeSync(p, { recursive: true });
        }
      } catch { /* in use by a racing process, or already gone */ }
    }
  } catch { /* root unreadable: nothing to clean */ }
}

/**
 * Walks the allowlist and makes sure the view it names exists: reused when present, else copied
 * into a temp dir beside it and renamed into place (a lost race uses the winner's). Returns its
 * path. Throws when the root cannot be written (the caller then binds /etc entries one by one).
 *
 * @example
 * ```ts
 * import { buildEtcView } from "./etc_view.ts";
 * const view = buildEtcView({ root: Deno.makeTempDirSync() });
 * Deno.readTextFileSync(`${view}/passwd`) === Deno.readTextFileSync("/etc/passwd"); // true
 * ```
 */
export function buildEtcView(opts: EtcViewOptions = {}): string {
  const { source, rels, root } = resolveOpts(opts);
  const { items, name } = scan(source, rels);
  const final = join(root, name);
  if (exists(final)) {
    touch(final); // in use again: keep it
    return final;
  }
  Deno.mkdirSync(root, { recursive: true, mode: 0o700 });
  const tmp = Deno.makeTempDirSync({ dir: root, prefix: ".tmp-" });
  try {
    copyInto(tmp, items);
    try {
      Deno.renameSync(tmp, final);
    } catch (e) {
      if (!exists(final)) throw e; // else another process won the race: use its view
    }
  } finally {
    try {
      Deno.removeSync(tmp, { recursive: true });
    } catch { /* renamed into place */ }
  }
  removeStale(root, final);
  return final;
}

/**
 * The view to bind at /etc for the next sandboxed command. Cheap when nothing changed (the
 * top-level fingerprint matches this process's last build); otherwise {@link buildEtcView}.
 *
 * @example
 * ```ts
 * import { ensureEtcView } from "./etc_view.ts";
 * import { buildBwrapArgs } from "./bwrap_args.ts";
 * const etcView = ensureEtcView();
 * const profile = { workspace: "/work/p", network: false, readOnly: [], hidden: [], confined: true };
 * buildBwrapArgs(profile, ["true"], { etcView }).includes(etcView); // true
 * ```
 */
export function ensureEtcView(opts: EtcViewOptions = {}): string {
  const { source, rels, root } = resolveOpts(opts);
  const key = `${root}\0${source}\0${rels.join("\0")}`;
  const fp = etcFingerprint(opts);
  const m = memo.get(key);
  const now = Date.now();
  if (m && m.fp === fp && exists(m.path)) { // (a view removed under us is built again)
    if (now - m.touched > TOUCH_EVERY_MS) {
      touch(m.path);
      m.touched = now;
    }
    return m.path;
  }
  const path = buildEtcView(opts);
  memo.set(key, { fp, path, touched: now });
  return path;
}
