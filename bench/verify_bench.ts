/**
 * `verifyLedger` throughput on a 100k-entry ledger (goal ≥ 15k entries/s), and the cost of its
 * parts. Run: `deno bench --allow-all bench/verify_bench.ts`.
 */
import { Buffer } from "node:buffer";
import { verifyLedger } from "../src/ledger/verify.ts";
import { verifyLedgerParallel } from "../src/ledger/verify_parallel.ts";
import { keyPairFromSeedHex, signHex, verifyHex } from "../src/ledger/keys.ts";
import { benchLedger } from "./ledger_bench_data.ts";

const N = 100_000;
const path = benchLedger(N);
const first = verifyLedger(path);
if (!first.ok || first.entries !== N) {
  throw new Error(`bench ledger invalid: ${first.firstBad?.code} ${first.firstBad?.detail}`);
}

Deno.bench({
  name: `verifyLedger (1 thread), ${N} entries (entries/s = ${N} / time)`,
  group: "verify",
  n: 3,
  warmup: 1,
  fn() {
    verifyLedger(path);
  },
});

Deno.bench({
  name: `verifyLedgerParallel (signatures on 2 workers), ${N} entries`,
  group: "verify",
  n: 3,
  warmup: 1,
  async fn() {
    const r = await verifyLedgerParallel(path, { workers: 2 });
    if (!r.ok) throw new Error("parallel verify disagrees");
  },
});

const k = keyPairFromSeedHex("02".repeat(32));
const msg = Buffer.alloc(32, 7);
const sig = signHex(k, msg);
Deno.bench({
  name: "one Ed25519 verify (node:crypto, cached key)",
  group: "parts",
  fn() {
    verifyHex(k.publicKey, msg, sig);
  },
});
