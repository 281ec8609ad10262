/**
 * Tampering with a real ledger file (SQLite edited behind retie's back, triggers dropped) is
 * detected by verifyLedger, at the right seq.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { DatabaseSync } from "node:sqlite";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { verifyLedger, type VerifyProblem } from "../../src/ledger/verify.ts";
import { verifyLedgerParallel } from "../../src/ledger/verify_parallel.ts";
import { RetieError } from "../../src/core/errors.ts";
import { generateKeyPair, signHex } from "../../src/ledger/keys.ts";
import { entryHash } from "../../src/ledger/entry_hash.ts";
import { headFilePath, signHead } from "../../src/ledger/checkpoint.ts";
import { action, freshSession } from "./ledger_fixture.ts";

/** A closed session: genesis, 4 actions, checkpoints every 4 entries, final checkpoint. 12 entries. */
function sealedLedger(): string {
  const { path, ledger, writer } = freshSession({ checkpointEvery: 4 });
  for (let i = 1; i <= 4; i++) action(writer, `act_00000000000${i}`);
  writer.close();
  ledger.close();
  return path;
}

/** Opens the file raw, with the append-only triggers dropped, as an attacker would. */
function raw(path: string): DatabaseSync {
  const db = new DatabaseSync(path);
  db.exec("DROP TRIGGER entries_no_update; DROP TRIGGER entries_no_delete;");
  return db;
}

function flipHexChar(s: string, at = 10): string {
  return s.slice(0, at) + (s[at] === "0" ? "1" : "0") + s.slice(at + 1);
}

function firstBad(path: string): VerifyProblem {
  const r = verifyLedger(path);
  assert.equal(r.ok, false, "tampering must be detected");
  assert.ok(r.firstBad);
  return r.firstBad;
}

Deno.test("verify: an untouched ledger is valid", () => {
  const path = sealedLedger();
  const r = verifyLedger(path);
  assert.equal(r.ok, true, JSON.stringify(r.problems));
  assert.equal(r.entries, 12);
  assert.equal(r.sessions, 1);
  assert.equal(r.headSeq, 12);
  assert.equal(r.checkpointSeq, 12);
  assert.deepEqual(r.openActions, []);
});

Deno.test("verify: a flipped byte in a payload is detected at its seq", () => {
  const path = sealedLedger();
  const db = raw(path);
  const { payload } = db.prepare("SELECT payload FROM entries WHERE seq=4").get() as {
    payload: string;
  };
  db.prepare("UPDATE entries SET payload=? WHERE seq=4").run(payload.replace("edit", "edjt"));
  db.close();
  const f = firstBad(path);
  assert.equal(f.seq, 4);
  assert.equal(f.code, "hash-mismatch");
});

Deno.test("verify: a flipped stored hash is detected at its seq", () => {
  const path = sealedLedger();
  const db = raw(path);
  const { hash } = db.prepare("SELECT hash FROM entries WHERE seq=5").get() as { hash: string };
  db.prepare("UPDATE entries SET hash=? WHERE seq=5").run(flipHexChar(hash));
  db.close();
  const f = firstBad(path);
  assert.equal(f.seq, 5);
  assert.equal(f.code, "hash-mismatch");
});

Deno.test("verify: a flipped signature is detected at its seq", () => {
  const path = sealedLedger();
  const db = raw(path);
  const { signature } = db.prepare("SELECT signature FROM entries WHERE seq=7").get() as {
    signature: string;
  };
  db.prepare("UPDATE entries SET signature=? WHERE seq=7").run(flipHexChar(signature, 70));
  db.close();
  const f = firstBad(path);
  assert.equal(f.seq, 7);
  assert.equal(f.code, "signature-invalid");
});

Deno.test("verify: a deleted row is detected at the missing seq", () => {
  const path = sealedLedger();
  const db = raw(path);
  db.exec("DELETE FROM entries WHERE seq=8");
  db.close();
  const r = verifyLedger(path);
  assert.equal(r.firstBad?.seq, 8);
  assert.equal(r.firstBad!.code, "seq-missing");
  assert.ok(r.problems.some((p) => p.seq === 9 && p.code === "prev-mismatch"));
});

Deno.test("verify: two swapped rows are detected at the first of them", () => {
  const path = sealedLedger();
  const db = raw(path);
  // Swap whole rows by exchanging their seq numbers.
  db.exec("UPDATE entries SET seq=-1 WHERE seq=3");
  db.exec("UPDATE entries SET seq=3 WHERE seq=9");
  db.exec("UPDATE entries SET seq=9 WHERE seq=-1");
  db.close();
  const f = firstBad(path);
  assert.equal(f.seq, 3);
  assert.ok(["prev-mismatch", "hash-mismatch"].includes(f.code), f.code);
});

Deno.test("verify: swapped contents with each row keeping its seq are detected", () => {
  const path = sealedLedger();
  const db = raw(path);
  const cols = "time, session, kind, action_id, payload, prev, hash, signer, signature";
  const a = db.prepare(`SELECT ${cols} FROM entries WHERE seq=2`).get() as Record<string, string>;
  const b = db.prepare(`SELECT ${cols} FROM entries WHERE seq=3`).get() as Record<string, string>;
  const set = db.prepare(
    "UPDATE entries SET time=?, session=?, kind=?, action_id=?, payload=?, prev=?, hash=?, signer=?, signature=? WHERE seq=?",
  );
  const vals = (r: Record<string, string>) =>
    cols.split(", ").map((c) => r[c]) as (string | null)[];
  set.run(...vals(b), 2);
  set.run(...vals(a), 3);
  db.close();
  assert.equal(firstBad(path).seq, 2);
});

Deno.test("verify: a forged row inserted in the middle is detected at its seq", () => {
  const path = sealedLedger();
  const db = raw(path);
  const prev = (db.prepare("SELECT hash FROM entries WHERE seq=3").get() as { hash: string }).hash;
  db.exec("UPDATE entries SET seq = -seq WHERE seq >= 4");
  db.exec("UPDATE entries SET seq = 1 - seq WHERE seq < 0");
  const forger = generateKeyPair();
  const row = {
    seq: 4,
    time: "2026-01-01T12:00:03.500Z",
    session: "ses_000000000001",
    kind: "intent",
    actionId: "act_0000000000ff",
    payloadJson: '{"class":"reversible","tool":"edit"}',
    prev,
  };
  const hash = entryHash(row);
  db.prepare("INSERT INTO entries VALUES (?,?,?,?,?,?,?,?,?,?)").run(
    4,
    row.time,
    row.session,
    row.kind,
    row.actionId,
    row.payloadJson,
    prev,
    hash,
    forger.publicKey,
    signHex(forger, Buffer.from(hash, "hex")),
  );
  db.close();
  const r = verifyLedger(path);
  assert.equal(r.firstBad?.seq, 4);
  assert.equal(r.firstBad!.code, "signer-role");
  assert.ok(r.problems.some((p) => p.seq === 5 && p.code === "prev-mismatch"));
});

Deno.test("verify: a forged row appended at the end is detected at its seq", () => {
  const { path, ledger, writer } = freshSession({ checkpointEvery: 0 });
  action(writer, "act_000000000001");
  ledger.close();
  const db = raw(path);
  const h = db.prepare("SELECT seq, hash FROM entries ORDER BY seq DESC LIMIT 1").get() as {
    seq: number;
    hash: string;
  };
  const forger = generateKeyPair();
  const row = {
    seq: h.seq + 1,
    time: "2026-01-01T13:00:00.000Z",
    session: "ses_000000000001",
    kind: "outcome",
    actionId: "act_000000000001",
    payloadJson: '{"status":"ok"}',
    prev: h.hash,
  };
  const hash = entryHash(row);
  db.prepare("INSERT INTO entries VALUES (?,?,?,?,?,?,?,?,?,?)").run(
    row.seq,
    row.time,
    row.session,
    row.kind,
    row.actionId,
    row.payloadJson,
    row.prev,
    hash,
    forger.publicKey,
    signHex(forger, Buffer.from(hash, "hex")),
  );
  db.close();
  const f = firstBad(path);
  assert.equal(f.seq, h.seq + 1);
  assert.equal(f.code, "signer-role");
});

Deno.test("verify: cutting off the tail is detected through the signed head file", () => {
  const path = sealedLedger();
  const db = raw(path);
  db.exec("DELETE FROM entries WHERE seq >= 11");
  db.close();
  const f = firstBad(path);
  assert.equal(f.seq, 11);
  assert.equal(f.code, "tail-cut");
});

Deno.test("verify: cutting the tail and deleting the head file is still detected while a checkpoint remains", () => {
  const path = sealedLedger();
  const db = raw(path);
  db.exec("DELETE FROM entries WHERE seq >= 11");
  db.close();
  rmSync(headFilePath(path));
  const f = firstBad(path);
  assert.equal(f.seq, 6, "the last remaining checkpoint");
  assert.equal(f.code, "head-missing");
});

Deno.test("verify: a head file with a forged hash or signature is detected", () => {
  const path = sealedLedger();
  const hp = headFilePath(path);
  const good = readFileSync(hp, "utf8");
  const h = JSON.parse(good);
  writeFileSync(hp, JSON.stringify({ ...h, signature: flipHexChar(h.signature, 3) }));
  assert.equal(firstBad(path).code, "head-signature");
  const other = generateKeyPair();
  const fakeHash = "ab".repeat(32);
  writeFileSync(hp, JSON.stringify(signHead(other, { seq: h.seq, hash: fakeHash, time: h.time })));
  const r = verifyLedger(path);
  assert.equal(r.ok, false);
  assert.ok(r.problems.some((p) => p.code === "head-signer"));
  assert.ok(r.problems.some((p) => p.seq === 12 && p.code === "head-mismatch"));
  writeFileSync(hp, "{ not json");
  assert.equal(firstBad(path).code, "head-unreadable");
  writeFileSync(hp, good);
  assert.equal(verifyLedger(path).ok, true);
});

Deno.test("verify: a column altered to NULL or a blob is reported at its seq, not a crash", async () => {
  for (const [col, val] of [["hash", "NULL"], ["signer", "NULL"], ["payload", "X'00ff'"]]) {
    const path = sealedLedger();
    const db = raw(path);
    // Rebuild the table without its NOT NULL constraints, as an attacker could.
    db.exec(
      "CREATE TABLE e2 AS SELECT * FROM entries; DROP TABLE entries; ALTER TABLE e2 RENAME TO entries;",
    );
    db.exec(`UPDATE entries SET ${col} = ${val} WHERE seq = 5`);
    db.close();
    const f = firstBad(path);
    assert.equal(f.seq, 5, col);
    assert.equal(f.code, "column-type", col);
    // the parallel verifier (signatures on workers) reports the same, without crashing a worker
    const par = await verifyLedgerParallel(path, { workers: 2, batch: 2 });
    assert.deepEqual(par.firstBad, f, col);
  }
});

Deno.test("verify: an entries table without retie's columns is unreadable input (exit 2)", () => {
  const path = sealedLedger();
  const db = raw(path);
  db.exec("ALTER TABLE entries DROP COLUMN signature");
  db.close();
  assert.throws(
    () => verifyLedger(path),
    (e: unknown) =>
      e instanceof RetieError && e.exitCode === 2 && /entries table is not retie's/.test(e.message),
  );
});

Deno.test("verify: a genesis whose delegation lost its shape is reported at seq 1, not a crash", () => {
  for (
    const edit of [
      "json_remove(payload, '$.delegation.workspace')",
      "json_set(payload, '$.delegation.classes', 5)",
      "json_set(payload, '$.delegation.tools', json('{}'))",
    ]
  ) {
    const path = sealedLedger();
    const db = raw(path);
    db.exec(`UPDATE entries SET payload = ${edit} WHERE seq = 1`);
    db.close();
    const r = verifyLedger(path);
    assert.equal(r.ok, false, edit);
    assert.equal(r.firstBad?.seq, 1, edit);
    assert.ok(r.problems.some((p) => p.seq === 1 && p.code === "delegation-invalid"), edit);
  }
});
