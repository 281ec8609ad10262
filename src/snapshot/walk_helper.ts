/**
 * The listing worker's handle: one persistent worker, created when first wanted and reused, ref'd
 * only while the main thread awaits its part (so an idle worker never keeps the process alive).
 * Creating a worker blocks this thread for 50–100 ms here (the new isolate is set up before the
 * constructor returns), so {@link ListingHelper.startSoon} does it on a later turn of the event
 * loop, and not at all when the process is done before then. A worker
 * that errors, exits or misses its deadline is discarded and replaced on the next use; after
 * {@link MAX_FAILURES} failures in a row the handle stops trying and callers list alone.
 *
 * @module
 */
import { Worker } from "node:worker_threads";
import type { ListingJob, ListingReply } from "./walk_split.ts";

const MAX_FAILURES = 3;

/**
 * A persistent listing worker.
 *
 * @example
 * ```ts
 * import { ListingHelper } from "./walk_helper.ts";
 * const helper = new ListingHelper();
 * // const id = helper.post({ root, exclude, chunks, control });
 * await helper.close();
 * ```
 */
export class ListingHelper {
  #url: URL;
  #worker: Worker | undefined;
  #nextId = 1;
  #failures = 0;
  #parts = 0;
  #starting: ReturnType<typeof setTimeout> | undefined;
  /** Jobs posted and still wanted. */
  #live = new Set<number>();
  /** Parts that arrived before anyone asked for them. */
  #arrived = new Map<number, ListingReply>();
  #waiters = new Map<number, (r: ListingReply | undefined) => void>();

  /** `url`: the worker module (tests pass a broken one to exercise the fallback). */
  constructor(url: URL = new URL("./walk_worker.ts", import.meta.url)) {
    this.#url = url;
  }

  /** How many listed parts the worker has answered with, errors not counted (for tests). */
  get parts(): number {
    return this.#parts;
  }

  /** True when a worker is running. */
  get running(): boolean {
    return this.#worker !== undefined;
  }

  /** Starts the worker on a later turn of the event loop (an unref'd timer: a process that ends
   * first never pays for it). */
  startSoon(): void {
    if (this.#worker || this.#starting !== undefined || this.#failures >= MAX_FAILURES) return;
    const timer = setTimeout(() => {
      this.#starting = undefined;
      this.#ensure();
    }, 0);
    Deno.unrefTimer(timer);
    this.#starting = timer;
  }

  /** Posts a job (starting the worker now if needed); its id, or undefined when no worker can run
   * here. */
  post(job: Omit<ListingJob, "id">): number | undefined {
    const w = this.#ensure();
    if (!w) return undefined;
    const id = this.#nextId++;
    try {
      w.postMessage({ ...job, id });
    } catch {
      this.#fail(w);
      return undefined;
    }
    this.#live.add(id);
    return id;
  }

  /** The worker's part of job `id`; undefined when the worker failed or missed `timeoutMs` (it is
   * then discarded). */
  result(id: number, timeoutMs: number): Promise<ListingReply | undefined> {
    const got = this.#arrived.get(id);
    if (got || !this.#live.has(id) || !this.#worker) {
      this.drop(id);
      return Promise.resolve(got);
    }
    const w = this.#worker;
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#fail(w), timeoutMs);
      this.#waiters.set(id, (r) => {
        clearTimeout(timer);
        resolve(r);
      });
      w.ref();
    });
  }

  /** Gives up on job `id`: its part, if it comes, is ignored. */
  drop(id: number): void {
    this.#live.delete(id);
    this.#arrived.delete(id);
  }

  /** Terminates the worker (the next job starts a new one). */
  async close(): Promise<void> {
    const w = this.#worker;
    this.#worker = undefined;
    clearTimeout(this.#starting);
    this.#starting = undefined;
    this.#settleAll();
    if (w) await w.terminate().catch(() => {});
  }

  #ensure(): Worker | undefined {
    if (this.#worker) return this.#worker;
    if (this.#failures >= MAX_FAILURES) return undefined;
    let w: Worker;
    try {
      w = new Worker(this.#url);
    } catch {
      this.#failures++;
      return undefined;
    }
    w.on("message", (r: ListingReply) => this.#onReply(w, r));
    w.on("error", () => this.#fail(w));
    w.on("messageerror", () => this.#fail(w));
    w.on("exit", () => this.#fail(w));
    w.unref();
    this.#worker = w;
    return w;
  }

  #onReply(w: Worker, r: ListingReply): void {
    if (w !== this.#worker || !this.#live.has(r.id)) return;
    this.#failures = 0;
    if (!("error" in r)) this.#parts++;
    const waiter = this.#waiters.get(r.id);
    if (!waiter) {
      this.#arrived.set(r.id, r);
      return;
    }
    this.#waiters.delete(r.id);
    this.#live.delete(r.id);
    if (this.#waiters.size === 0) w.unref();
    waiter(r);
  }

  /** Discards worker `w` (an error, its exit, a missed deadline) unless it is already replaced. */
  #fail(w: Worker): void {
    if (w !== this.#worker) return;
    this.#failures++;
    this.#worker = undefined;
    this.#settleAll();
    w.terminate().catch(() => {});
  }

  #settleAll(): void {
    const waiters = [...this.#waiters.values()];
    this.#waiters.clear();
    this.#live.clear();
    this.#arrived.clear();
    for (const waiter of waiters) waiter(undefined);
  }
}
