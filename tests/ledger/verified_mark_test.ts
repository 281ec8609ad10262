/**
 * The verified mark lets start-up skip signatures it checked before. It must never let a ledger
 * through that the full check refuses: every tampering of the corpus is run against a mark taken
 * on the intact ledger (at its end, and in its middle).
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { copyFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { verifyLedger } from "../../src/ledger/verify.ts";
import {
  type ChainPosition,
  readVerifiedMark,
  signaturesDigest,
  verifiedMarkPath,
  writeVerifiedMark,
} from "../../src/ledger/verified_mark.ts";
import { refuseInvalidLedger } from "../../src/agent/session_support.ts";
import { baseLedger, TAMPERS } from "./tamper_corpus.ts";
import { agentKey, userKey } from "./ledger_fixture.ts";

function hashAt(path: string, seq: number): string {
  const db = new DatabaseSync(path, { readOnly: true });
  const r = db.prepare("SELECT hash FROM entries WHERE seq = ?").get(seq) as { hash: string };
  db.close();
  return r.hash;
}

function positionAt(path: string, seq: number): ChainPosition {
  return { seq, hash: hashAt(path, seq), signatures: signaturesDigest(path, seq) };
}

function refused(path: string): string | null {
  try {
    refuseInvalidLedger(path, userKey());
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

for (const markSeq of [16, 8]) {
  for (const t of TAMPERS.filter((t) => !t.expectHead)) {
    Deno.test(`verified mark at #${markSeq}: ${t.name} is refused exactly when the full check refuses`, () => {
      const path = baseLedger();
      writeVerifiedMark(path, positionAt(path, markSeq), userKey());
      t.apply?.(path);
      const full = verifyLedger(path);
      const why = refused(path);
      if (full.ok) assert.equal(why, null, `refused a ledger the full check accepts: ${why}`);
      else {
        assert.ok(
          why !== null,
          `accepted a ledger the full check refuses (${full.firstBad?.code})`,
        );
        // The report shown is the full check's.
        assert.ok(why.includes(full.firstBad!.code), why);
      }
    });
  }
}

Deno.test("verified mark: start-up writes it at the ledger's end, only with the user key", () => {
  const path = baseLedger();
  assert.equal(readVerifiedMark(path, userKey().publicKey), null);
  refuseInvalidLedger(path, userKey());
  assert.deepEqual(readVerifiedMark(path, userKey().publicKey), positionAt(path, 16));
  // Without a user key nothing is written or read (the full check runs).
  Deno.removeSync(verifiedMarkPath(path));
  refuseInvalidLedger(path);
  assert.throws(() => Deno.statSync(verifiedMarkPath(path)));
});

Deno.test("verified mark: a forged, foreign or misplaced mark is not used", () => {
  const path = baseLedger();
  const at = positionAt(path, 16);
  writeVerifiedMark(path, at, userKey());
  const file = JSON.parse(Deno.readTextFileSync(verifiedMarkPath(path)));
  // Another key's mark.
  assert.equal(readVerifiedMark(path, agentKey().publicKey), null);
  // A mark whose position was moved without the key.
  Deno.writeTextFileSync(verifiedMarkPath(path), JSON.stringify({ ...file, seq: 12 }));
  assert.equal(readVerifiedMark(path, userKey().publicKey), null);
  // Signed for another ledger file, then copied beside this one.
  const other = join(dirname(path), "other.db");
  copyFileSync(path, other);
  writeVerifiedMark(other, at, userKey());
  copyFileSync(verifiedMarkPath(other), verifiedMarkPath(path));
  assert.equal(readVerifiedMark(path, userKey().publicKey), null);
  // Not JSON, or not an object.
  for (const junk of ["{", "[]", "null", '{"version":2}']) {
    Deno.writeTextFileSync(verifiedMarkPath(path), junk);
    assert.equal(readVerifiedMark(path, userKey().publicKey), null, junk);
  }
});

Deno.test("verified mark: a ledger cut below its mark is checked in full and refused", () => {
  const path = baseLedger();
  refuseInvalidLedger(path, userKey());
  const db = new DatabaseSync(path);
  db.exec("DROP TRIGGER IF EXISTS entries_no_delete; DELETE FROM entries WHERE seq > 10;");
  db.close();
  const why = refused(path);
  assert.ok(why !== null);
  assert.match(why, /tail-cut|head-/);
});
