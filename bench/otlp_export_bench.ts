/**
 * Export time of a 10k-entry ledger (one session of ~5k actions) as OTLP traces to a real
 * OTLP/HTTP receiver on 127.0.0.1 that decodes every protobuf request, and the replay model it is
 * built from. Run: `deno bench --allow-all bench/otlp_export_bench.ts`.
 */
import { openLedger, verifyLedger } from "../src/ledger/mod.ts";
import { buildReplay } from "../src/ui/replay_model.ts";
import { exportOtlp } from "../src/ui/otlp.ts";
import { startOtlpReceiver } from "../tests/helpers/otlp_receiver.ts";
import { benchLedger } from "./ledger_bench_data.ts";

const path = benchLedger(10_000);
const report = verifyLedger(path);
if (!report.ok) {
  throw new Error(
    `bench ledger does not verify: ${report.firstBad?.code} ${report.firstBad?.detail}`,
  );
}
const ledger = openLedger(path);
const entries = ledger.entries({ session: "ses_00000000beef" });
ledger.close();
const head = { seq: report.headSeq, hash: report.headHash };
const model = buildReplay(entries, head);
const rx = startOtlpReceiver();

Deno.bench("replay model of a 10k-entry ledger", { group: "otlp", n: 5 }, () => {
  buildReplay(entries, head);
});

Deno.bench("OTLP export of a 10k-entry ledger (decoded by the receiver)", {
  group: "otlp",
  baseline: true,
  n: 5,
}, async () => {
  rx.spans.length = 0;
  const r = await exportOtlp([model], rx.url);
  if (r.errors.length) throw new Error(r.errors[0]);
  if (rx.spans.length !== r.spans) throw new Error(`${rx.spans.length} of ${r.spans} arrived`);
});

globalThis.addEventListener("unload", () => void rx.close());
