/**
 * The whole tamper corpus through retie's verifier (one thread and parallel) and the independent
 * reference verifier: all three must report the same problems (seq and code), and the first one
 * must be the code the corpus names.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { verifyLedger } from "../../src/ledger/verify.ts";
import { verifyLedgerParallel } from "../../src/ledger/verify_parallel.ts";
import { referenceVerify } from "./reference_verifier.ts";
import { baseLedger, TAMPERS } from "./tamper_corpus.ts";

/** Problems as sorted `seq code` lines, for comparing two verifiers. */
function codes(list: { seq: number; code: string }[]): string[] {
  return list.map((p) => `${p.seq} ${p.code}`).sort();
}

/** `SEQ:HASH` of entry `seq` of the intact ledger at `path`. */
function pinOf(path: string, seq: number): string {
  const db = new DatabaseSync(path, { readOnly: true });
  const r = db.prepare("SELECT hash FROM entries WHERE seq = ?").get(seq) as { hash: string };
  db.close();
  return `${seq}:${r.hash}`;
}

for (const t of TAMPERS) {
  Deno.test(`corpus: ${t.name}`, async () => {
    const path = baseLedger();
    const pin = t.expectHead
      ? (t.expectHead.hash
        ? `${t.expectHead.seq}:${t.expectHead.hash}`
        : pinOf(path, t.expectHead.seq))
      : undefined;
    t.apply?.(path);
    const [s, h] = pin?.split(":") ?? [];
    const expectHead = pin ? { seq: Number(s), hash: h } : undefined;
    const real = verifyLedger(path, { expectHead });
    const ref = await referenceVerify(path, { expectHead: pin });
    const par = await verifyLedgerParallel(path, { workers: 2, batch: 3, expectHead });
    assert.equal(real.firstBad?.code ?? null, t.code, JSON.stringify(real.problems, null, 1));
    assert.equal(real.ok, t.code === null);
    assert.deepEqual(codes(ref.problems), codes(real.problems), "reference and retie disagree");
    assert.equal(ref.firstBadSeq, real.firstBad?.seq ?? null);
    assert.deepEqual(par.problems, real.problems, "parallel and single-threaded disagree");
  });
}
