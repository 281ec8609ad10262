/**
 * Per-append cost of the ledger (durable: BEGIN IMMEDIATE … COMMIT with synchronous=FULL, hash and
 * Ed25519 signature) against one bare fsync of a small file on the same disk.
 * Run: `deno bench --allow-all bench/append_bench.ts`.
 */
import type { IntentPayload } from "../src/ledger/mod.ts";
import { join } from "node:path";
import { openLedger } from "../src/ledger/ledger.ts";
import { keyPairFromSeedHex } from "../src/ledger/keys.ts";
import { issueDelegation } from "../src/ledger/delegation.ts";

const dir = Deno.makeTempDirSync({ prefix: "retie-append-bench-" });
const user = keyPairFromSeedHex("01".repeat(32));
const agent = keyPairFromSeedHex("02".repeat(32));
const ledger = openLedger(join(dir, "ledger.db"));
const writer = ledger.startSession({
  genesis: {
    objective: "benchmark",
    provider: "bench",
    model: "bench",
    policy: "retie-default@0123456789ab",
    systemPromptDigest: "a".repeat(64),
    instructionsDigest: null,
    sandbox: "bwrap (no network)",
    version: "0.1.0",
    workspace: "/work/proj",
    mode: "auto",
    headless: true,
  },
  userKey: user,
  agentKey: agent,
  delegation: issueDelegation(user, agent.publicKey, {
    workspace: "/work/proj",
    classes: ["none", "reversible"],
    tools: ["*"],
    notBefore: new Date(Date.now() - 60_000),
    expires: new Date(Date.now() + 86400_000),
  }),
  checkpointEvery: 0,
});
const payload = {
  tool: "edit",
  class: "reversible",
  decision: "allow",
  effect: { reads: ["/work/proj/src/calc.py"], writes: ["/work/proj/src/calc.py"] },
  args: { path: "src/calc.py", old: "return a - b", new: "return a + b" },
  undo: { kind: "files", paths: ["/work/proj/src/calc.py"] },
};
let n = 0;

Deno.bench({
  name: "ledger append (durable intent, ~330-byte payload)",
  group: "durable write",
  baseline: false,
  fn() {
    // A fixed payload of the usual size (not built by intentPayload: the bench times the append).
    writer.append(
      "intent",
      payload as unknown as IntentPayload,
      `act_${(n++).toString(16).padStart(12, "0")}`,
    );
  },
});

const small = join(dir, "small.txt");
const f = Deno.openSync(small, { write: true, create: true, truncate: true });
const bytes = new TextEncoder().encode("x".repeat(300));
Deno.bench({
  name: "bare write + fsync of a 300-byte file",
  group: "durable write",
  baseline: true,
  fn() {
    f.writeSync(bytes);
    f.syncSync();
  },
});

Deno.bench({
  name: "ledger checkpoint (user-signed entry + head file, atomic rename + fsync)",
  group: "checkpoint",
  n: 200,
  fn() {
    writer.checkpoint();
  },
});
