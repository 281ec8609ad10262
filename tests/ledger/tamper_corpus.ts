/**
 * The tamper corpus: one base ledger (a closed session with actions and checkpoints, a note with
 * non-ASCII text, and an open child session) and many ways of altering it, each with the problem
 * code verify must report first.
 *
 * Two kinds of attacker: one who edits the file without any key (`sql`, `head` edits), and an
 * insider who holds the keys and re-signs everything after an edit (`rewrite`), so the ledger's
 * signatures and links stay valid and only the spec's semantic checks can catch it.
 */
import { Buffer } from "node:buffer";
import { DatabaseSync } from "node:sqlite";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { canonicalJson } from "../../src/core/canonical_json.ts";
import { entryHash } from "../../src/ledger/entry_hash.ts";
import { type KeyPair, keyPairFromSeedHex, signHex } from "../../src/ledger/keys.ts";
import { delegationHash } from "../../src/ledger/delegation.ts";
import { headFilePath, signHead } from "../../src/ledger/checkpoint.ts";
import { action, appendRaw, freshSession, generateSubSession } from "./ledger_fixture.ts";

/** The keys of the fixture: user, agent, sub-agent (any signer the insider may re-sign as). */
const KEYS: KeyPair[] = ["01", "02", "03"].map((b) => keyPairFromSeedHex(b.repeat(32)));
const keyOf = (pub: string) => KEYS.find((k) => k.publicKey === pub);

/** A row as stored, payload as text. */
export interface Row {
  seq: number;
  time: string;
  session: string;
  kind: string;
  action_id: string | null;
  payload: string;
  prev: string;
  hash: string;
  signer: string;
  signature: string;
}

/**
 * The base ledger, 16 entries: #1 genesis, #2–#3 action 1, #4 a note ("héllo \uFFFD"), #5 intent
 * of action 2, #6 checkpoint, #7 its outcome, #8–#9 action 3, #10 intent of action 4, #11
 * checkpoint, #12 its outcome, #13 final checkpoint (the head file names it), #14 child genesis
 * (parentSession #1's), #15–#16 its action (the child session is left open).
 */
export function baseLedger(): string {
  const { path, ledger, writer } = freshSession({ checkpointEvery: 4 });
  action(writer, "act_000000000001");
  appendRaw(writer, "finding", { type: "note", message: "héllo \uFFFD ✓" });
  for (let i = 2; i <= 4; i++) action(writer, `act_00000000000${i}`);
  writer.close();
  generateSubSession(ledger, writer);
  ledger.close();
  return path;
}

/** Opens the file raw, with the append-only triggers dropped, as an attacker would. */
export function raw(path: string): DatabaseSync {
  const db = new DatabaseSync(path);
  db.exec("DROP TRIGGER IF EXISTS entries_no_update; DROP TRIGGER IF EXISTS entries_no_delete;");
  return db;
}

function sql(...statements: string[]): (path: string) => void {
  return (path) => {
    const db = raw(path);
    for (const s of statements) db.exec(s);
    db.close();
  };
}

/**
 * The insider: edits the rows, then re-links, re-hashes and re-signs every row with the key of
 * its signer, keeps checkpoints naming the entry before them, and re-signs the head file.
 */
export function rewrite(edit: (rows: Row[]) => void): (path: string) => void {
  return (path) => {
    const db = raw(path);
    const rows = db.prepare("SELECT * FROM entries ORDER BY seq").all() as unknown as Row[];
    edit(rows);
    let prev = "0".repeat(64);
    for (const r of rows) {
      r.prev = prev;
      if (r.kind === "checkpoint") {
        try {
          const p = JSON.parse(r.payload);
          if (p.seq === r.seq - 1 && typeof p.hash === "string") {
            r.payload = canonicalJson({ ...p, hash: prev });
          }
        } catch { /* a broken checkpoint stays broken */ }
      }
      r.hash = entryHash({
        seq: r.seq,
        time: r.time,
        session: r.session,
        kind: r.kind,
        actionId: r.action_id,
        payloadJson: r.payload,
        prev: r.prev,
      });
      const key = keyOf(r.signer);
      if (key) r.signature = signHex(key, Buffer.from(r.hash, "hex"));
      prev = r.hash;
    }
    db.exec("DELETE FROM entries");
    const ins = db.prepare("INSERT INTO entries VALUES (?,?,?,?,?,?,?,?,?,?)");
    for (const r of rows) {
      ins.run(
        r.seq,
        r.time,
        r.session,
        r.kind,
        r.action_id,
        r.payload,
        r.prev,
        r.hash,
        r.signer,
        r.signature,
      );
    }
    db.close();
    try {
      const h = JSON.parse(readFileSync(headFilePath(path), "utf8"));
      const row = rows.find((r) => r.seq === h.seq);
      if (row) writeFileSync(headFilePath(path), JSON.stringify(signHead(KEYS[0], row)));
    } catch { /* no head file */ }
  };
}

/** Edits one row's payload object (by seq). */
function payloadAt(
  seq: number,
  edit: (p: Record<string, unknown>) => unknown,
): (rows: Row[]) => void {
  return (rows) => {
    const r = rows.find((x) => x.seq === seq)!;
    const p = JSON.parse(r.payload);
    const out = edit(p);
    r.payload = typeof out === "string" ? out : canonicalJson(out ?? p);
  };
}

/** Edits the delegation of the genesis at `seq` and re-signs it with its issuer's key. */
function delegationAt(
  seq: number,
  edit: (d: Record<string, unknown>) => void,
): (rows: Row[]) => void {
  return payloadAt(seq, (p) => {
    const d = p.delegation as Record<string, unknown>;
    edit(d);
    const { signature: _s, ...body } = d;
    const hash = delegationHash(body as never);
    d.signature = signHex(keyOf(d.issuer as string)!, Buffer.from(hash, "hex"));
    return p;
  });
}

function nested(depth: number): string {
  return `{"deep":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
}

/** Writes a head file. */
function headFile(
  edit: (h: Record<string, unknown>, path: string) => unknown,
): (path: string) => void {
  return (path) => {
    const h = JSON.parse(readFileSync(headFilePath(path), "utf8"));
    const out = edit(h, path);
    writeFileSync(headFilePath(path), JSON.stringify(out ?? h));
  };
}

/** The genesis row of the base ledger. */
function genesisRow(path: string): Row {
  const db = new DatabaseSync(path, { readOnly: true });
  const r = db.prepare("SELECT * FROM entries WHERE seq = 1").get() as unknown as Row;
  db.close();
  return r;
}

/** One tampering: what is done, and the code verify must report first. */
export interface Tamper {
  name: string;
  apply?: (path: string) => void;
  /** A head pinned before the tampering: the entry's seq, and its hash in the intact ledger
   * (or the hash given). */
  expectHead?: { seq: number; hash?: string };
  /** The first problem's code (null: the ledger must verify). */
  code: string | null;
}

const IDENTITY = "01" + "00".repeat(31);
/** y = p + 1: a non-canonical encoding of the identity point. */
const IDENTITY_NON_CANONICAL = "ee" + "ff".repeat(30) + "7f";

function forgedRow(signer: string, signature: string): (path: string) => void {
  return (path) => {
    const db = raw(path);
    const h = db.prepare("SELECT seq, hash FROM entries ORDER BY seq DESC LIMIT 1").get() as {
      seq: number;
      hash: string;
    };
    const row = {
      seq: h.seq + 1,
      time: "2026-01-01T13:00:00.000Z",
      session: "ses_0000000000c1",
      kind: "finding",
      actionId: null,
      payloadJson: '{"message":"forged","type":"note"}',
      prev: h.hash,
    };
    db.prepare("INSERT INTO entries VALUES (?,?,?,?,?,?,?,?,?,?)").run(
      row.seq,
      row.time,
      row.session,
      row.kind,
      null,
      row.payloadJson,
      row.prev,
      entryHash(row),
      signer,
      signature,
    );
    db.close();
  };
}

export const TAMPERS: Tamper[] = [
  { name: "intact", code: null },
  { name: "intact, expected head pinned", expectHead: { seq: 16 }, code: null },
  // Without any key.
  {
    name: "payload byte",
    apply: sql(`UPDATE entries SET payload=replace(payload,'edit','edjt') WHERE seq=5`),
    code: "hash-mismatch",
  },
  {
    name: "stored hash",
    apply: sql(
      `UPDATE entries SET hash=substr(hash,1,63)||'0' WHERE seq=6 AND substr(hash,64,1)<>'0'`,
      `UPDATE entries SET hash=substr(hash,1,63)||'1' WHERE seq=6 AND substr(hash,64,1)='0'`,
    ),
    code: "hash-mismatch",
  },
  {
    name: "signature",
    apply: sql(
      `UPDATE entries SET signature=substr(signature,1,70)||(CASE substr(signature,71,1) WHEN '0' THEN '1' ELSE '0' END)||substr(signature,72) WHERE seq=8`,
    ),
    code: "signature-invalid",
  },
  { name: "delete row", apply: sql("DELETE FROM entries WHERE seq=9"), code: "seq-missing" },
  {
    name: "swap rows",
    apply: sql(
      "UPDATE entries SET seq=-1 WHERE seq=3",
      "UPDATE entries SET seq=3 WHERE seq=10",
      "UPDATE entries SET seq=10 WHERE seq=-1",
    ),
    code: "prev-mismatch",
  },
  { name: "cut tail", apply: sql("DELETE FROM entries WHERE seq>=12"), code: "tail-cut" },
  {
    name: "cut tail + head file",
    apply: (p) => (sql("DELETE FROM entries WHERE seq>=12")(p), rmSync(headFilePath(p))),
    code: "head-missing",
  },
  {
    name: "time edited",
    apply: sql(`UPDATE entries SET time='2026-01-01T12:00:09.999Z' WHERE seq=11`),
    code: "hash-mismatch",
  },
  {
    name: "session renamed",
    apply: sql(`UPDATE entries SET session='ses_00000000dead' WHERE seq=2`),
    code: "hash-mismatch",
  },
  {
    name: "U+FFFD replaced by an invalid byte",
    apply: sql(
      `UPDATE entries SET payload=CAST(replace(CAST(payload AS BLOB), X'EFBFBD', X'FF') AS TEXT) WHERE seq=4`,
    ),
    code: "column-encoding",
  },
  {
    name: "invalid UTF-8 in the session column",
    apply: sql(
      `UPDATE entries SET session=CAST(X'7365735F3030303030303030303030FF' AS TEXT) WHERE seq=4`,
    ),
    code: "session-format",
  },
  {
    name: "payload stored as a blob",
    apply: sql(`UPDATE entries SET payload=CAST(payload AS BLOB) WHERE seq=4`),
    code: "column-type",
  },
  {
    name: "kind renamed",
    apply: sql(`UPDATE entries SET kind='bogus' WHERE seq=4`),
    code: "kind-unknown",
  },
  {
    name: "time without milliseconds",
    apply: sql(`UPDATE entries SET time='2026-01-01T12:00:03Z' WHERE seq=4`),
    code: "time-format",
  },
  {
    name: "action id malformed",
    apply: sql(`UPDATE entries SET action_id='act_XYZ' WHERE seq=2`),
    code: "action-id-format",
  },
  {
    name: "identity key with an all-zero signature",
    apply: forgedRow(IDENTITY, "00".repeat(64)),
    code: "signature-invalid",
  },
  {
    name: "non-canonical identity key, zero signature",
    apply: forgedRow(IDENTITY_NON_CANONICAL, "00".repeat(64)),
    code: "signature-invalid",
  },
  // The head file.
  {
    name: "head minted from the genesis row, tail cut back to it",
    apply: (p) => {
      const g = genesisRow(p);
      sql("DELETE FROM entries WHERE seq > 1")(p);
      writeFileSync(
        headFilePath(p),
        JSON.stringify({
          format: "retie-ledger-head/v2",
          seq: 1,
          hash: g.hash,
          time: g.time,
          signer: g.signer,
          signature: g.signature,
        }),
      );
    },
    code: "head-signature",
  },
  {
    name: "old-format head minted from the genesis row, tail cut back to it",
    apply: (p) => {
      const g = genesisRow(p);
      sql("DELETE FROM entries WHERE seq > 1")(p);
      writeFileSync(
        headFilePath(p),
        JSON.stringify({
          format: "retie-ledger-head/v1",
          seq: 1,
          hash: g.hash,
          signer: g.signer,
          signature: g.signature,
          time: g.time,
        }),
      );
    },
    code: "head-format",
  },
  {
    name: "head time edited",
    apply: headFile((h) => ({ ...h, time: "2026-01-01T12:00:59.000Z" })),
    code: "head-signature",
  },
  {
    name: "head with an extra member",
    apply: headFile((h) => ({ ...h, note: "x" })),
    code: "head-format",
  },
  {
    name: "head signed by the user key over a non-checkpoint",
    apply: headFile((_h, p) => signHead(KEYS[0], genesisRow(p))),
    code: "head-mismatch",
  },
  {
    name: "expected head with another hash",
    expectHead: { seq: 16, hash: "ab".repeat(32) },
    code: "expected-head-mismatch",
  },
  {
    name: "tail cut to before the expected head, head file replaced by an older genuine copy",
    expectHead: { seq: 16 },
    apply: (p) => {
      sql("DELETE FROM entries WHERE seq >= 12")(p);
      const db = new DatabaseSync(p, { readOnly: true });
      const r = db.prepare("SELECT * FROM entries WHERE seq = 11").get() as unknown as Row;
      db.close();
      writeFileSync(headFilePath(p), JSON.stringify(signHead(KEYS[0], r)));
    },
    code: "expected-head-missing",
  },
  {
    name:
      "head file replaced by an older genuine copy, expected head pinned at the final checkpoint",
    expectHead: { seq: 13 },
    apply: (p) => {
      const db = new DatabaseSync(p, { readOnly: true });
      const r = db.prepare("SELECT * FROM entries WHERE seq = 11").get() as unknown as Row;
      db.close();
      writeFileSync(headFilePath(p), JSON.stringify(signHead(KEYS[0], r)));
    },
    code: "head-behind-expected",
  },
  // The insider, re-signing everything.
  {
    name: "time goes back",
    apply: rewrite((rows) => void (rows[4].time = "2026-01-01T11:00:00.000Z")),
    code: "time-order",
  },
  {
    name: "intent class null",
    apply: rewrite(payloadAt(2, (p) => void (p.class = null))),
    code: "intent-malformed",
  },
  {
    name: "intent writes not a list",
    apply: rewrite(
      payloadAt(2, (p) => void ((p.effect as Record<string, unknown>).writes = "/etc/passwd")),
    ),
    code: "intent-malformed",
  },
  {
    name: "intent without tool",
    apply: rewrite(payloadAt(2, (p) => void delete p.tool)),
    code: "intent-malformed",
  },
  {
    name: "intent writes outside the workspace",
    apply: rewrite(
      payloadAt(
        2,
        (p) => void ((p.effect as Record<string, unknown>).writes = ["/work/proj/../etc/passwd"]),
      ),
    ),
    code: "intent-out-of-scope",
  },
  {
    name: "action id reused",
    apply: rewrite((rows) => {
      rows[4].action_id = "act_000000000001";
      rows[6].action_id = "act_000000000001";
    }),
    code: "action-id-reused",
  },
  {
    name: "second outcome",
    apply: rewrite((rows) => void (rows[6].action_id = "act_000000000001")),
    code: "outcome-duplicate",
  },
  {
    name: "outcome status unknown",
    apply: rewrite(payloadAt(3, (p) => void (p.status = "fine"))),
    code: "outcome-malformed",
  },
  {
    name: "checkpoint final not a boolean",
    apply: rewrite(payloadAt(6, (p) => void (p.final = "no"))),
    code: "checkpoint-malformed",
  },
  {
    name: "checkpoint with an extra member",
    apply: rewrite(payloadAt(6, (p) => void (p.note = 1))),
    code: "checkpoint-malformed",
  },
  {
    name: "delegation time without milliseconds",
    apply: rewrite(delegationAt(1, (d) => void (d.notBefore = "2026-01-01T00:00:00Z"))),
    code: "delegation-invalid",
  },
  {
    name: "delegation workspace not normalised",
    apply: rewrite(delegationAt(1, (d) => void (d.workspace = "/work/x/../proj"))),
    code: "delegation-invalid",
  },
  {
    name: "delegation classes not sorted",
    apply: rewrite(delegationAt(1, (d) => void (d.classes = ["reversible", "none"]))),
    code: "delegation-invalid",
  },
  {
    name: "delegation with an extra member",
    apply: rewrite(delegationAt(1, (d) => void (d.note = "x"))),
    code: "delegation-invalid",
  },
  {
    name: "child names an unknown parent session",
    apply: rewrite(payloadAt(14, (p) => void (p.parentSession = "ses_00000000beef"))),
    code: "parent-session",
  },
  {
    name: "child with a parent delegation but no parent session",
    apply: rewrite(payloadAt(14, (p) => void (p.parentSession = null))),
    code: "delegation-invalid",
  },
  {
    name: "genesis without user key",
    apply: rewrite(payloadAt(1, (p) => void delete p.userPublicKey)),
    code: "genesis-malformed",
  },
  {
    name: "payload nested 2,300 levels",
    apply: rewrite(payloadAt(4, () => nested(2300))),
    code: "payload-too-deep",
  },
  {
    name: "payload nested 100,000 levels",
    apply: rewrite(payloadAt(4, () => nested(100_000))),
    code: "payload-too-deep",
  },
  {
    name: "payload not canonical",
    apply: rewrite(payloadAt(4, () => '{"type": "note", "message": "x"}')),
    code: "payload-not-canonical",
  },
  {
    name: "payload with a duplicate member",
    apply: rewrite(payloadAt(4, () => '{"message":"x","type":"a","type":"note"}')),
    code: "payload-not-canonical",
  },
  {
    name: "payload an array",
    apply: rewrite(payloadAt(4, () => "[1,2]")),
    code: "payload-not-object",
  },
  {
    name: "payload with a byte-order mark",
    apply: rewrite(payloadAt(4, (p) => "\uFEFF" + canonicalJson(p))),
    code: "payload-not-object",
  },
  {
    name: "action id on a finding",
    apply: rewrite((rows) => void (rows[3].action_id = "act_00000000000f")),
    code: "action-id-kind",
  },
  {
    name: "entry after the final checkpoint",
    apply: rewrite((rows) => {
      rows[13].session = "ses_000000000001";
      rows[13].kind = "finding";
      rows[13].signer = KEYS[1].publicKey;
    }),
    code: "after-final-checkpoint",
  },
  {
    name: "undo of an unknown action",
    apply: rewrite((rows) => {
      Object.assign(rows[15], {
        kind: "undo",
        action_id: "act_0000000000ee",
        payload: canonicalJson({
          target: "act_0000000000ee",
          status: "undone",
          reason: "x",
          restored: [],
        }),
      });
    }),
    code: "undo-without-intent",
  },
];
