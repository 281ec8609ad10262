/**
 * Which captures may look only at what changed: the snapshot store's bookkeeping of one
 * {@link TreeWatcher} per root, and the checks that decide when a watcher still covers the tree.
 *
 * - A watcher starts before a walk (so the walk misses nothing it reports), never on a tree it
 *   would misread: notify follows symlinks to directories when it adds watches, and then reports
 *   events by the symlink's path, so a tree holding one is always walked.
 * - After a walk that followed untrusted writes (the capture after a sandboxed command), the
 *   watcher is kept only if it demonstrably covers the tree: every directory that is new, or new at
 *   its path, was announced by an event (notify adds the watch when it reads that event), and no
 *   directory moved (inotify would name later events inside it by the old path). A command that
 *   made the kernel drop events cannot pass this check, so it cannot leave an unwatched directory.
 *
 * @module
 */
import { absOf, type IndexEntry } from "./tree.ts";
import { MAX_EVENTS, TreeWatcher } from "./tree_watcher.ts";

/** The part of a stat index the checks read. */
export interface IndexView {
  entries: Map<string, IndexEntry>;
}

interface Root {
  watcher: TreeWatcher;
  exclude: string;
  /** The index the watcher vouches from (set after each capture). */
  index?: IndexView;
  /** Paths reported while a walk was prepared with this watcher kept (checked after the walk). */
  kept?: Set<string>;
  /** Untrusted code ran since the last capture: the next one walks. */
  untrusted?: boolean;
}

/** Largest excluded tree a watcher may start on (notify watches excluded trees too). */
const MAX_EXCLUDED_ENTRIES = 5000;

/** Whether `real`'s index holds a symlink that resolves to a directory.
 *
 * @example
 * ```ts
 * import { hasDirSymlink } from "./watch_coverage.ts";
 * hasDirSymlink("/work/p", { entries: new Map() }); // false
 * ```
 */
export function hasDirSymlink(real: string, index: IndexView): boolean {
  for (const [rel, e] of index.entries) {
    if (e.kind !== "l") continue;
    try {
      if (Deno.statSync(absOf(real, rel)).isDirectory) return true;
    } catch { /* dangling */ }
  }
  return false;
}

/** The directories of the excluded trees (notify watches them too), or null when they are too
 * large to watch or hold a symlink to a directory. */
function excludedDirs(real: string, ex: string[]): number | null {
  let n = 0;
  let dirs = 0;
  const stack = ex.map((e) => absOf(real, e));
  while (stack.length > 0) {
    const p = stack.pop()!;
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(p);
      if (info.isSymlink) {
        if (Deno.statSync(p).isDirectory) return null;
        continue;
      }
    } catch {
      continue;
    }
    if (++n > MAX_EXCLUDED_ENTRIES) return null;
    if (!info.isDirectory) continue;
    dirs++;
    try {
      for (const e of Deno.readDirSync(p)) stack.push(`${p}/${e.name}`);
    } catch { /* unreadable: notify cannot watch it either */ }
  }
  return dirs;
}

/** The user's inotify watch limit (`max_user_watches`; 8,192, the old default, when unknown). */
function watchLimit(): number {
  try {
    return Number(Deno.readTextFileSync("/proc/sys/fs/inotify/max_user_watches").trim()) || 8192;
  } catch {
    return 8192; // not Linux, or no /proc
  }
}

/**
 * inotify watches are the user's, shared with their editor and tools: a tree whose directories
 * (`extra`: those of its excluded trees) would take more than a quarter of `limit` is walked rather
 * than watched.
 *
 * @example
 * ```ts
 * import { withinWatchBudget } from "./watch_coverage.ts";
 * withinWatchBudget({ entries: new Map() }, 0, 8192); // true
 * ```
 */
export function withinWatchBudget(index: IndexView, extra: number, limit = watchLimit()): boolean {
  let dirs = extra;
  for (const e of index.entries.values()) if (e.kind === "d") dirs++;
  return dirs <= limit / 4;
}

/**
 * True when a watcher kept across a walk still covers every directory of `index`: each directory
 * new at its path was announced by an event in `seen` (absolute paths), and no directory of `prev`
 * moved (its inode is a directory of `index` at another path).
 *
 * @example
 * ```ts
 * import { coversTree } from "./watch_coverage.ts";
 * const e = { kind: "d" as const, mode: 0o755, ref: "", size: 0, mtime: 0, ctime: 0, ino: 1 };
 * coversTree("/w", { entries: new Map([[".", e]]) }, { entries: new Map([[".", e]]) }, new Set()); // true
 * ```
 */
export function coversTree(
  real: string,
  prev: IndexView,
  index: IndexView,
  seen: Set<string>,
): boolean {
  const dirInos = new Set<number>();
  for (const [rel, e] of index.entries) {
    if (e.kind !== "d") continue;
    dirInos.add(e.ino);
    const p = prev.entries.get(rel);
    if ((!p || p.kind !== "d" || p.ino !== e.ino) && !seen.has(absOf(real, rel))) return false;
  }
  for (const [rel, p] of prev.entries) {
    if (p.kind !== "d") continue;
    const now = index.entries.get(rel);
    if ((!now || now.kind !== "d" || now.ino !== p.ino) && dirInos.has(p.ino)) return false;
  }
  return true;
}

/** The watchers of a snapshot store, one per root. */
export class RootWatchers {
  readonly #sentinel: string;
  readonly #roots = new Map<string, Root>();
  /** Roots (and their exclusions) whose excluded trees, or whose number of directories, rule a
   * watcher out; walking them is always correct, so the finding is kept for the process. */
  readonly #tooLarge = new Map<string, string>();
  /** Why the last `begin` did not offer changes (empty when it did, or when none ran). */
  why = "";

  /**
   * `sentinelDir`: a directory only this store writes, outside every watched tree.
   *
   * @example
   * ```ts
   * import { RootWatchers } from "./watch_coverage.ts";
   * const w = new RootWatchers("/var/tmp/retie-state/snapshots.db.watch");
   * w.close();
   * ```
   */
  constructor(sentinelDir: string) {
    this.#sentinel = sentinelDir;
  }

  /**
   * At the start of a capture of `real`: the absolute paths changed since the previous capture
   * when the capture may look only at them (`full` false, a watcher that vouches from `prev`);
   * otherwise undefined, with a watcher running for the walk that follows when that is safe.
   */
  async begin(
    real: string,
    ex: string[],
    prev: IndexView | undefined,
    full: boolean,
  ): Promise<Set<string> | undefined> {
    this.why = "";
    const key = ex.join("\0");
    let r = this.#roots.get(real);
    if (r && (!prev || r.index !== prev || r.exclude !== key)) {
      this.why = "the index was written elsewhere or with other exclusions";
      this.#drop(real);
      r = undefined;
    }
    if (r) {
      if (r.untrusted) full = true;
      const d = await r.watcher.drain();
      if (!d.ok) {
        this.why = d.why;
        this.#drop(real);
      } else if (!full && d.events <= MAX_EVENTS) {
        return d.paths;
      } else {
        if (!full) this.why = `more than ${MAX_EVENTS} changes`;
        r.kept = d.paths;
        return undefined;
      }
    }
    if (!prev) return undefined;
    if (hasDirSymlink(real, prev)) {
      this.why ||= "the tree holds a symlink to a directory";
      return undefined;
    }
    // Found too large to watch earlier in this process: not listed again before every walk.
    if (this.#tooLarge.get(real) === key) {
      this.why ||= "the workspace has too many directories to watch";
      return undefined;
    }
    const extra = excludedDirs(real, ex);
    if (extra === null || !withinWatchBudget(prev, extra)) {
      this.#tooLarge.set(real, key);
      this.why ||= "the workspace has too many directories to watch, or excluded trees too large " +
        "or holding a symlink to a directory";
      return undefined;
    }
    try {
      Deno.mkdirSync(this.#sentinel, { recursive: true, mode: 0o700 });
    } catch {
      return undefined; // no barrier, no watcher: every capture walks
    }
    const watcher = new TreeWatcher(real, this.#sentinel, ex.map((e) => absOf(real, e)));
    if (watcher.broken) watcher.close();
    else this.#roots.set(real, { watcher, exclude: key });
    return undefined;
  }

  /** The changes `begin` offered could not be used (see `scanChanges`): a walk follows, with the
   * watcher kept and checked afterwards. */
  walkInstead(real: string, paths: Set<string>, why: string): void {
    this.why = why;
    const r = this.#roots.get(real);
    if (r) r.kept = paths;
  }

  /** After a capture of `real` that produced `index` (`prev`: the index before it). */
  end(real: string, prev: IndexView | undefined, index: IndexView, walked: boolean): void {
    const r = this.#roots.get(real);
    if (!r) return;
    if (walked) {
      const kept = r.kept;
      r.kept = undefined;
      r.untrusted = false;
      if (hasDirSymlink(real, index) || (kept && (!prev || !coversTree(real, prev, index, kept)))) {
        this.#drop(real);
        return;
      }
    }
    r.index = index;
  }

  /** Code that no capture follows ran: the next capture of each root walks. */
  distrust(): void {
    for (const r of this.#roots.values()) r.untrusted = true;
  }

  #drop(real: string): void {
    this.#roots.get(real)?.watcher.close();
    this.#roots.delete(real);
  }

  /** Stops every watcher. */
  close(): void {
    for (const real of [...this.#roots.keys()]) this.#drop(real);
  }
}
