import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { openLedger } from "../../src/ledger/ledger.ts";
import { headFilePath, headSignatureOk, readHeadFile } from "../../src/ledger/checkpoint.ts";
import { entryHash, ZERO_HASH } from "../../src/ledger/entry_hash.ts";
import { verifyHex } from "../../src/ledger/keys.ts";
import { verifyLedger } from "../../src/ledger/verify.ts";
import { RetieError } from "../../src/core/errors.ts";
import { action, appendRaw, freshSession, tempLedgerPath } from "./ledger_fixture.ts";
import { Buffer } from "node:buffer";

Deno.test("ledger: creates dirs 0700, WAL, and a chain of signed entries", () => {
  const { path, ledger, writer, user, agent } = freshSession({ checkpointEvery: 0 });
  assert.equal(statSync(dirname(path)).mode & 0o777, 0o700);
  action(writer, "act_000000000001");
  const all = ledger.entries();
  assert.deepEqual(all.map((e) => e.kind), ["genesis", "intent", "outcome"]);
  assert.deepEqual(all.map((e) => e.seq), [1, 2, 3]);
  assert.equal(all[0].prev, ZERO_HASH);
  for (let i = 0; i < all.length; i++) {
    const e = all[i];
    if (i > 0) assert.equal(e.prev, all[i - 1].hash);
    assert.equal(e.hash, entryHash(e));
    assert.equal(verifyHex(e.signer, Buffer.from(e.hash, "hex"), e.signature), true);
  }
  assert.equal(all[0].signer, user.publicKey, "genesis is signed by the user key");
  assert.equal(all[1].signer, agent.publicKey, "actions are signed by the agent key");
  const g = all[0].payload;
  assert.equal(g.objective, "fix the failing test in calc.py");
  assert.equal(g.userPublicKey, user.publicKey);
  assert.equal((g.delegation as { agent: string }).agent, agent.publicKey);
  const db = new DatabaseSync(path, { readOnly: true });
  assert.deepEqual({ ...db.prepare("PRAGMA journal_mode").get() }, { journal_mode: "wal" });
  db.close();
  ledger.close();
});

Deno.test("ledger: entries() filters, sessions() summarises, head() is the last entry", () => {
  const { ledger, writer } = freshSession({ checkpointEvery: 0 });
  action(writer, "act_000000000001");
  action(writer, "act_000000000002");
  assert.equal(ledger.entries({ actionId: "act_000000000002" }).length, 2);
  assert.deepEqual(ledger.entries({ kinds: ["intent"] }).map((e) => e.seq), [2, 4]);
  assert.deepEqual(ledger.entries({ afterSeq: 3, limit: 1 }).map((e) => e.seq), [4]);
  assert.equal(ledger.entries({ session: "ses_ffffffffffff" }).length, 0);
  const [s] = ledger.sessions();
  assert.equal(s.id, "ses_000000000001");
  assert.equal(s.entries, 5);
  assert.equal(s.lastSeq, 5);
  assert.equal(s.objective, "fix the failing test in calc.py");
  assert.equal(ledger.head().seq, 5);
  assert.equal(ledger.head().hash, ledger.entries({ afterSeq: 4 })[0].hash);
  ledger.close();
});

Deno.test("ledger: periodic and final checkpoints are signed by the user key and kept in the head file", () => {
  const { path, ledger, writer, user } = freshSession({ checkpointEvery: 4 });
  action(writer, "act_000000000001");
  action(writer, "act_000000000002");
  let cps = ledger.entries({ kinds: ["checkpoint"] });
  assert.equal(cps.length, 1);
  assert.equal(cps[0].seq, 6);
  assert.equal(cps[0].signer, user.publicKey);
  assert.deepEqual(cps[0].payload, { seq: 5, hash: cps[0].prev, final: false });
  assert.equal(readHeadFile(path)?.seq, 6);
  writer.close();
  cps = ledger.entries({ kinds: ["checkpoint"] });
  assert.equal(cps.at(-1)?.payload.final, true);
  const head = readHeadFile(path)!;
  assert.equal(head.seq, 7);
  assert.equal(head.hash, cps.at(-1)?.hash);
  assert.equal(head.signer, user.publicKey);
  assert.throws(() => appendRaw(writer, "finding", {}), /closed/);
  assert.equal(verifyLedger(path).ok, true);
  ledger.close();
});

Deno.test("ledger: refuses what it cannot record, and nothing partial is written", () => {
  const { ledger, writer } = freshSession({ checkpointEvery: 0 });
  assert.throws(
    () => appendRaw(writer, "intent", { x: () => 1 } as never, "act_000000000001"),
    RetieError,
  );
  assert.throws(() => appendRaw(writer, "intent", { n: NaN }, "act_000000000001"), /finite/);
  assert.throws(() => appendRaw(writer, "genesis", {}), /directly/);
  assert.throws(() => appendRaw(writer, "checkpoint", {}), /directly/);
  assert.equal(ledger.entries().length, 1);
  assert.throws(
    () => freshSession({ path: ledger.path, sessionId: "ses_000000000001" }),
    /already in use/,
  );
  assert.throws(() => freshSession({ sessionId: "session-1" }), /ses_ \+ 12 hex/);
  ledger.close();
});

Deno.test("ledger: rows cannot be updated or deleted through SQLite without dropping the guards", () => {
  const { path, ledger, writer } = freshSession({ checkpointEvery: 0 });
  action(writer, "act_000000000001");
  ledger.close();
  const db = new DatabaseSync(path);
  assert.throws(() => db.exec("UPDATE entries SET payload='{}' WHERE seq=2"), /append-only/);
  assert.throws(() => db.exec("DELETE FROM entries WHERE seq=3"), /append-only/);
  db.close();
});

Deno.test("ledger: a file that is not a retie ledger is refused with exit code 2", () => {
  const dir = Deno.makeTempDirSync();
  const text = join(dir, "notes.txt");
  writeFileSync(text, "hello, this is not sqlite at all ".repeat(50));
  assert.throws(() => openLedger(text), (e: unknown) => {
    assert.ok(e instanceof RetieError);
    assert.equal(e.exitCode, 2);
    assert.match(e.message, /notes\.txt/);
    return true;
  });
  const other = join(dir, "other.db");
  const db = new DatabaseSync(other);
  db.exec("CREATE TABLE t(x)");
  db.close();
  assert.throws(() => openLedger(other), /not a retie ledger/);
});

Deno.test("ledger: two writer processes at once keep one unforked chain", async () => {
  const path = tempLedgerPath();
  openLedger(path).close();
  const child = fileURLToPath(new URL("./ledger_child_writer.ts", import.meta.url));
  const spawn = (ses: string) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", child, path, "append", ses, "60"],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  const children = [spawn("ses_00000000000a"), spawn("ses_00000000000b")];
  const readers = children.map((c) => c.stdout.pipeThrough(new TextDecoderStream()).getReader());
  const readLine = async (r: ReadableStreamDefaultReader<string>) => {
    let out = "";
    while (!out.includes("\n")) {
      const { value, done } = await r.read();
      if (done) break;
      out += value;
    }
    return out.trim();
  };
  assert.deepEqual(await Promise.all(readers.map(readLine)), ["ready", "ready"]);
  for (const c of children) {
    const w = c.stdin.getWriter();
    await w.write(new TextEncoder().encode("go\n"));
    await w.close();
  }
  assert.deepEqual(await Promise.all(readers.map(readLine)), ["done", "done"]);
  for (const c of children) {
    const st = await c.status;
    assert.equal(st.code, 0);
    await c.stderr.cancel();
  }
  for (const r of readers) r.releaseLock();
  const ledger = openLedger(path);
  const all = ledger.entries();
  // 1 genesis + 120 action entries + 12 periodic checkpoints + 1 final checkpoint per session.
  assert.equal(all.length, 2 * (1 + 120 + 12 + 1));
  all.forEach((e, i) => {
    assert.equal(e.seq, i + 1);
    if (i > 0) assert.equal(e.prev, all[i - 1].hash);
  });
  const sessionsSeen = new Set(all.map((e) => e.session));
  assert.equal(sessionsSeen.size, 2);
  const switches = all.filter((e, i) => i > 0 && e.session !== all[i - 1].session).length;
  assert.ok(switches > 2, `the two writers interleaved (${switches} switches)`);
  ledger.close();
  const report = verifyLedger(path);
  assert.equal(report.ok, true, JSON.stringify(report.firstBad));
  assert.equal(report.checkpointSeq, all.at(-1)?.seq, "the head file names the last checkpoint");
});

Deno.test("ledger: a periodic checkpoint that fails does not make a committed append look lost", () => {
  const { path, ledger, writer } = freshSession({ checkpointEvery: 2 });
  // The head file cannot be written: its temp file's name is taken by a directory.
  const blocker = `${headFilePath(path)}.${Deno.pid}.tmp`;
  Deno.mkdirSync(blocker);
  const a = appendRaw(writer, "finding", { n: 1 });
  const b = appendRaw(writer, "finding", { n: 2 }); // due for a checkpoint, which fails to publish
  assert.equal(b.seq, a.seq + 1);
  assert.deepEqual(
    ledger.entries({ session: writer.sessionId }).slice(1, 3).map((e) => e.payload),
    [{ n: 1 }, { n: 2 }],
  );
  assert.equal(readHeadFile(path), null);
  // retried on the next append once the head file can be written again
  Deno.removeSync(blocker);
  appendRaw(writer, "finding", { n: 3 });
  const head = readHeadFile(path)!;
  assert.equal(head.seq, ledger.head().seq);
  writer.close();
  assert.equal(verifyLedger(path).ok, true);
  ledger.close();
});

Deno.test("ledger: a payload nested deeper than the limit is refused with a clear error, nothing written", () => {
  const { ledger, writer } = freshSession({ checkpointEvery: 0 });
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.throws(
    () => appendRaw(writer, "finding", { type: "note", message: "x", deep }),
    /cannot record a finding entry: the payload is nested more than 100 levels deep/,
  );
  let ok: unknown = 1;
  for (let i = 0; i < 98; i++) ok = [ok];
  appendRaw(writer, "finding", { type: "note", message: "x", deep: ok }); // 100 levels: fine
  assert.equal(ledger.entries().length, 2);
  ledger.close();
});

Deno.test("ledger: a clock stepped back never makes entry times decrease", () => {
  let t = Date.parse("2026-01-01T12:00:10.000Z");
  const { path, ledger, writer } = freshSession({ checkpointEvery: 0, clock: () => new Date(t) });
  action(writer, "act_000000000001");
  t -= 5_000;
  action(writer, "act_000000000002");
  const times = ledger.entries().map((e) => e.time);
  assert.deepEqual(times, [...times].sort());
  assert.equal(times.at(-1), "2026-01-01T12:00:10.000Z");
  ledger.close();
  assert.equal(verifyLedger(path).ok, true);
});

Deno.test("ledger: the head file is its own signed statement, not a copy of the checkpoint's signature", () => {
  const { path, ledger, writer, user } = freshSession({ checkpointEvery: 0 });
  writer.close();
  const cp = ledger.entries({ kinds: ["checkpoint"] })[0];
  ledger.close();
  const head = readHeadFile(path)!;
  assert.equal(head.format, "retie-ledger-head/v2");
  assert.deepEqual([head.seq, head.hash, head.time, head.signer], [
    cp.seq,
    cp.hash,
    cp.time,
    user.publicKey,
  ]);
  assert.notEqual(head.signature, cp.signature);
  assert.equal(headSignatureOk(head), true);
  // The checkpoint entry's signature does not verify as a head statement.
  assert.equal(headSignatureOk({ ...head, signature: cp.signature }), false);
  assert.equal(verifyHex(head.signer, Buffer.from(cp.hash, "hex"), cp.signature), true);
});
