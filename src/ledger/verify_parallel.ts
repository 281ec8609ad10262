/**
 * The parallel verifier: the same checks as {@link verifyLedger}, with Ed25519 signature checks
 * (the dominant cost) spread over worker threads while the main thread hashes, links and checks
 * delegations. Falls back to the single-threaded verifier when workers cannot start.
 *
 * @module
 */
import {
  badSignature,
  openForVerify,
  type RawRow,
  verifyLedger,
  type VerifyOptions,
  verifyRows,
} from "./verify.ts";
import { byProblemOrder, type VerifyProblem } from "./verify_problems.ts";
import type { VerifyReport } from "./verify.ts";
import type { SignatureBatch, SignatureVerdict } from "./verify_worker.ts";

const BATCH = 4096;

/**
 * Verifies the ledger at `path` using `workers` signature threads (default 2). Throws RetieError
 * exitCode 2 for unreadable input, like {@link verifyLedger}.
 *
 * @example
 * ```ts
 * import { verifyLedgerParallel } from "./verify_parallel.ts";
 * // const report = await verifyLedgerParallel("/home/me/.local/state/retie/ledger.db");
 * ```
 */
export async function verifyLedgerParallel(
  path: string,
  opts: VerifyOptions & { workers?: number; batch?: number } = {},
): Promise<VerifyReport> {
  const n = Math.max(1, opts.workers ?? 2);
  const batchSize = Math.max(1, opts.batch ?? BATCH);
  // Open first: unreadable input throws here, before any worker exists to be left running.
  const { db, rows, head, headError } = openForVerify(path, opts);
  const workers: Worker[] = [];
  try {
    for (let i = 0; i < n; i++) {
      workers.push(
        new Worker(new URL("./verify_worker.ts", import.meta.url).href, { type: "module" }),
      );
    }
  } catch {
    for (const w of workers) w.terminate();
    db.close();
    return verifyLedger(path, opts);
  }
  type Bad = SignatureVerdict["bad"];
  const pending = new Map<number, (bad: Bad) => void>();
  let failure: unknown = null;
  const failed = new Promise<never>((_, reject) => {
    for (const w of workers) {
      w.onmessage = (e: MessageEvent<SignatureVerdict>) => {
        const p = pending.get(e.data.id);
        pending.delete(e.data.id);
        p?.(e.data.bad);
      };
      w.onerror = (e) => {
        e.preventDefault();
        failure = e;
        reject(e);
      };
    }
  });
  failed.catch(() => {});
  const results: Promise<Bad>[] = [];
  let batch: SignatureBatch = newBatch(0);
  const flush = () => {
    if (batch.seqs.length === 0) return;
    const b = batch;
    results.push(
      Promise.race([
        new Promise<Bad>((resolve) => pending.set(b.id, resolve)),
        failed,
      ]),
    );
    workers[b.id % n].postMessage(b);
    batch = newBatch(b.id + 1);
  };
  /** Rows that reach the signature check are queued for the workers (the answer comes later). */
  const defer = (r: RawRow): null => {
    batch.seqs.push(r.seq);
    batch.signers.push(r.signer);
    batch.hashes.push(r.hash);
    batch.signatures.push(r.signature);
    if (batch.seqs.length >= batchSize) flush();
    return null;
  };
  let report: VerifyReport;
  let bad: Bad;
  try {
    report = verifyRows(path, rows, head, headError, opts, defer);
    flush();
    bad = (await Promise.all(results)).flat();
  } catch (e) {
    if (failure) return verifyLedger(path, opts); // workers could not run here
    throw e;
  } finally {
    db.close();
    for (const w of workers) w.terminate();
  }
  if (bad.length === 0) return report;
  const problems: VerifyProblem[] = [
    ...report.problems,
    ...bad.map((b) => ({
      code: "signature-invalid" as const,
      seq: b.seq,
      detail: badSignature(b.signer),
    })),
  ].sort(byProblemOrder);
  return { ...report, ok: false, problems, firstBad: problems[0] };
}

function newBatch(id: number): SignatureBatch {
  return { id, seqs: [], signers: [], hashes: [], signatures: [] };
}
