/**
 * The real verifier cross-checked against the independent reference verifier, on the documented
 * known-answer vector and on real ledgers, intact and tampered.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { DatabaseSync } from "node:sqlite";
import { rmSync } from "node:fs";
import { canonicalJson } from "../../src/core/canonical_json.ts";
import { entryHash, entryHashInput } from "../../src/ledger/entry_hash.ts";
import { keyPairFromSeedHex, signHex, verifyHex } from "../../src/ledger/keys.ts";
import { delegationHash } from "../../src/ledger/delegation.ts";
import { verifyLedger } from "../../src/ledger/verify.ts";
import { RetieError } from "../../src/core/errors.ts";
import { verifyLedgerParallel } from "../../src/ledger/verify_parallel.ts";
import { headFilePath } from "../../src/ledger/checkpoint.ts";
import {
  refCanonical,
  refDomainHash,
  refEntryHash,
  referenceVerify,
  refPublicKey,
  refSign,
} from "./reference_verifier.ts";
import { action, freshSession, generateSubSession } from "./ledger_fixture.ts";

// The known-answer vector of docs/ledger-format.md.
const KAT_PAYLOAD = { note: "héllo ✓", list: [1, 2.5, true, null], nested: { z: 0, a: "\u0000" } };
const KAT_ENTRY = {
  seq: 1,
  time: "2026-01-01T00:00:00.000Z",
  session: "ses_000000000001",
  kind: "finding",
  actionId: null,
  prev: "0".repeat(64),
};
const KAT_INPUT =
  '{"actionId":null,"kind":"finding","payload":{"list":[1,2.5,true,null],"nested":{"a":"\\u0000","z":0},"note":"héllo ✓"},"prev":"0000000000000000000000000000000000000000000000000000000000000000","seq":1,"session":"ses_000000000001","time":"2026-01-01T00:00:00.000Z"}';
const KAT_HASH = "046242771746d5785e2f5699235a4d7dd71d7b4c671de9941e48d75eb2f79290";
const KAT_SEED = "02".repeat(32);
const KAT_PUBLIC = "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394";
const KAT_SIGNATURE =
  "897bdb8b138fa6b3b0085c35dd8414296488e59cded19f01139a2d7bb3c5fe6ddaa5940007c88506af1d1f58fbf9c8e619998bdf0a9af76439564d7f50ff4a04";

Deno.test("reference: the known-answer vector, computed by both implementations", async () => {
  const payloadJson = canonicalJson(KAT_PAYLOAD);
  assert.equal(payloadJson, refCanonical(KAT_PAYLOAD));
  assert.equal(entryHashInput({ ...KAT_ENTRY, payloadJson }), KAT_INPUT);
  assert.equal(refCanonical({ ...KAT_ENTRY, payload: KAT_PAYLOAD }), KAT_INPUT);
  assert.equal(entryHash({ ...KAT_ENTRY, payloadJson }), KAT_HASH);
  assert.equal(await refEntryHash({ ...KAT_ENTRY, payload: KAT_PAYLOAD }), KAT_HASH);
  const k = keyPairFromSeedHex(KAT_SEED);
  assert.equal(k.publicKey, KAT_PUBLIC);
  assert.equal(await refPublicKey(KAT_SEED), KAT_PUBLIC);
  assert.equal(signHex(k, Buffer.from(KAT_HASH, "hex")), KAT_SIGNATURE);
  assert.equal(await refSign(KAT_SEED, KAT_HASH), KAT_SIGNATURE);
  assert.equal(verifyHex(KAT_PUBLIC, Buffer.from(KAT_HASH, "hex"), KAT_SIGNATURE), true);
});

Deno.test("reference: delegation hashes agree", async () => {
  const { writer, ledger } = freshSession({ checkpointEvery: 0 });
  const { signature: _s, ...body } = writer.delegation;
  assert.equal(
    delegationHash(writer.delegation),
    await refDomainHash("retie/delegation/v1", refCanonical(body)),
  );
  ledger.close();
});

/** Problems as sorted `seq code` lines, for comparing two verifiers. */
function codes(list: { seq: number; code: string }[]): string[] {
  return list.map((p) => `${p.seq} ${p.code}`).sort();
}

type Tamper = { name: string; sql?: string[]; dropHead?: boolean };
const TAMPERS: Tamper[] = [
  { name: "intact" },
  {
    name: "payload byte",
    sql: [`UPDATE entries SET payload=replace(payload,'edit','edjt') WHERE seq=4`],
  },
  { name: "hash", sql: [`UPDATE entries SET hash=substr(hash,1,63)||'x' WHERE seq=5`] },
  {
    name: "signature",
    sql: [
      `UPDATE entries SET signature=substr(signature,1,70)||(CASE substr(signature,71,1) WHEN '0' THEN '1' ELSE '0' END)||substr(signature,72) WHERE seq=7`,
    ],
  },
  { name: "delete row", sql: ["DELETE FROM entries WHERE seq=8"] },
  {
    name: "swap rows",
    sql: [
      "UPDATE entries SET seq=-1 WHERE seq=3",
      "UPDATE entries SET seq=3 WHERE seq=9",
      "UPDATE entries SET seq=9 WHERE seq=-1",
    ],
  },
  { name: "cut tail", sql: ["DELETE FROM entries WHERE seq>=11"] },
  { name: "cut tail + head file", sql: ["DELETE FROM entries WHERE seq>=11"], dropHead: true },
  { name: "time edited", sql: [`UPDATE entries SET time='2026-01-01T12:00:09.999Z' WHERE seq=10`] },
  { name: "session renamed", sql: [`UPDATE entries SET session='ses_00000000dead' WHERE seq=2`] },
];

for (const t of TAMPERS) {
  Deno.test(`reference: real and reference verifiers agree (${t.name})`, async () => {
    const { path, ledger, writer } = freshSession({ checkpointEvery: 4 });
    for (let i = 1; i <= 4; i++) action(writer, `act_00000000000${i}`);
    writer.close();
    generateSubSession(ledger, writer);
    ledger.close();
    if (t.sql) {
      const db = new DatabaseSync(path);
      db.exec("DROP TRIGGER entries_no_update; DROP TRIGGER entries_no_delete;");
      for (const s of t.sql) db.exec(s);
      db.close();
    }
    if (t.dropHead) rmSync(headFilePath(path));
    const real = verifyLedger(path);
    const ref = await referenceVerify(path);
    assert.equal(real.ok, ref.ok, `ok: real ${real.ok} vs reference ${ref.ok}`);
    assert.equal(real.firstBad?.seq ?? null, ref.firstBadSeq);
    assert.deepEqual(codes(real.problems), codes(ref.problems));
    // The parallel verifier (signatures on 2 workers, tiny batches) reports the same.
    const par = await verifyLedgerParallel(path, { workers: 2, batch: 3 });
    assert.deepEqual(
      par.problems.map((p) => p.seq),
      real.problems.map((p) => p.seq),
    );
    assert.deepEqual(par.problems, real.problems);
    assert.deepEqual({ ...par, problems: [], firstBad: null }, {
      ...real,
      problems: [],
      firstBad: null,
    });
    if (t.name === "intact") assert.equal(real.ok, true);
    else assert.equal(real.ok, false);
  });
}

Deno.test("parallel verify: unreadable input rejects with exit 2, like verifyLedger", async () => {
  const { path, ledger } = freshSession({ checkpointEvery: 0 });
  ledger.close();
  await assert.rejects(
    () => verifyLedgerParallel(path, { session: "ses_0000000000ff" }),
    (e: unknown) => e instanceof RetieError && e.exitCode === 2,
  );
  await assert.rejects(
    () => verifyLedgerParallel(`${path}.missing`),
    (e: unknown) => e instanceof RetieError && e.exitCode === 2,
  );
});
