/**
 * `retie run --headless` on the ladder (no `--model`), as users run it, against the Ollama
 * emulator: the ladder's start, escalation and stop land in the ledger, usage is recorded for the
 * session, `retie replay` shows which model was left and taken and why, and the exit code is
 * honest (0 when the objective was answered, 1 at a weekly cap).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { isolatedEnv, runRetie } from "../helpers/retie_process.ts";
import { OLLAMA_ERRORS, startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { openLedger } from "../../src/ledger/ledger.ts";
import { chatModels, KEY, MODELS, removeAtUnload } from "./helpers.ts";

function setup() {
  const iso = isolatedEnv();
  removeAtUnload(iso.dir);
  const ws = join(iso.dir, "ws");
  Deno.mkdirSync(ws);
  Deno.writeTextFileSync(join(ws, "notes.txt"), "remember the milk\n");
  return { iso, ws, ledger: join(iso.dir, "ledger.db") };
}

function runArgs(ledger: string, ws: string, url: string): string[] {
  return [
    "--ledger",
    ledger,
    "run",
    ws,
    "--headless",
    "-p",
    "what do the notes say?",
    "--base-url",
    `${url}/v1`,
  ];
}

Deno.test("retie run on the ladder: a session limit escalates, recorded, replayed, usage kept, exit 0", async () => {
  const { iso, ws, ledger } = setup();
  const emu = startOllamaEmulator({
    models: MODELS,
    script: [
      { error: OLLAMA_ERRORS.session429 },
      {
        toolCalls: [{ name: "read", arguments: JSON.stringify({ path: "notes.txt" }) }],
        usage: { prompt: 100, completion: 10 },
      },
      { text: "They say: remember the milk.", usage: { prompt: 120, completion: 8 } },
    ],
  });
  try {
    const env = { ...iso.env, OLLAMA_API_KEY: KEY };
    const r = await runRetie(runArgs(ledger, ws, emu.url), { env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /remember the milk\./);
    assert.match(r.stderr, /model escalate: gpt-oss:20b → nemotron-3-nano:30b: session_limit/);
    assert.deepEqual(chatModels(emu), [
      "gpt-oss:20b",
      "nemotron-3-nano:30b",
      "nemotron-3-nano:30b",
    ]);

    const l = openLedger(ledger);
    let session = "";
    try {
      const events = l.entries({ kinds: ["event"] }).filter((e) => e.payload.type === "model");
      session = events[0].session;
      assert.deepEqual(events.map((e) => e.payload.event), ["start", "escalate"]);
      assert.equal(events[0].payload.model, "gpt-oss:20b");
      assert.equal(events[1].payload.reason, "session_limit");
      assert.equal(events[1].payload.to, "nemotron-3-nano:30b");
      const genesis = l.entries({ session, kinds: ["genesis"] })[0];
      assert.ok(genesis.seq < events[0].seq, "genesis comes first, the ladder's start after it");
    } finally {
      l.close();
    }

    const replay = await runRetie(["--ledger", ledger, "replay", session], { env });
    assert.equal(replay.code, 0, replay.stderr);
    assert.match(replay.stdout, /event\s+model\s+start gpt-oss:20b: cheapest usable model/);
    assert.match(
      replay.stdout,
      /event\s+model\s+escalate gpt-oss:20b → nemotron-3-nano:30b: session_limit/,
    );
    assert.match(replay.stdout, /ok\s+read\s+read notes\.txt/);

    const usage = await runRetie(["usage", "--json", "--base-url", `${emu.url}/v1`], { env });
    assert.equal(usage.code, 0, usage.stderr);
    const mine = JSON.parse(usage.stdout).usage.bySession.find((s: { key: string }) =>
      s.key === session
    );
    // Two answered calls on a tier-1 model: (100 + 10 + 120 + 8) × 1.
    assert.deepEqual([mine.calls, mine.units], [2, 238]);
  } finally {
    await emu.close();
  }
});

Deno.test("retie run on the ladder: a weekly cap stops after one request, recorded, exit 1", async () => {
  const { iso, ws, ledger } = setup();
  const emu = startOllamaEmulator({ models: MODELS, script: [{ error: OLLAMA_ERRORS.weekly429 }] });
  try {
    const r = await runRetie(runArgs(ledger, ws, emu.url), {
      env: { ...iso.env, OLLAMA_API_KEY: KEY },
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /weekly usage limit/);
    assert.equal(chatModels(emu).length, 1);
    const l = openLedger(ledger);
    try {
      const events = l.entries({ kinds: ["event"] }).map((e) => e.payload);
      const stop = events.find((p) => p.type === "model" && p.event === "stop");
      assert.ok(stop, JSON.stringify(events));
      assert.equal(stop.reason, "weekly_limit");
      const end = events.find((p) => p.type === "turn-end");
      assert.equal(end?.status, "error");
    } finally {
      l.close();
    }
  } finally {
    await emu.close();
  }
});
