/**
 * The tamper corpus end to end: each tampered ledger checked by `retie verify --json` in its own
 * process, under the shipped permission flags. The exit code and the first problem's code are
 * what a CI job sees.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { isolatedEnv, runRetie } from "../helpers/retie_process.ts";
import { baseLedger, raw, TAMPERS } from "./tamper_corpus.ts";

function pinOf(path: string, seq: number): string {
  const db = new DatabaseSync(path, { readOnly: true });
  const r = db.prepare("SELECT hash FROM entries WHERE seq = ?").get(seq) as { hash: string };
  db.close();
  return `${seq}:${r.hash}`;
}

Deno.test("retie verify (own process) reports every tampering of the corpus by its code", async () => {
  const { env } = isolatedEnv();
  for (const t of TAMPERS) {
    const path = baseLedger();
    const pin = t.expectHead
      ? (t.expectHead.hash
        ? `${t.expectHead.seq}:${t.expectHead.hash}`
        : pinOf(path, t.expectHead.seq))
      : undefined;
    t.apply?.(path);
    const args = ["verify", "--ledger", path, "--json", ...(pin ? ["--expect-head", pin] : [])];
    const r = await runRetie(args, { env, local: false });
    assert.equal(r.code, t.code === null ? 0 : 1, `${t.name}: ${r.stdout}${r.stderr}`);
    const report = JSON.parse(r.stdout);
    assert.equal(report.firstBad?.code ?? null, t.code, t.name);
    assert.match(report.head, /^\d+:[0-9a-f]{64}$/, t.name);
  }
});

Deno.test("retie verify: the head it prints pins the ledger; a cut back to before it fails", async () => {
  const { env } = isolatedEnv();
  const path = baseLedger();
  const ok = await runRetie(["verify", "--ledger", path], { env, local: false });
  assert.equal(ok.code, 0, ok.stderr);
  const head = /^head: (\d+:[0-9a-f]{64})$/m.exec(ok.stdout)?.[1];
  assert.ok(head, ok.stdout);
  const pinned = await runRetie(["verify", "--ledger", path, "--expect-head", head], { env });
  assert.equal(pinned.code, 0, pinned.stdout);
  const db = raw(path);
  db.exec("DELETE FROM entries WHERE seq >= 14");
  db.close();
  const cut = await runRetie(["verify", "--ledger", path, "--expect-head", head], { env });
  assert.equal(cut.code, 1);
  assert.match(cut.stdout, /^ledger INVALID at seq 14: .* \[expected-head-missing\]$/m);
});

Deno.test("retie verify: a malformed --expect-head or a ledger without its meta row is exit 2", async () => {
  const { env } = isolatedEnv();
  const path = baseLedger();
  const bad = await runRetie(["verify", "--ledger", path, "--expect-head", "12"], { env });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /not a ledger head \(--expect-head 12\): expected SEQ:HASH/);
  const db = raw(path);
  db.exec("DELETE FROM meta");
  db.close();
  const noMeta = await runRetie(["verify", "--ledger", path], { env });
  assert.equal(noMeta.code, 2);
  assert.match(noMeta.stderr, /format is missing, expected retie-ledger\/v1/);
});
