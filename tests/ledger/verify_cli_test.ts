/** `retie verify` as its own process, under the shipped permission flags. */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { isolatedEnv, runRetie } from "../helpers/retie_process.ts";
import { action, appendRaw, freshSession } from "./ledger_fixture.ts";

function ledgerWithOpenAction(): string {
  const { path, ledger, writer } = freshSession({ checkpointEvery: 3 });
  action(writer, "act_000000000001");
  appendRaw(
    writer,
    "intent",
    { tool: "edit", class: "reversible", effect: { writes: [] } },
    "act_000000000002",
  );
  ledger.close();
  return path;
}

Deno.test("retie verify: valid ledger → exit 0, summary and open actions", async () => {
  const path = ledgerWithOpenAction();
  const { env } = isolatedEnv();
  const r = await runRetie(["--ledger", path, "verify"], { env, local: false });
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split("\n");
  assert.match(lines[0], /^ledger OK: 5 entries, 1 sessions, head #5 [0-9a-f]{12}$/);
  assert.equal(lines[1], "started, not confirmed: act_000000000002 (seq 4, ses_000000000001)");
});

Deno.test("retie verify: tampered ledger → exit 1 naming the first bad seq; --json prints the report", async () => {
  const path = ledgerWithOpenAction();
  const db = new DatabaseSync(path);
  db.exec("DROP TRIGGER entries_no_update");
  db.exec(`UPDATE entries SET payload = replace(payload, '"ok"', '"ko"') WHERE seq = 3`);
  db.close();
  const { env } = isolatedEnv();
  const r = await runRetie(["verify", "--ledger", path], { env, local: false });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /^ledger INVALID at seq 3: hash mismatch/);
  const j = await runRetie(["verify", "--json"], { env: { ...env, RETIE_LEDGER: path } });
  assert.equal(j.code, 1);
  const report = JSON.parse(j.stdout);
  assert.equal(report.ok, false);
  assert.deepEqual(report.firstBad.seq, 3);
  assert.equal(report.path, path);
});

Deno.test("retie verify: missing file or not a ledger → exit 2 with a clear message", async () => {
  const { dir, env } = isolatedEnv();
  const missing = await runRetie(["verify", "--ledger", join(dir, "nope.db")], { env });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read the ledger \(.*nope\.db\): no such file/);
  assert.match(missing.stderr, /hint: /);
  const junk = join(dir, "junk.db");
  writeFileSync(junk, "x".repeat(4096));
  const bad = await runRetie(["verify", "--ledger", junk], { env });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /junk\.db/);
  // The default path (no ledger yet under the isolated state dir) is unreadable input too.
  const none = await runRetie(["verify"], { env });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /state\/retie\/ledger\.db\): no such file/);
});

Deno.test("retie verify --session: only that session; unknown session → exit 2", async () => {
  const path = ledgerWithOpenAction();
  const { env } = isolatedEnv();
  const ok = await runRetie(["verify", "--ledger", path, "--session", "ses_000000000001"], { env });
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /ledger OK: 5 entries, 1 sessions/);
  const unknown = await runRetie(["verify", "--ledger", path, "--session", "ses_999999999999"], {
    env,
  });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /ses_999999999999: not in the ledger/);
});

Deno.test("retie verify --user-key: a key that is not 64 hex is bad input (exit 2)", async () => {
  const path = ledgerWithOpenAction();
  const { env } = isolatedEnv();
  const r = await runRetie(["verify", "--ledger", path, "--user-key", "zz"], { env });
  assert.equal(r.code, 2, r.stdout);
  assert.match(r.stderr, /not a user public key \(--user-key zz\): expected 64 hex digits/);
  assert.equal(r.stdout, "");
});
