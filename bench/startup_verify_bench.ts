/**
 * The ledger check before a session appends (`refuseInvalidLedger`): in full, and with the
 * verified mark of an earlier start (signatures up to it not checked again), on ledgers of 10k and
 * 50k entries. Run: `deno bench --allow-all bench/startup_verify_bench.ts`.
 */
import { refuseInvalidLedger } from "../src/agent/session_support.ts";
import { keyPairFromSeedHex } from "../src/ledger/keys.ts";
import { verifiedMarkPath } from "../src/ledger/verified_mark.ts";
import { benchLedger } from "./ledger_bench_data.ts";

// The bench ledger's sessions are opened by this user key.
const user = keyPairFromSeedHex("01".repeat(32));

for (const n of [10_000, 50_000]) {
  const path = benchLedger(n);
  Deno.bench({
    name: `start-up check, ${n} entries, in full (no mark)`,
    group: `start-up ${n}`,
    baseline: true,
    n: 3,
    warmup: 1,
    fn() {
      try {
        Deno.removeSync(verifiedMarkPath(path));
      } catch { /* the first run: no mark yet */ }
      refuseInvalidLedger(path, user);
    },
  });
  Deno.bench({
    name: `start-up check, ${n} entries, with the verified mark`,
    group: `start-up ${n}`,
    n: 5,
    warmup: 1,
    fn() {
      refuseInvalidLedger(path, user);
    },
  });
}
