/**
 * The pieces of a workspace snapshot that do not touch the database: the tree walk, the stat
 * index entry, the manifest and its content hash.
 *
 * @module
 */
import { join } from "node:path";
import { createHash } from "node:crypto";

/** Entry types a snapshot records: file, directory, symlink. */
export type Kind = "f" | "d" | "l";

/** One manifest entry: type, permission bits (07777), and blob hash (file) or target (symlink). */
export interface ManifestEntry {
  kind: Kind;
  /** Permission bits (07777). */
  mode: number;
  /** Blob hash for files, link target for symlinks, "" for directories. */
  ref: string;
}

/** Relative path ("." for the root) → entry. */
export type Manifest = Map<string, ManifestEntry>;

/** What the stat index remembers about a path (git-index-like). */
export interface IndexEntry extends ManifestEntry {
  size: number;
  mtime: number;
  ctime: number;
  ino: number;
  /** Cached canonical manifest line (in memory only). */
  line?: string;
}

/** A path seen by {@link walkTree}: `other` is a socket, FIFO or device, `long` a path longer
 * than the kernel takes (PATH_MAX); snapshots leave both out (see `leftOut`). */
export interface Seen {
  kind: Kind | "other" | "long";
  mode: number;
  size: number;
  mtime: number;
  ctime: number;
  ino: number;
}

/** Files whose mtime/ctime is this close to (or after) the index time are re-hashed: the
 * filesystem clock is coarse (a jiffy), so "not older than the index" needs a margin. */
export const RACY_MARGIN_MS = 20;

/**
 * Normalizes exclude paths (relative, no "./", no trailing "/"); rejects absolute or ".." ones.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeExcludes } from "./tree.ts";
 * assert.deepEqual(normalizeExcludes(["./node_modules/", "dist"]), ["dist", "node_modules"]);
 * ```
 */
export function normalizeExcludes(exclude: string[]): string[] {
  const out = new Set<string>();
  for (const e of exclude) {
    const n = e.replace(/^(\.\/)+/, "").replace(/\/+$/, "").replace(/\/+/g, "/");
    if (n === "" || n === "." || n.startsWith("/") || n.split("/").includes("..")) {
      throw new Error(`snapshot exclude (${e}): must be a relative path inside the root`);
    }
    out.add(n);
  }
  return [...out].sort();
}

/**
 * Walks `root` with sync readDir + lstat (the async walk is ~5× slower here), never following a
 * symlink, skipping excluded relative paths. Calls `visit` for every path, the root as ".".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { walkTree } from "./tree.ts";
 * const root = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${root}/node_modules/x`, { recursive: true });
 * Deno.writeTextFileSync(`${root}/a.ts`, "");
 * const seen: string[] = [];
 * walkTree(root, new Set(["node_modules"]), (rel) => seen.push(rel));
 * assert.deepEqual(seen.sort(), [".", "a.ts"]);
 * ```
 */
export function walkTree(
  root: string,
  exclude: ReadonlySet<string>,
  visit: (rel: string, abs: string, seen: Seen) => void,
): void {
  const rootInfo = Deno.lstatSync(root);
  if (!rootInfo.isDirectory) throw new Error(`snapshot root (${root}): not a directory`);
  visit(".", root, toSeen(rootInfo));
  const stack: [string, string][] = [["", root]];
  while (stack.length > 0) {
    const [relDir, absDir] = stack.pop()!;
    for (const e of Deno.readDirSync(absDir)) {
      const rel = relDir === "" ? e.name : relDir + "/" + e.name;
      if (exclude.size > 0 && exclude.has(rel)) continue;
      const abs = absDir + "/" + e.name;
      if (tooLong(abs)) {
        // The kernel cannot look at it by this name: seen, never followed into.
        visit(rel, abs, { kind: "long", mode: 0, size: 0, mtime: 0, ctime: 0, ino: 0 });
        continue;
      }
      const seen = toSeen(Deno.lstatSync(abs));
      visit(rel, abs, seen);
      if (seen.kind === "d") stack.push([rel, abs]);
    }
  }
}

/** Longest path the kernel takes, in bytes, with its final NUL. */
export const PATH_MAX = 4096;

/** True when `abs` is too long for the kernel (ENAMETOOLONG). */
export function tooLong(abs: string): boolean {
  return abs.length >= PATH_MAX / 4 && new TextEncoder().encode(abs).length >= PATH_MAX;
}

/** The end of the note for a socket, FIFO or device (after its relative path): `specials.ts`
 * finds them in a capture's notes by it. */
export const OTHER_NOTE = ": a socket, FIFO or device; snapshots leave it out (it is never " +
  "opened); undo removes it if the action made it, and cannot make it again";

/**
 * The note for a path a snapshot leaves out, or null when it keeps it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { leftOut } from "./tree.ts";
 * assert.match(leftOut("p", { kind: "other" })!, /^p: a socket, FIFO or device/);
 * assert.equal(leftOut("p", { kind: "f" }), null);
 * ```
 */
export function leftOut(rel: string, s: Pick<Seen, "kind">): string | null {
  if (s.kind === "other") return `${rel}${OTHER_NOTE}`;
  if (s.kind === "long") {
    return `${rel.slice(0, 120)}…: the path is longer than the system allows (${PATH_MAX} ` +
      "bytes); snapshots leave it and what lies below it out";
  }
  return null;
}

/** An lstat result as the snapshot records it (every walk and look at a path goes through this).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toSeen } from "./tree.ts";
 * assert.deepEqual(toSeen(Deno.lstatSync(Deno.cwd())).kind, "d");
 * ```
 */
export function toSeen(info: Deno.FileInfo): Seen {
  return {
    kind: info.isFile ? "f" : info.isDirectory ? "d" : info.isSymlink ? "l" : "other",
    mode: (info.mode ?? 0) & 0o7777,
    size: info.size,
    mtime: info.mtime?.getTime() ?? 0,
    ctime: info.ctime?.getTime() ?? 0,
    ino: info.ino ?? 0,
  };
}

/** True when the index entry still describes the file on disk without reading it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statMatches } from "./tree.ts";
 * assert.deepEqual(statMatches(undefined, { kind: "f", mode: 0o644, size: 1, mtime: 0, ctime: 0, ino: 1 }, 0), false);
 * ```
 */
export function statMatches(prev: IndexEntry | undefined, s: Seen, indexTime: number): boolean {
  if (!prev || prev.kind !== "f" || s.kind !== "f") return false;
  if (prev.size !== s.size || prev.mtime !== s.mtime || prev.ctime !== s.ctime) return false;
  if (prev.ino !== s.ino || prev.mode !== s.mode) return false;
  // Racy git: a change within the same clock tick as the index would keep the same stat. ctime
  // gets a further second: Deno's lstat reports it in whole seconds.
  return prev.mtime < indexTime - RACY_MARGIN_MS &&
    prev.ctime < indexTime - RACY_MARGIN_MS - 1000;
}

const sortedKeysOf = new WeakMap<object, string[]>();

/** Sorted keys of `base` with `removed` taken out and `added` (not in base) put in place. */
function patchedKeys(
  base: string[],
  added: readonly string[],
  removed: readonly string[],
): string[] {
  let keys = base;
  if (removed.length > 0) {
    const gone = new Set(removed);
    keys = keys.filter((k) => !gone.has(k));
  } else if (added.length > 0) keys = keys.slice();
  for (const k of [...added].sort()) {
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (keys[mid] < k) lo = mid + 1;
      else hi = mid;
    }
    keys.splice(lo, 0, k);
  }
  return keys;
}

/**
 * The id of a manifest: a domain-separated SHA-256 of its canonical text (paths sorted, one JSON
 * array `[path, type, mode, ref]` per line). `base`: the previous index, whose sorted key list is
 * reused (sorting 20k paths is a visible part of a capture), patched with the paths `added` and
 * `removed` (all of them; without `added` the keys are sorted afresh).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { manifestId } from "./tree.ts";
 * assert.deepEqual(manifestId(new Map([[".", { kind: "d", mode: 0o755, ref: "" }]])).length, 64);
 * ```
 */
export function manifestId(
  man: Manifest,
  base?: { entries: Map<string, unknown>; added?: readonly string[]; removed?: readonly string[] },
): string {
  const baseKeys = base ? sortedKeysOf.get(base.entries) : undefined;
  let keys: string[] | undefined;
  if (baseKeys && base) {
    const added = base.added;
    const removed = base.removed ?? [];
    if (added && baseKeys.length - removed.length + added.length === man.size) {
      keys = added.length === 0 && removed.length === 0
        ? baseKeys
        : patchedKeys(baseKeys, added, removed);
    }
  }
  if (!keys) keys = [...man.keys()].sort();
  sortedKeysOf.set(man, keys);
  const h = createHash("sha256").update("retie/snapshot-manifest/v1").update(new Uint8Array([0]));
  let chunk = "";
  for (let i = 0; i < keys.length; i++) {
    const e = man.get(keys[i])! as ManifestEntry & { line?: string };
    // Index entries carry their canonical line over from the previous capture when unchanged.
    const line = e.line ?? (e.line = JSON.stringify([keys[i], e.kind, e.mode, e.ref]));
    chunk += (i === 0 ? "" : "\n") + line;
    if (chunk.length > 65536) {
      h.update(chunk);
      chunk = "";
    }
  }
  h.update(chunk);
  return h.digest("hex");
}

/**
 * What differs between two manifests, as seen from `from` (the tree) against `to` (a snapshot):
 * "added" is in `from` only, "removed" in `to` only, "modified" in both with another type, mode,
 * content or target. Sorted by path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { manifestDiffs } from "./tree.ts";
 * assert.deepEqual(manifestDiffs(new Map([["a", { kind: "f", mode: 0o644, ref: "x" }]]), new Map()), [{ path: "a", change: "added" }]);
 * ```
 */
export function manifestDiffs(
  from: Manifest,
  to: Manifest,
): { path: string; change: "added" | "removed" | "modified" }[] {
  const diffs: { path: string; change: "added" | "removed" | "modified" }[] = [];
  for (const [rel, f] of from) {
    const t = to.get(rel);
    if (!t) diffs.push({ path: rel, change: "added" });
    else if (t.kind !== f.kind || t.mode !== f.mode || t.ref !== f.ref) {
      diffs.push({ path: rel, change: "modified" });
    }
  }
  for (const rel of to.keys()) if (!from.has(rel)) diffs.push({ path: rel, change: "removed" });
  return diffs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** `join` that keeps "." meaning the root.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { absOf } from "./tree.ts";
 * assert.deepEqual(absOf("/w", "."), "/w");
 * ```
 */
export function absOf(root: string, rel: string): string {
  return rel === "." ? root : join(root, rel);
}
