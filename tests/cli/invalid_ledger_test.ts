/**
 * A ledger that fails verification is not extended or acted on: `run` (session start) refuses to
 * append with a hint, `undo` refuses to restore anything, `export` sends nothing; the file is left
 * exactly as it was.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { startSession } from "../../src/agent/session.ts";
import { RetieError } from "../../src/core/errors.ts";
import { createScriptedProvider } from "../../src/providers/scripted.ts";
import { runRetie } from "../helpers/retie_process.ts";
import { recordSampleSession } from "../helpers/sample_session.ts";
import { startOtlpReceiver } from "../helpers/otlp_receiver.ts";

const sample = await recordSampleSession();

/** A copy of the sample ledger with one recorded path changed behind the chain's back. */
function tampered(): string {
  const copy = join(Deno.makeTempDirSync(), "tampered.db");
  Deno.copyFileSync(sample.ledgerPath, copy);
  const db = new DatabaseSync(copy);
  for (
    const t of db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all() as {
      name: string;
    }[]
  ) db.exec(`DROP TRIGGER "${t.name}"`);
  db.exec(
    "UPDATE entries SET payload = replace(payload, 'calc.py', 'calx.py') WHERE seq = (SELECT MIN(seq) FROM entries WHERE kind = 'intent')",
  );
  db.close();
  return copy;
}

const rows = (path: string) => {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM entries").get() as { n: number }).n;
  } finally {
    db.close();
  }
};

Deno.test("a session does not start on a ledger that fails verification, and says what to do", async () => {
  const path = tampered();
  const before = rows(path);
  await assert.rejects(
    () =>
      startSession({
        workspace: sample.workspace,
        ledgerPath: path,
        objective: "anything",
        provider: createScriptedProvider([{ text: "x" }], "m"),
        providerName: "scripted",
        mode: "default",
        headless: true,
        yes: false,
        sandbox: { available: false, unavailableReason: "test", network: false },
        approve: () => Promise.resolve(false),
        configDir: join(sample.env.XDG_CONFIG_HOME, "retie"),
      }),
    (e: unknown) => {
      assert.ok(e instanceof RetieError);
      assert.match(e.message, /fails verification \(seq \d+: .+\); nothing was appended/);
      assert.match(e.hint ?? "", /retie verify/);
      assert.match(e.hint ?? "", /--ledger NEW/);
      return true;
    },
  );
  assert.equal(rows(path), before, "nothing was appended");
});

Deno.test("a session still starts on a ledger that verifies (the refusal is not blanket)", async () => {
  const copy = join(Deno.makeTempDirSync(), "good.db");
  Deno.copyFileSync(sample.ledgerPath, copy);
  Deno.copyFileSync(`${sample.ledgerPath}.head.json`, `${copy}.head.json`);
  const s = await startSession({
    workspace: sample.workspace,
    ledgerPath: copy,
    objective: "again",
    provider: createScriptedProvider([{ text: "x" }], "m"),
    providerName: "scripted",
    mode: "default",
    headless: true,
    yes: false,
    sandbox: { available: false, unavailableReason: "test", network: false },
    approve: () => Promise.resolve(false),
    configDir: join(sample.env.XDG_CONFIG_HOME, "retie"),
  });
  s.close();
});

Deno.test("retie undo refuses to act on a ledger that fails verification", async () => {
  const path = tampered();
  const before = rows(path);
  const db = new DatabaseSync(path, { readOnly: true });
  const act = (db.prepare(
    "SELECT action_id AS a FROM entries WHERE kind = 'intent' ORDER BY seq DESC LIMIT 1",
  ).get() as { a: string }).a;
  db.close();
  const calc = Deno.readTextFileSync(join(sample.workspace, "calc.py"));
  for (const args of [[act], ["--all"]]) {
    const r = await runRetie(["--ledger", path, "undo", ...args], { env: sample.env });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /fails verification .*nothing was undone/);
    assert.match(r.stderr, /retie verify/);
  }
  assert.equal(rows(path), before);
  assert.equal(Deno.readTextFileSync(join(sample.workspace, "calc.py")), calc);
});

Deno.test("retie export sends nothing from a ledger that fails verification", async () => {
  const rx = startOtlpReceiver();
  try {
    const r = await runRetie(["--ledger", tampered(), "export", "--otlp", rx.url], {
      env: sample.env,
    });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /fails verification .*nothing was sent/);
    assert.equal(rx.requests.length, 0);
  } finally {
    await rx.close();
  }
});
