/**
 * End to end, headless, as users run it: retie in its own process under the shipped permission
 * flags (loopback variant), a real model wire (the emulators speak Ollama's /v1 and Anthropic's
 * SSE), real bubblewrap, a real ledger verified by another process.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { isolatedEnv, runRetie } from "../helpers/retie_process.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { startAnthropicEmulator } from "../emulators/anthropic_emulator.ts";
import { openLedger } from "../../src/ledger/ledger.ts";

const OBJECTIVE = "The add function subtracts. Fix it and prove it works.";

function project(): string {
  const dir = Deno.makeTempDirSync({ prefix: "retie-e2e-" });
  Deno.writeTextFileSync(join(dir, "calc.py"), "def add(a, b):\n    return a - b\n");
  Deno.writeTextFileSync(
    join(dir, "test_calc.py"),
    'from calc import add\nassert add(2, 3) == 5, "add is wrong"\nprint("tests passed")\n',
  );
  return Deno.realPathSync(dir);
}

const STEPS = [
  { name: "read", input: { path: "calc.py" } },
  { name: "edit", input: { path: "calc.py", old_text: "return a - b", new_text: "return a + b" } },
  { name: "bash", input: { command: "python3 test_calc.py" } },
];

async function checkLedger(ledgerPath: string, env: Record<string, string>) {
  const verify = await runRetie(["verify", "--ledger", ledgerPath], { env });
  assert.equal(verify.code, 0, verify.stdout + verify.stderr);
  const ledger = openLedger(ledgerPath);
  try {
    const entries = ledger.entries();
    const intents = entries.filter((e) => e.kind === "intent");
    assert.deepEqual(intents.map((e) => e.payload.tool), ["read", "edit", "bash"]);
    for (const intent of intents) {
      const outcome = entries.find((e) => e.kind === "outcome" && e.actionId === intent.actionId);
      assert.ok(outcome, `no outcome for ${intent.actionId}`);
      assert.ok(intent.seq < outcome.seq, "intent must come before its outcome");
      assert.equal(outcome.payload.status, "ok", JSON.stringify(outcome.payload));
    }
    const genesis = entries.find((e) => e.kind === "genesis")!;
    assert.equal(genesis.payload.objective, OBJECTIVE);
    const bash = intents[2];
    assert.equal(bash.payload.class, "reversible");
  } finally {
    ledger.close();
  }
}

Deno.test({
  name: "e2e ollama: the scripted model reads, edits, tests in the sandbox; ledger verifies",
  sanitizeResources: false,
  fn: async () => {
    const ws = project();
    const iso = isolatedEnv();
    const ledgerPath = join(iso.dir, "ledger.db");
    const emu = startOllamaEmulator({
      script: [
        ...STEPS.map((s) => ({
          toolCalls: [{ name: s.name, arguments: JSON.stringify(s.input) }],
        })),
        { text: "Fixed: add now adds; tests passed." },
      ],
    });
    try {
      const r = await runRetie([
        "--ledger",
        ledgerPath,
        "run",
        ws,
        "--headless",
        "-p",
        OBJECTIVE,
        "--provider",
        "ollama",
        "--model",
        "gpt-oss:20b",
        "--base-url",
        `${emu.url}/v1`,
      ], { env: { ...iso.env, OLLAMA_API_KEY: "test-key" } });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(Deno.readTextFileSync(join(ws, "calc.py")), /return a \+ b/);
      const chats = emu.requests.filter((q) => q.path === "/v1/chat/completions");
      assert.equal(chats.length, 4);
      assert.deepEqual(chats[0].body.stream_options, { include_usage: true });
      const last = chats[3].body.messages;
      const toolMsgs = last.filter((m: { role: string }) => m.role === "tool");
      assert.equal(toolMsgs.length, 3);
      assert.match(toolMsgs[2].content, /tests passed/);
      await checkLedger(ledgerPath, iso.env);
    } finally {
      await emu.close();
    }
  },
});

Deno.test({
  name: "e2e anthropic: the same session over the Messages API",
  sanitizeResources: false,
  fn: async () => {
    const ws = project();
    const iso = isolatedEnv();
    const ledgerPath = join(iso.dir, "ledger.db");
    const emu = startAnthropicEmulator({
      script: [
        ...STEPS.map((s) => ({ toolCalls: [{ name: s.name, input: s.input }] })),
        { text: "Fixed: add now adds; tests passed." },
      ],
    });
    try {
      const r = await runRetie([
        "--ledger",
        ledgerPath,
        "run",
        ws,
        "--headless",
        "-p",
        OBJECTIVE,
        "--provider",
        "anthropic",
        "--model",
        "claude-sonnet-4-5",
        "--base-url",
        emu.url,
      ], { env: { ...iso.env, ANTHROPIC_API_KEY: "test-key" } });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(Deno.readTextFileSync(join(ws, "calc.py")), /return a \+ b/);
      const calls = emu.requests.filter((q) => q.path === "/v1/messages");
      assert.equal(calls.length, 4);
      await checkLedger(ledgerPath, iso.env);
    } finally {
      await emu.close();
    }
  },
});
