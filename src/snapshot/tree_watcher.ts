/**
 * Change tracking between snapshot captures, from inotify through `Deno.watchFs`.
 *
 * A capture before a command lists only what changed since the previous capture when this watcher
 * can vouch for the interval; otherwise it walks the whole tree. What it vouches for, and why:
 *
 * - One recursive watch on the root (Deno matches each event against every watched path, so one
 *   path keeps each event cheap: with 443 watched directories an event took ~8 ms here). Excluded
 *   paths are passed as `ignore`. A directory created later is watched by notify when its creation
 *   is read, before any later barrier; the capture walks such a directory whole, which covers what
 *   was written in it before its watch began.
 * - A barrier orders the events: a sentinel file written in a directory of retie's state that the
 *   watch also covers; once it is delivered, everything before it has been (one inotify queue, read
 *   in order, one FIFO channel).
 * - It stops vouching (the next capture walks everything, then a fresh watcher starts) on a
 *   `rescan` flag (Deno's event queue overflowed), on a watcher error or end, and when a barrier
 *   does not arrive within its timeout. A capture walks, too, when more than {@link MAX_EVENTS}
 *   events arrived since the last one (a burst that large could overflow the kernel's queue, whose
 *   overflow Deno does not report). `watch_coverage.ts` decides when a watcher still covers the
 *   tree after a walk.
 *
 * What it does not vouch for: writes made while untrusted code runs. A command in the sandbox can
 * make the kernel drop events, so the capture after a sandboxed command always walks the tree
 * (`capture(…, { full: true })`). Between commands the writers are the person, their tools and
 * retie's own file tools.
 *
 * @module
 */

import { errorMessage } from "../core/errors.ts";

/** More events than this between two captures: walk instead (see the module doc). */
export const MAX_EVENTS = 4096;
/** Paths remembered between two drains at most (a bound on memory, not on correctness). */
const MAX_PATHS = 500_000;
/** How long a barrier may take before the watcher is given up. */
export const BARRIER_TIMEOUT_MS = 2000;

/** What {@link TreeWatcher.drain} found: the changed absolute paths, or why it cannot tell. */
export type Drained = { ok: true; paths: Set<string>; events: number } | {
  ok: false;
  why: string;
};

/** Watches one tree and answers "what changed since the last drain". */
export class TreeWatcher {
  readonly #sentinelDir: string;
  #fs: Deno.FsWatcher | undefined;
  /** Highest sentinel number delivered. */
  #seen = 0;
  #paths = new Set<string>();
  #events = 0;
  #broken: string | null = null;
  #seq = 0;
  #wake: (() => void)[] = [];
  /** Sentinel names of this watcher only: an earlier watcher's sentinels (their removal events
   * arrive late) must not count as this one's barrier. */
  readonly #prefix: string;

  /**
   * Starts watching `root` (an absolute real path) recursively, except the absolute `ignore`
   * paths. `sentinelDir` must be an existing directory outside the tree that only this process
   * writes.
   *
   * @example
   * ```ts
   * import { TreeWatcher } from "./tree_watcher.ts";
   * const w = new TreeWatcher("/work/p", "/var/tmp/retie-sentinel", ["/work/p/node_modules"]);
   * const d = await w.drain();
   * if (d.ok) console.log([...d.paths]);
   * w.close();
   * ```
   */
  constructor(root: string, sentinelDir: string, ignore: string[] = []) {
    this.#sentinelDir = sentinelDir;
    this.#prefix = `${sentinelDir}/s-${crypto.randomUUID()}-`;
    try {
      this.#fs = Deno.watchFs([root, sentinelDir], { recursive: true, ignore });
    } catch (e) {
      // The kernel's watch limit, or no permission: every capture walks.
      this.#break(`cannot watch: ${errorMessage(e)}`);
      return;
    }
    this.#consume(this.#fs);
  }

  /** Why the watcher can no longer vouch for an interval, or null. */
  get broken(): string | null {
    return this.#broken;
  }

  async #consume(fs: Deno.FsWatcher): Promise<void> {
    const prefix = this.#prefix;
    const ours = this.#sentinelDir + "/";
    try {
      for await (const e of fs) {
        if (e.flag === "rescan") this.#break("the watcher dropped events");
        for (const p of e.paths) {
          if (p.startsWith(prefix)) {
            const n = Number(p.slice(prefix.length));
            if (n > this.#seen) this.#seen = n;
          } else if (p.startsWith(ours) || p === this.#sentinelDir) {
            // another watcher's sentinel
          } else if (!this.#broken) {
            this.#paths.add(p);
            this.#events++;
            if (this.#paths.size > MAX_PATHS) this.#break(`more than ${MAX_PATHS} changed paths`);
          }
        }
        this.#notify();
      }
      this.#break("the watcher stopped");
    } catch (e) {
      this.#break(`the watcher failed: ${errorMessage(e)}`);
    }
    this.#notify();
  }
  #break(why: string): void {
    if (this.#broken) return;
    this.#broken = why;
    this.#paths.clear();
  }

  #notify(): void {
    const w = this.#wake;
    this.#wake = [];
    for (const f of w) f();
  }

  /**
   * Waits until every event up to now has arrived, then returns the paths changed since the last
   * drain and starts a new interval.
   */
  async drain(timeoutMs = BARRIER_TIMEOUT_MS): Promise<Drained> {
    if (this.#broken) return { ok: false, why: this.#broken };
    const n = ++this.#seq;
    const sentinel = `${this.#prefix}${n}`;
    try {
      Deno.writeFileSync(sentinel, new Uint8Array());
    } catch (e) {
      this.#break(`cannot write the barrier: ${errorMessage(e)}`);
      return { ok: false, why: this.#broken! };
    }
    const deadline = performance.now() + timeoutMs;
    while (!this.#broken && this.#seen < n) {
      const left = deadline - performance.now();
      if (left <= 0) {
        this.#break("a barrier did not arrive in time");
        break;
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((res) => {
        this.#wake.push(res);
        timer = setTimeout(res, left);
      });
      clearTimeout(timer);
    }
    try {
      Deno.removeSync(sentinel);
    } catch { /* best effort */ }
    if (this.#broken) return { ok: false, why: this.#broken };
    const paths = this.#paths;
    const events = this.#events;
    this.#paths = new Set();
    this.#events = 0;
    return { ok: true, paths, events };
  }

  /** Stops watching. */
  close(): void {
    this.#break("closed");
    try {
      this.#fs?.close();
    } catch { /* already closed */ }
    this.#fs = undefined;
  }
}
