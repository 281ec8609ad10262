/**
 * Many edits inspected at once (`retie inspect --jsonl`): on a machine with more than one core,
 * a few workers (`inspect_worker.ts`) share them, each taking the next edit as it finishes the
 * last, and the findings come back in the order the edits were given. A few edits, one core, or a
 * worker that fails: the edits left are inspected here, so no edit is ever lost.
 *
 * @module
 */
import { Worker } from "node:worker_threads";
import { inspectText, loadParsers } from "./mod.ts";
import type { Finding } from "./types.ts";

/** One edit to inspect. */
export interface PoolEdit {
  path: string;
  before: string | null;
  after: string | null;
}

/** What the main thread sends a worker: edit `i`. */
export interface PoolJob extends PoolEdit {
  i: number;
}

/** What a worker sends back for edit `i`. */
export type PoolReply = { i: number; findings: Finding[] } | { i: number; error: string };

/** The worker module (`deno compile` is given it with `--include`). */
const WORKER = new URL("./inspect_worker.ts", import.meta.url);

/** Below this many edits the workers' start (each loads the parsers) costs more than it saves. */
const MIN_EDITS = 64;

/** How many workers to use for `n` edits: one per core, at most four, none for a few edits. */
export function poolSize(n: number, cores = navigator.hardwareConcurrency ?? 1): number {
  if (n < MIN_EDITS || cores < 2) return 0;
  return Math.min(cores, 4);
}

/**
 * The findings of each edit, in order: shared among workers when there are enough edits and
 * cores (`workers` overrides how many; 0 inspects here), here otherwise. `workerUrl` names
 * another worker module speaking the same messages (tests use one that fails).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inspectAll } from "./pool.ts";
 * const edits = [
 *   { path: "a.py", before: "x = 1\n", after: "x = 2\n" },
 *   { path: "b.py", before: "requests.get(u)\n", after: "requests.get(u, verify=False)\n" },
 * ];
 * const found = await inspectAll(edits, { workers: 0 });
 * assert.deepEqual(found[0], []);
 * assert.equal(found[1][0].rule, "tls-verify-disabled");
 * ```
 */
export async function inspectAll(
  edits: readonly PoolEdit[],
  opts: { workers?: number; workerUrl?: URL } = {},
): Promise<Finding[][]> {
  const out: (Finding[] | undefined)[] = Array.from({ length: edits.length }, () => undefined);
  const n = opts.workers ?? poolSize(edits.length);
  if (n > 0) await shared(edits, out, n, opts.workerUrl ?? WORKER);
  // What no worker did (none started, one failed, an edit it could not take) is done here.
  if (out.includes(undefined)) await loadParsers();
  return out.map((f, i) => f ?? inspectText(edits[i].path, edits[i].before, edits[i].after));
}

/** Hands the edits to `n` workers, one at a time each, until all are done or the workers fail. */
function shared(
  edits: readonly PoolEdit[],
  out: (Finding[] | undefined)[],
  n: number,
  url: URL,
) {
  let next = 0;
  let live = 0;
  return new Promise<void>((resolve) => {
    const start = () => {
      let w: Worker;
      try {
        w = new Worker(url);
      } catch {
        return; // no worker: the edits are done on the main thread
      }
      live++;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        w.terminate().catch(() => {});
        if (--live === 0) resolve();
      };
      const give = () => {
        if (next >= edits.length) return finish();
        const i = next++;
        const job: PoolJob = { i, ...edits[i] };
        w.postMessage(job);
      };
      // (An edit a worker could not take is left for the main thread.)
      w.on("message", (r: PoolReply) => {
        if ("findings" in r) out[r.i] = r.findings;
        if (!done) give();
      });
      // A worker that fails stops taking edits; the one it held is done on the main thread.
      w.on("error", finish);
      w.on("exit", finish);
      give();
    };
    for (let k = 0; k < n; k++) start();
    if (live === 0) resolve();
  });
}
