/**
 * `retie run --headless` end to end for the evidence features: it refuses to append to a ledger
 * that fails verification (with the hint), and with `otlp` in config.json (or `--otlp`) it exports
 * the finished session to a real OTLP receiver; the replay then shows the model's answer.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { emulatorFlags, isolatedEnv, runRetie } from "../helpers/retie_process.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { startOtlpReceiver } from "../helpers/otlp_receiver.ts";

function run(ledger: string, ws: string, url: string, extra: string[] = []) {
  return [
    "--ledger",
    ledger,
    "run",
    ws,
    "--headless",
    "-p",
    "read a.txt",
    ...emulatorFlags(url),
    ...extra,
  ];
}

Deno.test("retie run exports its session at the end (config.json otlp), then refuses a tampered ledger", async () => {
  const iso = isolatedEnv();
  const ws = Deno.makeTempDirSync({ prefix: "retie-run-ev-" });
  Deno.writeTextFileSync(join(ws, "a.txt"), "hello\n");
  const rx = startOtlpReceiver();
  Deno.mkdirSync(join(iso.env.XDG_CONFIG_HOME, "retie"), { recursive: true });
  Deno.writeTextFileSync(
    join(iso.env.XDG_CONFIG_HOME, "retie", "config.json"),
    JSON.stringify({ otlp: { endpoint: rx.url, headers: { "x-team": "a" } } }),
  );
  const emu = startOllamaEmulator({
    script: [
      { toolCalls: [{ name: "read", arguments: JSON.stringify({ path: "a.txt" }) }] },
      { text: "a.txt says hello" },
    ],
  });
  const ledger = join(iso.dir, "ledger.db");
  const env = { ...iso.env, OPENAI_API_KEY: "test-key" };
  try {
    const r = await runRetie(run(ledger, ws, emu.url), { env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stderr, /exported ses_[0-9a-f]{12} as \d+ spans to http:\/\/127\.0\.0\.1/);
    const names = rx.spans.map((s) => s.name).sort();
    assert.deepEqual(names, ["chat m", "execute_tool read", "invoke_agent retie", "turn 1"]);
    const replay = await runRetie(["--ledger", ledger, "replay"], { env });
    assert.match(replay.stdout, /answer\s+\(m\) a\.txt says hello/);

    // Break the chain: the next run appends nothing and says what to do.
    const db = new DatabaseSync(ledger);
    for (
      const t of db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all() as {
        name: string;
      }[]
    ) db.exec(`DROP TRIGGER "${t.name}"`);
    db.exec(
      "UPDATE entries SET payload = replace(payload, 'a.txt', 'b.txt') WHERE kind = 'intent'",
    );
    const count = () => (db.prepare("SELECT COUNT(*) AS n FROM entries").get() as { n: number }).n;
    const before = count();
    const again = await runRetie(run(ledger, ws, emu.url, ["--otlp", rx.url]), { env });
    assert.equal(again.code, 1, again.stderr);
    assert.match(again.stderr, /fails verification \(seq \d+: .+\); nothing was appended/);
    assert.match(again.stderr, /retie verify/);
    assert.match(again.stderr, /--ledger NEW\.db/);
    assert.equal(count(), before);
    db.close();
  } finally {
    await emu.close();
    await rx.close();
  }
});

Deno.test("a bad otlp setting in config.json is an error before anything runs", async () => {
  const iso = isolatedEnv();
  const ws = Deno.makeTempDirSync({ prefix: "retie-run-ev-" });
  Deno.mkdirSync(join(iso.env.XDG_CONFIG_HOME, "retie"), { recursive: true });
  const cfg = join(iso.env.XDG_CONFIG_HOME, "retie", "config.json");
  Deno.writeTextFileSync(cfg, JSON.stringify({ otlp: "ftp://nope" }));
  const ledger = join(iso.dir, "ledger.db");
  const r = await runRetie(run(ledger, ws, "http://127.0.0.1:9"), {
    env: { ...iso.env, OPENAI_API_KEY: "k" },
  });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /config\.json: otlp/);
  assert.throws(() => Deno.statSync(ledger), "no ledger was created");
});
