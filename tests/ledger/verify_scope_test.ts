/**
 * Verify's semantic checks on real ledgers: delegation scope and time, outcomes without intents,
 * sub-delegated child sessions, session selection, and a writer killed mid-action.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { fileURLToPath } from "node:url";
import { verifyLedger } from "../../src/ledger/verify.ts";
import { generateKeyPair, signHex } from "../../src/ledger/keys.ts";
import { delegationHash, issueDelegation } from "../../src/ledger/delegation.ts";
import { openLedger } from "../../src/ledger/ledger.ts";
import { RetieError } from "../../src/core/errors.ts";
import {
  action,
  appendRaw,
  EXPIRES,
  freshSession,
  genesisFields,
  tempLedgerPath,
  tickingClock,
  WORKSPACE,
} from "./ledger_fixture.ts";

Deno.test("verify: intents outside the delegation are flagged with the reason", () => {
  const { path, ledger, writer } = freshSession({ checkpointEvery: 0 });
  action(writer, "act_000000000001");
  appendRaw(
    writer,
    "intent",
    { tool: "shell", class: "irreversible", effect: { writes: [] } },
    "act_000000000002",
  );
  appendRaw(writer, "intent", {
    tool: "write",
    class: "reversible",
    effect: { writes: [`${WORKSPACE}/ok.txt`, "/etc/cron.d/x"] },
  }, "act_000000000003");
  ledger.close();
  const r = verifyLedger(path);
  assert.equal(r.ok, false);
  assert.deepEqual(r.problems, [
    {
      code: "intent-out-of-scope",
      seq: 4,
      detail: "intent outside the delegation: class irreversible not delegated",
    },
    {
      code: "intent-out-of-scope",
      seq: 5,
      detail:
        "intent outside the delegation: path /etc/cron.d/x outside delegated workspace /work/proj",
    },
  ]);
});

Deno.test("verify: an intent after the delegation's expiry is flagged", () => {
  let t = Date.parse("2026-01-01T23:59:58.000Z");
  const { path, ledger, writer } = freshSession({ checkpointEvery: 0, clock: () => new Date(t) });
  action(writer, "act_000000000001");
  t = EXPIRES.getTime() + 60_000;
  appendRaw(writer, "refusal", { reason: "expired" }); // refusals after expiry are fine
  appendRaw(
    writer,
    "intent",
    { tool: "edit", class: "reversible", effect: { writes: [] } },
    "act_000000000002",
  );
  ledger.close();
  const r = verifyLedger(path);
  assert.equal(r.firstBad?.seq, 5);
  assert.equal(r.firstBad?.code, "intent-out-of-scope");
  assert.equal(
    r.firstBad?.detail,
    "intent outside the delegation: after expiry 2026-01-02T00:00:00.000Z",
  );
});

Deno.test("verify: an outcome without an earlier intent is flagged", () => {
  const { path, ledger, writer } = freshSession({ checkpointEvery: 0 });
  appendRaw(writer, "outcome", { status: "ok" }, "act_000000000009");
  ledger.close();
  const r = verifyLedger(path);
  assert.equal(r.firstBad?.seq, 2);
  assert.equal(r.firstBad!.code, "outcome-without-intent");
});

Deno.test("verify: a sub-delegated child session verifies; a widened one is flagged", () => {
  const { path, ledger, writer, user, agent } = freshSession({ checkpointEvery: 0 });
  const subAgent = generateKeyPair();
  const narrow = issueDelegation(agent, subAgent.publicKey, {
    workspace: `${WORKSPACE}/src`,
    classes: ["none"],
    tools: ["read"],
    notBefore: new Date("2026-01-01T00:00:00Z"),
    expires: new Date("2026-01-01T23:00:00Z"),
  }, writer.delegation);
  appendRaw(writer, "delegation", { delegation: narrow });
  const child = ledger.startSession({
    genesis: genesisFields("read the sources"),
    userKey: user,
    agentKey: subAgent,
    delegation: narrow,
    parentSession: writer.sessionId,
    sessionId: "ses_000000000002",
    checkpointEvery: 0,
  });
  appendRaw(
    child,
    "intent",
    { tool: "read", class: "none", effect: { writes: [] } },
    "act_00000000000c",
  );
  appendRaw(child, "outcome", { status: "ok" }, "act_00000000000c");
  assert.equal(verifyLedger(path).ok, true, JSON.stringify(verifyLedger(path).problems));

  // A child whose delegation widens the parent's, re-signed by the parent's agent (bypassing
  // issueDelegation's check), is flagged at its genesis.
  const wide = issueDelegation(agent, generateKeyPair().publicKey, {
    workspace: "/",
    classes: ["none", "reversible", "irreversible"],
    tools: ["*"],
    notBefore: new Date("2026-01-01T00:00:00Z"),
    expires: new Date("2026-01-05T00:00:00Z"),
  });
  const body = { ...wide, parent: delegationHash(writer.delegation) };
  const forged = { ...body, signature: signHex(agent, Buffer.from(delegationHash(body), "hex")) };
  const before = ledger.head().seq;
  ledger.startSession({
    genesis: genesisFields("escape"),
    userKey: user,
    agentKey: { ...subAgent, publicKey: forged.agent },
    delegation: forged,
    parentSession: writer.sessionId,
    sessionId: "ses_000000000003",
    checkpointEvery: 0,
  });
  ledger.close();
  const r = verifyLedger(path);
  assert.equal(r.firstBad?.seq, before + 1);
  assert.equal(r.firstBad!.code, "delegation-invalid");
  assert.match(r.firstBad!.detail, /widens/);
});

Deno.test("verify: --session reports one session; an unknown session is unreadable input", () => {
  const path = tempLedgerPath();
  const a = freshSession({ path, sessionId: "ses_00000000000a", checkpointEvery: 0 });
  action(a.writer, "act_00000000000a");
  appendRaw(a.writer, "intent", { tool: "x", class: "irreversible" }, "act_00000000000b");
  a.ledger.close();
  const b = freshSession({ path, sessionId: "ses_00000000000b", checkpointEvery: 0 });
  action(b.writer, "act_00000000000c");
  b.ledger.close();
  assert.equal(verifyLedger(path).ok, false);
  const rb = verifyLedger(path, { session: "ses_00000000000b" });
  assert.equal(rb.ok, true);
  assert.equal(rb.entries, 3);
  assert.deepEqual(rb.openActions, []);
  const ra = verifyLedger(path, { session: "ses_00000000000a" });
  assert.equal(ra.ok, false);
  assert.equal(ra.openActions.length, 1);
  assert.throws(
    () => verifyLedger(path, { session: "ses_0000000000ff" }),
    (e: unknown) => e instanceof RetieError && e.exitCode === 2,
  );
});

Deno.test("verify: trusted user keys pin who may open sessions", () => {
  const { path, ledger, user } = freshSession({ checkpointEvery: 0 });
  ledger.close();
  assert.equal(verifyLedger(path, { trustedUserKeys: [user.publicKey] }).ok, true);
  const r = verifyLedger(path, { trustedUserKeys: [generateKeyPair().publicKey] });
  assert.equal(r.firstBad?.code, "user-key-untrusted");
});

Deno.test("verify: a writer killed with SIGKILL between intent and outcome leaves a valid ledger with an open action", async () => {
  const path = tempLedgerPath();
  openLedger(path, { clock: tickingClock() }).close();
  const childPath = fileURLToPath(new URL("./ledger_child_writer.ts", import.meta.url));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", childPath, path, "crash", "ses_0000000000cc"],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    out += value;
  }
  child.kill("SIGKILL");
  const status = await child.status;
  reader.releaseLock();
  await child.stdout.cancel().catch(() => {});
  await child.stderr.cancel();
  assert.equal(status.signal, "SIGKILL");
  const [, actionId] = out.trim().split(" ");
  assert.equal(actionId, "act_0000cc000001");
  const r = verifyLedger(path);
  assert.equal(r.ok, true, JSON.stringify(r.problems));
  assert.deepEqual(r.openActions, [{ seq: 4, session: "ses_0000000000cc", actionId }]);
});
