/**
 * Builds a large valid ledger for the benchmarks: one real session (genesis through the writer),
 * then intent/outcome pairs and a checkpoint every 100 entries, hashed and signed exactly as the
 * writer does but inserted in one transaction (durable per-row appends would take minutes).
 */
import { Buffer } from "node:buffer";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { existsSync } from "node:fs";
import { keyPairFromSeedHex, signHex } from "../src/ledger/keys.ts";
import { issueDelegation } from "../src/ledger/delegation.ts";
import { openLedger } from "../src/ledger/ledger.ts";
import { entryHash } from "../src/ledger/entry_hash.ts";
import { canonicalJson } from "../src/core/canonical_json.ts";
import { signHead, writeHeadFile } from "../src/ledger/checkpoint.ts";

/** Path of a cached ledger with `n` entries (built on first use, under the system temp dir). */
export function benchLedger(n: number): string {
  const dir = join(Deno.env.get("TMPDIR") ?? "/tmp", `retie-bench-ledger-head2-${n}`);
  const path = join(dir, "ledger.db");
  if (existsSync(path + ".head.json")) return path;
  Deno.mkdirSync(dir, { recursive: true });
  const user = keyPairFromSeedHex("01".repeat(32));
  const agent = keyPairFromSeedHex("02".repeat(32));
  const start = Date.parse("2026-01-01T00:00:00.000Z");
  const ledger = openLedger(path, { clock: () => new Date(start + 1000) });
  ledger.startSession({
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
      notBefore: new Date(start),
      expires: new Date(start + 365 * 86400_000),
    }),
    sessionId: "ses_00000000beef",
    checkpointEvery: 0,
  });
  ledger.close();
  const db = new DatabaseSync(path);
  db.exec("PRAGMA synchronous=OFF");
  const ins = db.prepare(
    "INSERT INTO entries(seq, time, session, kind, action_id, payload, prev, hash, signer, signature) VALUES (?,?,?,?,?,?,?,?,?,?)",
  );
  const h = db.prepare("SELECT seq, hash FROM entries ORDER BY seq DESC LIMIT 1").get() as {
    seq: number;
    hash: string;
  };
  let seq = h.seq, prev = h.hash;
  let pending: string | null = null;
  let last = { seq: 0, hash: "", signature: "", time: "" };
  db.exec("BEGIN");
  while (seq < n) {
    seq++;
    const time = new Date(start + 2000 + seq).toISOString();
    let kind: string, actionId: string | null, payload: Record<string, unknown>, key = agent;
    if (seq % 100 === 0) {
      kind = "checkpoint";
      actionId = null;
      payload = { seq: seq - 1, hash: prev, final: false };
      key = user;
    } else if (pending === null) {
      kind = "intent";
      actionId = pending = `act_${seq.toString(16).padStart(12, "0")}`;
      payload = {
        tool: "edit",
        class: "reversible",
        decision: "allow",
        effect: { reads: ["/work/proj/src/calc.py"], writes: ["/work/proj/src/calc.py"] },
        args: { path: "src/calc.py", old: "return a - b", new: "return a + b" },
        undo: { kind: "files", paths: ["/work/proj/src/calc.py"] },
      };
    } else {
      kind = "outcome";
      actionId = pending;
      pending = null;
      payload = { status: "ok", resultDigest: "b".repeat(64), ms: 12 };
    }
    const payloadJson = canonicalJson(payload);
    const session = "ses_00000000beef";
    const hash = entryHash({ seq, time, session, kind, actionId, payloadJson, prev });
    const signature = signHex(key, Buffer.from(hash, "hex"));
    ins.run(seq, time, session, kind, actionId, payloadJson, prev, hash, key.publicKey, signature);
    if (kind === "checkpoint") last = { seq, hash, signature, time };
    prev = hash;
  }
  db.exec("COMMIT");
  db.close();
  writeHeadFile(path, signHead(user, last));
  return path;
}
