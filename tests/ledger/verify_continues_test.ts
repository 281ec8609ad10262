/**
 * A resumed session's delegation names the delegation it continues (`continues`): verify accepts
 * it when that delegation is earlier in the ledger, and refuses a name it cannot find.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  delegationHash,
  generateKeyPair,
  issueDelegation,
  openLedger,
  verifyLedger,
} from "../../src/ledger/mod.ts";
import { genesisFields, userKey } from "./ledger_fixture.ts";

function session(path: string, continues?: string) {
  const ledger = openLedger(path);
  const agent = generateKeyPair();
  const now = Date.now();
  const delegation = issueDelegation(userKey(), agent.publicKey, {
    workspace: "/work/proj",
    classes: ["none", "reversible"],
    tools: ["*"],
    notBefore: new Date(now - 60_000),
    expires: new Date(now + 3600_000),
    ...(continues ? { continues } : {}),
  });
  const w = ledger.startSession({
    genesis: genesisFields(),
    userKey: userKey(),
    agentKey: agent,
    delegation,
  });
  w.append("event", { type: "turn", text: "x" });
  w.close();
  ledger.close();
  return delegation;
}

Deno.test("verify: a delegation that continues an earlier one verifies; an unknown one does not", () => {
  const dir = Deno.makeTempDirSync();
  const good = join(dir, "good.db");
  const first = session(good);
  const second = session(good, delegationHash(first));
  assert.equal(second.continues, delegationHash(first));
  assert.equal(verifyLedger(good).ok, true);

  const bad = join(dir, "bad.db");
  session(bad, "f".repeat(64));
  const r = verifyLedger(bad);
  assert.equal(r.ok, false);
  assert.equal(r.firstBad!.code, "delegation-invalid");
  assert.match(r.firstBad!.detail, /continues delegation ffffffffffff, not earlier in the ledger/);
});
