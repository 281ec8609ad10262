/**
 * Listing a tree for a snapshot. Most of the cost is one lstat per path in the kernel, so a large
 * tree is listed by two threads: this one lists the first levels, then it and one persistent
 * worker claim the directories below them one at a time from a shared counter. The worker starts
 * after the first large listing of the process (done alone) and serves the later ones.
 *
 * Whatever goes wrong on the parallel path (an error in either thread, a worker that cannot start,
 * crashes or is late) makes this thread list the whole tree again by itself, so the result and the
 * errors are those of the in-process walk.
 *
 * @module
 */
import { walkTree } from "./tree.ts";
import { ListingHelper } from "./walk_helper.ts";
import {
  claimChunk,
  type Listed,
  listedOf,
  planListing,
  readPart,
  type SplitHint,
  walkChunk,
} from "./walk_split.ts";

export type { Listed, SplitHint } from "./walk_split.ts";

/**
 * Trees expected to hold at least this many paths are listed by two threads. Two threads already
 * win at 1,000 paths (8 → 6 ms here), but below ~2,000 the saving is a few ms per listing, not
 * worth a resident thread (~25 MB) and the 50–100 ms its start costs this thread
 * (bench/snapshot_bench.ts, "listing" groups).
 */
export const PARALLEL_THRESHOLD = 2_000;

/** The worker's part is given up on (and the tree listed here) after max(this, 20 × this
 * thread's part) ms: a worker that late is stuck, not slow. */
const MIN_TIMEOUT_MS = 5_000;

/** How {@link listTree} may list. */
export interface ListOptions {
  /** Entry counts from the previous capture, to split the tree evenly. */
  hint?: SplitHint;
  /** Lists in parallel from this expected size (default {@link PARALLEL_THRESHOLD}). */
  threshold?: number;
  /** The worker to use (default: the shared persistent one). */
  helper?: ListingHelper;
}

let shared: ListingHelper | undefined;

/**
 * Lists `root` in-process on this thread (sync readDir + lstat, never following links).
 *
 * @example
 * ```ts
 * import { listTreeSync } from "./walk.ts";
 * listTreeSync(Deno.cwd(), []).length;
 * ```
 */
export function listTreeSync(root: string, exclude: string[]): Listed[] {
  const out: Listed[] = [];
  walkTree(root, new Set(exclude), (rel, abs, s) => out.push(listedOf(rel, abs, s)));
  return out;
}

/**
 * Lists `root` (a real path) except the relative `exclude` paths: the same entries as
 * {@link listTreeSync} (in another order), by two threads when the tree is expected to hold at
 * least the threshold. `expectedEntries`: the size of the previous listing of this root.
 *
 * @example
 * ```ts
 * import { listTree } from "./walk.ts";
 * const previous = new Map<string, unknown>(); // the previous capture's index
 * const entries = await listTree("/work/project", ["node_modules"], 20_000, { hint: previous });
 * ```
 */
export async function listTree(
  root: string,
  exclude: string[],
  expectedEntries = 0,
  opts: ListOptions = {},
): Promise<Listed[]> {
  if (expectedEntries < (opts.threshold ?? PARALLEL_THRESHOLD)) return listTreeSync(root, exclude);
  const helper = opts.helper ?? (shared ??= new ListingHelper());
  if (!helper.running) {
    // The first large listing of a process is done alone while the worker starts after it.
    helper.startSoon();
    return listTreeSync(root, exclude);
  }
  const listed = await listInParallel(root, exclude, expectedEntries, opts.hint, helper);
  return listed ?? listTreeSync(root, exclude);
}

/**
 * Terminates the shared listing worker, if one is running (a later listing starts a new one). An
 * idle worker does not keep the process alive; this is for tests and for freeing its memory.
 *
 * @example
 * ```ts
 * import { closeListingWorker } from "./walk.ts";
 * await closeListingWorker();
 * ```
 */
export async function closeListingWorker(): Promise<void> {
  const h = shared;
  shared = undefined;
  await h?.close();
}

/** The two-thread listing; undefined when anything failed (the caller then lists alone). */
async function listInParallel(
  root: string,
  exclude: string[],
  expected: number,
  hint: SplitHint | undefined,
  helper: ListingHelper,
): Promise<Listed[] | undefined> {
  const ex = new Set(exclude);
  let plan: { listed: Listed[]; chunks: string[] };
  try {
    plan = planListing(root, ex, expected, hint);
  } catch {
    return undefined;
  }
  const { listed: out, chunks } = plan;
  if (chunks.length === 0) return out;
  const control = new Int32Array(new SharedArrayBuffer(4));
  const id = chunks.length > 1
    ? helper.post({ root, exclude, chunks, control: control.buffer as SharedArrayBuffer })
    : undefined;
  const t0 = performance.now();
  let mine = 0;
  try {
    for (let i = claimChunk(control, chunks.length); i >= 0;) {
      mine++;
      walkChunk(root, chunks[i], ex, (rel, abs, s) => out.push(listedOf(rel, abs, s)));
      i = claimChunk(control, chunks.length);
    }
  } catch {
    Atomics.store(control, 0, chunks.length); // the worker takes no more
    if (id !== undefined) helper.drop(id);
    return undefined;
  }
  if (id === undefined) return out;
  if (mine === chunks.length) {
    helper.drop(id); // the worker claimed nothing (still starting, or busy)
    return out;
  }
  const timeout = Math.max(MIN_TIMEOUT_MS, 20 * (performance.now() - t0));
  const reply = await helper.result(id, timeout);
  if (!reply || "error" in reply || !readPart(reply, out)) return undefined;
  return out;
}
