/**
 * Workspace snapshots for undo: a git-index-like stat index plus a content-addressed store, all in
 * one SQLite file outside the workspace.
 *
 * - `capture` walks the tree (sync readDir + lstat), compares each path's (size, mtime, ctime, ino,
 *   mode) with the previous capture of the same root and reads + stores only new or changed files;
 *   files whose stat is not older than the previous index time are re-hashed (racy git). The first
 *   capture reads everything; later ones cost the walk plus what changed.
 * - Manifests (path → type, mode, blob hash or link target) are keyed by the hash of their canonical
 *   text and stored as deltas against the previous manifest of the root (a full one every
 *   32 captures; `snapshot_manifests.ts`), so a 20k-entry manifest costs what changed.
 * - `restore` makes the tree equal to the manifest (contents, modes, symlinks, deleted files back,
 *   new files and directories gone, directory modes), never following a symlink: types are checked
 *   with lstat, files are written to a fresh temp name and renamed over.
 *
 * Invariant for callers: the undo plan covers everything a command can write. Excluded paths are not
 * captured or restored, so the caller must mount them read-only in the sandbox (pass the same list).
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { dirname, relative } from "node:path";
import { BlobStore } from "../core/blob_store.ts";
import { errorMessage, RetieError } from "../core/errors.ts";
import type { PathDiff, SnapshotStore } from "../core/snapshot.ts";
import {
  absOf,
  type IndexEntry,
  leftOut,
  type Manifest,
  manifestDiffs,
  type ManifestEntry,
  manifestId,
  normalizeExcludes,
  type Seen,
  statMatches,
} from "./tree.ts";
import { sha256Hex } from "../core/hash.ts";
import { listTree } from "./walk.ts";
import { applyRestore } from "./restore.ts";
import { settleSpecials } from "./specials.ts";
import { notKept, UNKEPT, unkeptRef } from "./keep.ts";
import { readRegularNoFollow } from "../core/nofollow.ts";
import { entryOf, sameEntry, type Scan, scanChanges } from "./changes.ts";
import { RootWatchers } from "./watch_coverage.ts";
import { ManifestTable } from "./manifests.ts";
import { isWithin, type RealPath } from "../core/paths.ts";

interface RootIndex {
  time: number;
  manifest: string;
  entries: Map<string, IndexEntry>;
}

/** A row of `snap_index_rows` (the columns keep their short on-disk names). */
interface IndexRow {
  path: string;
  t: IndexEntry["kind"];
  m: number;
  r: string;
  size: number;
  mtime: number;
  ctime: number;
  ino: number;
}

/** Snapshots of directory trees, stored in one SQLite file. */
export class DirSnapshotStore implements SnapshotStore {
  readonly dbPath: string;
  #db: DatabaseSync;
  #blobs: BlobStore;
  #indexCache = new Map<string, RootIndex>();
  readonly #manifests: ManifestTable;
  /** Cap on the store file's size in bytes (0: none); contents past it are not kept. */
  readonly #maxBytes: number;
  /** Blobs known to be in the store: put or looked up by this process (the store only grows). */
  #present = new Set<string>();
  /** Manifests whose blobs are all known present: verified, or captured on top of one that was. */
  #verifiedIds = new Set<string>();
  /** Watchers of the captured roots, when watching is on. */
  readonly #watchers: RootWatchers | undefined;
  /** Why the last capture walked the tree although a watcher was running (empty: it did not). */
  lastFallback = "";
  /** What the last `capture` did: how it found changes, paths looked at, files read + hashed. */
  lastCapture: {
    mode?: "walk" | "changes";
    /** What the capture left out or did not keep the contents of, in words (see `lastNotes`). */
    notes?: string[];
    walked: number;
    hashed: number;
    hashedBytes: number;
    phasesMs?: {
      drain: number;
      list: number;
      walk: number;
      hash: number;
      manifest: number;
      save: number;
    };
  } = { walked: 0, hashed: 0, hashedBytes: 0 };

  /**
   * Opens (creating) the store. `dbPath` must lie outside every workspace it snapshots.
   *
   * @example
   * ```ts
   * import { DirSnapshotStore } from "./store.ts";
   * const store = new DirSnapshotStore("/var/tmp/retie-snapshots.db");
   * const id = await store.capture("/work/project", ["node_modules"]);
   * // … a sandboxed command runs …
   * await store.restore("/work/project", id);
   * ```
   *
   * `watch`: follow each captured root with inotify so that later captures look only at what
   * changed (see `tree_watcher.ts`); for a long-lived session, not for one-off commands.
   */
  constructor(dbPath: string, opts: { watch?: boolean; maxBytes?: number } = {}) {
    this.dbPath = dbPath;
    this.#maxBytes = opts.maxBytes ?? 0;
    this.#watchers = opts.watch ? new RootWatchers(`${dbPath}.watch`) : undefined;
    this.#blobs = new BlobStore(dbPath);
    this.#db = new DatabaseSync(dbPath, { timeout: 5000 });
    this.#db.exec("PRAGMA journal_mode=WAL");
    this.#db.exec("PRAGMA synchronous=FULL");
    this.#manifests = new ManifestTable(this.#db, dbPath);
    this.#db.exec(`CREATE TABLE IF NOT EXISTS snap_index_head (
      root TEXT PRIMARY KEY, time REAL NOT NULL, manifest TEXT NOT NULL)`);
    this.#db.exec(`CREATE TABLE IF NOT EXISTS snap_index_rows (
      root TEXT NOT NULL, path TEXT NOT NULL, t TEXT NOT NULL, m INTEGER NOT NULL, r TEXT NOT NULL,
      size INTEGER NOT NULL, mtime REAL NOT NULL, ctime REAL NOT NULL, ino INTEGER NOT NULL,
      PRIMARY KEY (root, path)) WITHOUT ROWID`);
  }

  /** Bytes the store may still grow by under its cap (null: no cap). */
  #room(): { bytes: number; used: number; cap: number } | null {
    if (this.#maxBytes <= 0) return null;
    let used = 0;
    for (const f of [this.dbPath, `${this.dbPath}-wal`]) {
      try {
        used += Deno.statSync(f).size;
      } catch { /* absent */ }
    }
    return { bytes: Math.max(0, this.#maxBytes - used), used, cap: this.#maxBytes };
  }

  /** The next capture of every root walks the whole tree (see `SnapshotStore.distrust`). */
  distrust(): void {
    this.#watchers?.distrust();
  }

  /** Stops the watchers and closes the database. */
  close(): void {
    this.#watchers?.close();
    this.#db.close();
    this.#blobs.close();
  }

  /** The root of a restore: it must be its own real path (a root swapped for a symlink since the
   * snapshot is refused, never followed). */
  #restoreRoot(root: string): RealPath {
    const real = this.#realRoot(root);
    const asGiven = root.length > 1 ? root.replace(/\/+$/, "") : root;
    if (real !== asGiven) {
      throw new RetieError(
        `snapshot root (${root}) is now reached through a symlink (it resolves to ${real}); ` +
          "nothing was restored",
        { hint: "put the directory back where it was, then undo again", exitCode: 1 },
      );
    }
    return real;
  }

  #realRoot(root: string): RealPath {
    try {
      return Deno.realPathSync(root) as RealPath;
    } catch (e) {
      throw new RetieError(`snapshot root (${root}): ${errorMessage(e)}`, {
        hint: "pass an existing directory",
        exitCode: 2,
      });
    }
  }

  #loadIndex(root: string): RootIndex | undefined {
    const head = this.#db.prepare("SELECT time, manifest FROM snap_index_head WHERE root = ?").get(
      root,
    ) as { time: number; manifest: string } | undefined;
    if (!head) return undefined;
    const cached = this.#indexCache.get(root);
    if (cached && cached.time === head.time && cached.manifest === head.manifest) return cached;
    const rows = this.#db.prepare(
      "SELECT path, t, m, r, size, mtime, ctime, ino FROM snap_index_rows WHERE root = ?",
    ).all(root) as unknown as IndexRow[];
    const entries = new Map<string, IndexEntry>();
    for (const { path, t, m, r, size, mtime, ctime, ino } of rows) {
      entries.set(path, { kind: t, mode: m, ref: r, size, mtime, ctime, ino });
    }
    const idx = { time: head.time, manifest: head.manifest, entries };
    this.#indexCache.set(root, idx);
    return idx;
  }

  #checkDbOutside(root: string, ex: string[]): void {
    let db: string;
    try {
      db = Deno.realPathSync(dirname(this.dbPath));
    } catch {
      return;
    }
    if (isWithin(db, root)) {
      const rel = relative(root, db);
      if (rel === "" || !ex.some((e) => isWithin(rel, e))) {
        throw new RetieError(`snapshot store (${this.dbPath}) lies inside the workspace ${root}`, {
          hint: "keep retie's state outside the workspace (the default is under $XDG_STATE_HOME)",
        });
      }
    }
  }

  /**
   * Records the state of `root` except `exclude`; returns the snapshot id.
   *
   * With `watch` on, a capture lists only the paths that changed since the previous capture of the
   * same root when the watcher can vouch for the interval (see `tree_watcher.ts`), else the whole
   * tree. `full` always walks the whole tree: pass it after untrusted code wrote in the tree.
   */
  async capture(root: string, exclude: string[], opts: { full?: boolean } = {}): Promise<string> {
    await Promise.resolve();
    const t0 = performance.now();
    const real = this.#realRoot(root);
    const ex = normalizeExcludes(exclude);
    this.#checkDbOutside(real, ex);
    const prev = this.#loadIndex(real);
    const time = Date.now();
    let scan: Scan | undefined;
    const notes: string[] = [];
    let mode: "walk" | "changes" = "walk";
    let listMs = 0;
    const changes = await this.#watchers?.begin(real, ex, prev, opts.full ?? false);
    const tDrain = performance.now() - t0;
    if (changes && prev) {
      const r = scanChanges(real, ex, prev, changes);
      if (typeof r === "string") this.#watchers!.walkInstead(real, changes, r);
      else {
        scan = r;
        mode = "changes";
        notes.push(...(r.leftOut ?? []));
      }
    }
    this.lastFallback = this.#watchers?.why ?? "";
    if (!scan) {
      scan = { entries: new Map(), toHash: [], added: 0, removed: [] };
      const { entries, toHash } = scan;
      const listed = await listTree(real, ex, prev?.entries.size ?? 0, { hint: prev?.entries });
      const tList = performance.now() - t0 - tDrain;
      for (const s of listed) {
        const rel = s.rel;
        const out = leftOut(rel, s);
        if (out !== null) {
          notes.push(out);
          continue;
        }
        const p = prev?.entries.get(rel);
        if (!p) scan.added++;
        // Unchanged paths keep their index entry object (and its cached manifest line): no
        // allocation per path, which matters at 20k paths.
        if (p && sameEntry(p, s, prev!.time)) {
          entries.set(rel, p);
          continue;
        }
        const e = entryOf(s);
        if (s.kind === "f") toHash.push([e, absOf(real, rel)]);
        entries.set(rel, e);
      }
      listMs = tList;
    }
    const { entries, toHash, added } = scan;
    if (
      mode === "changes" && prev && toHash.length === 0 && scan.changed!.length === 0 &&
      scan.removed.length === 0
    ) {
      // Nothing changed since the previous capture: its index still describes the tree (its time
      // included), and its manifest is this snapshot. No write, no new manifest.
      this.#watchers?.end(real, prev, prev, false);
      this.lastCapture = { mode, notes, walked: scan.looked ?? 0, hashed: 0, hashedBytes: 0 };
      return prev.manifest;
    }
    const t1 = performance.now();
    let hashedBytes = 0;
    if (toHash.length > 0) {
      const room = this.#room();
      this.#blobs.batch(() => {
        for (const [e, abs] of toHash) {
          const why = notKept(e, abs, hashedBytes, room);
          if (why !== null) {
            // Contents not kept: the entry still tells a change (size, times, inode).
            e.ref = unkeptRef(e);
            notes.push(`${abs.slice(real.length + 1)}: ${why}`);
            continue;
          }
          const bytes = readRegularNoFollow(abs);
          if (bytes === null) {
            e.ref = unkeptRef(e);
            notes.push(`${abs.slice(real.length + 1)}: no longer a regular file when read`);
            continue;
          }
          hashedBytes += bytes.length;
          e.ref = this.#blobs.put(bytes);
          this.#present.add(e.ref);
        }
      });
    }
    const t2 = performance.now();
    // What changed since the previous index: rows to upsert and delete, and the manifest delta.
    const changed: [string, IndexEntry][] = [];
    // A scan of changes replaced exactly the entries it found changed; a walk compares them all.
    const candidates = mode === "changes"
      ? scan.toHash.length === 0 && scan.changed!.length === 0
        ? []
        : scan.changed!.flatMap((k) => entries.has(k) ? [[k, entries.get(k)!] as const] : [])
      : entries;
    for (const [k, e] of candidates) {
      const p = prev?.entries.get(k);
      if (
        !p || p.kind !== e.kind || p.mode !== e.mode || p.ref !== e.ref || p.size !== e.size ||
        p.mtime !== e.mtime || p.ctime !== e.ctime || p.ino !== e.ino
      ) changed.push([k, e]);
    }
    const removed: string[] = mode === "changes" ? scan.removed : [];
    if (mode === "walk" && prev && prev.entries.size !== entries.size - added) {
      for (const k of prev.entries.keys()) if (!entries.has(k)) removed.push(k);
    }
    const id = manifestId(
      entries,
      prev
        ? {
          entries: prev.entries,
          added: scan.addedKeys ?? (added === 0 ? [] : undefined),
          removed,
        }
        : undefined,
    );
    const t3 = performance.now();
    // Manifest and index commit together (one fsync); blobs were committed before them.
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      this.#manifests.save(id, entries, ex, prev, changed, removed);
      const up = this.#db.prepare(
        `INSERT OR REPLACE INTO snap_index_rows (root, path, t, m, r, size, mtime, ctime, ino)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      if (!prev) this.#db.prepare("DELETE FROM snap_index_rows WHERE root = ?").run(real);
      for (const [k, e] of changed) {
        up.run(real, k, e.kind, e.mode, e.ref, e.size, e.mtime, e.ctime, e.ino);
      }
      const del = this.#db.prepare("DELETE FROM snap_index_rows WHERE root = ? AND path = ?");
      for (const k of removed) del.run(real, k);
      this.#db.prepare(
        "INSERT OR REPLACE INTO snap_index_head (root, time, manifest) VALUES (?, ?, ?)",
      ).run(real, time, id);
      this.#db.exec("COMMIT");
    } catch (e) {
      this.#db.exec("ROLLBACK");
      throw e;
    }
    const index = { time, manifest: id, entries };
    this.#indexCache.set(real, index);
    this.#manifests.remember(id, entries);
    this.#watchers?.end(real, prev, index, mode === "walk");
    // Every entry is carried over from `prev` or was stored just now.
    if (!prev || this.#verifiedIds.has(prev.manifest)) this.#verifiedIds.add(id);
    const t4 = performance.now();
    this.lastCapture = {
      mode,
      notes,
      walked: mode === "walk" ? entries.size : scan.looked ?? 0,
      hashed: toHash.length,
      hashedBytes,
      phasesMs: {
        drain: tDrain,
        list: listMs,
        walk: t1 - t0 - tDrain,
        hash: t2 - t1,
        manifest: t3 - t2,
        save: t4 - t3,
      },
    };
    return id;
  }

  /**
   * True when the manifest is intact (its id is the hash of its content) and every blob it names is
   * stored. Each blob is looked up once per process; its bytes are checked against its hash when a
   * restore reads them, before anything in the tree is changed. Reading every blob here instead
   * would cost the whole workspace's bytes before each command.
   */
  async verify(id: string): Promise<boolean> {
    await Promise.resolve();
    try {
      const { man } = this.#manifests.get(id);
      if (this.#verifiedIds.has(id)) return true;
      for (const e of man.values()) {
        if (e.kind !== "f" || this.#present.has(e.ref) || e.ref.startsWith(UNKEPT)) continue;
        if (!this.#blobs.has(e.ref)) return false;
        this.#present.add(e.ref);
      }
      this.#verifiedIds.add(id);
      return true;
    } catch {
      return false;
    }
  }

  /** Reads and checks every blob a restore will write, so a bad one stops it before any change. */
  #checkBlobs(diffs: PathDiff[], man: Manifest): void {
    const seen = new Set<string>();
    for (const d of diffs) {
      const m = man.get(d.path);
      if (!m || m.kind !== "f" || seen.has(m.ref) || m.ref.startsWith(UNKEPT)) continue;
      seen.add(m.ref);
      this.#blobs.get(m.ref);
    }
  }

  /** Compares the tree with the manifest; `cur` receives what the walk saw. */
  async #compare(
    real: string,
    id: string,
    cur?: Map<string, Seen>,
  ): Promise<{ diffs: PathDiff[]; man: Manifest }> {
    const { man, exclude } = this.#manifests.get(id);
    const idx = this.#loadIndex(real);
    const diffs: PathDiff[] = [];
    const seenPaths = new Set<string>();
    for (const s of await listTree(real, exclude, man.size, { hint: man })) {
      const rel = s.rel;
      if (leftOut(rel, s) !== null) continue; // never captured, never compared or restored
      cur?.set(rel, s);
      seenPaths.add(rel);
      const m = man.get(rel);
      if (!m) {
        diffs.push({ path: rel, change: "added" });
      } else if (s.kind !== m.kind || s.mode !== m.mode && s.kind !== "l") {
        diffs.push({ path: rel, change: "modified" });
      } else if (s.kind === "l" && s.target !== m.ref) {
        diffs.push({ path: rel, change: "modified" });
      } else if (s.kind === "f") {
        const ie = idx?.entries.get(rel);
        const hash = idx && statMatches(ie, s, idx.time)
          ? ie!.ref
          : m.ref.startsWith(UNKEPT)
          ? unkeptRef(s)
          : sha256Hex(readRegularNoFollow(absOf(real, rel)) ?? new Uint8Array());
        if (hash !== m.ref) diffs.push({ path: rel, change: "modified" });
      }
    }
    for (const k of man.keys()) if (!seenPaths.has(k)) diffs.push({ path: k, change: "removed" });
    diffs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { diffs, man };
  }

  /** The paths where `root` now differs from snapshot `id`. Watching, this is a capture (which
   * looks only at what changed) compared with the snapshot; else a listing of the tree. */
  async diff(root: string, id: string): Promise<PathDiff[]> {
    await Promise.resolve();
    const real = this.#realRoot(root);
    if (this.#watchers) {
      const { man, exclude } = this.#manifests.get(id);
      const now = await this.capture(real, exclude);
      return now === id ? [] : manifestDiffs(this.#manifests.get(now).man, man);
    }
    return (await this.#compare(real, id)).diffs;
  }

  /**
   * Makes `root` (just found equal to `fromId`) equal to `toId`, with the changes taken from the
   * two manifests instead of a second listing of the tree; the undo of a command then lists the
   * tree once (its clobber check), not twice.
   */
  async restoreFrom(root: string, fromId: string, toId: string): Promise<PathDiff[]> {
    await Promise.resolve();
    const real = this.#restoreRoot(root);
    const from = this.#manifests.get(fromId).man;
    const man = this.#manifests.get(toId).man;
    const diffs = manifestDiffs(from, man);
    if (diffs.length === 0) return diffs;
    // What the restore needs of the tree as it is: the changed paths, and the directories (whose
    // modes it may have to open up to write in them).
    const cur = new Map<string, Seen>();
    const seen = (f: ManifestEntry): Seen => ({
      kind: f.kind,
      mode: f.mode,
      size: 0,
      mtime: 0,
      ctime: 0,
      ino: 0,
    });
    for (const [rel, f] of from) if (f.kind === "d") cur.set(rel, seen(f));
    for (const d of diffs) {
      const f = from.get(d.path);
      if (f) cur.set(d.path, seen(f));
    }
    this.#checkBlobs(diffs, man);
    const missed = applyRestore(real, diffs, man, cur, (hash) => this.#blobs.get(hash));
    return diffs.map((d) => missed.has(d.path) ? { ...d, notRestored: missed.get(d.path) } : d);
  }

  /**
   * The paths that differ between snapshots `fromId` and `toId` (relative to their root), from
   * the two manifests alone: what one action changed, for `/diff`.
   *
   * @example
   * ```ts ignore
   * store.changedBetween(before, after); // [{ path: "src/a.ts", change: "modified" }]
   * ```
   */
  changedBetween(fromId: string, toId: string): PathDiff[] {
    return manifestDiffs(this.#manifests.get(toId).man, this.#manifests.get(fromId).man);
  }

  /**
   * What `rel` was in snapshot `id`: absent, a file (its bytes, or null when the snapshot did not
   * keep them), a directory or a symlink.
   *
   * @example
   * ```ts ignore
   * store.entryAt(id, "src/a.ts"); // { kind: "f", mode: 0o644, bytes: Uint8Array(…) }
   * ```
   */
  entryAt(
    id: string,
    rel: string,
  ): { kind: "f" | "d" | "l"; mode: number; bytes?: Uint8Array | null; target?: string } | null {
    const m = this.#manifests.get(id).man.get(rel);
    if (!m) return null;
    if (m.kind === "l") return { kind: "l", mode: m.mode, target: m.ref };
    if (m.kind === "d") return { kind: "d", mode: m.mode };
    return {
      kind: "f",
      mode: m.mode,
      bytes: m.ref.startsWith(UNKEPT) ? null : this.#blobs.get(m.ref),
    };
  }

  /** Removes the sockets and FIFOs an action made (see `SnapshotStore.settleSpecials`). */
  settleSpecials(
    root: string,
    beforeNotes: readonly string[] | undefined,
    afterNotes: readonly string[] | undefined,
    sinceMs: number,
  ): { removed: string[]; missed: string[] } {
    return settleSpecials(this.#restoreRoot(root), beforeNotes, afterNotes, sinceMs);
  }

  /** What the last capture left out or did not keep (see `SnapshotStore.lastNotes`). */
  lastNotes(): string[] {
    return this.lastCapture.notes ?? [];
  }

  /** Makes `root` equal to snapshot `id`; returns what it changed. */
  async restore(root: string, id: string): Promise<PathDiff[]> {
    await Promise.resolve();
    const real = this.#restoreRoot(root);
    const cur = new Map<string, Seen>();
    const { diffs, man } = await this.#compare(real, id, cur);
    if (diffs.length === 0) return diffs;
    this.#checkBlobs(diffs, man);
    const missed = applyRestore(real, diffs, man, cur, (hash) => this.#blobs.get(hash));
    return diffs.map((d) => missed.has(d.path) ? { ...d, notRestored: missed.get(d.path) } : d);
  }
}
