/**
 * A model sends tool arguments nested thousands of levels deep (2,500 and 100,000), through
 * `retie run --headless` against the Ollama emulator. Each call is refused before the guard, the
 * refusal is recorded (a digest and a preview instead of the arguments), the session ends with
 * its head printed, and `retie verify` (another process) finds the ledger valid and still holding
 * that head.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { emulatorFlags, isolatedEnv, runRetie } from "../helpers/retie_process.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { openLedger } from "../../src/ledger/ledger.ts";
import { readRefusal } from "../../src/ledger/entries_read.ts";

function deepArgs(depth: number): string {
  return `{"path":"a.txt","content":${"[".repeat(depth)}${"]".repeat(depth)}}`;
}

Deno.test("deep tool arguments: refused, recorded as a digest, and the ledger verifies", async () => {
  const iso = isolatedEnv();
  const ws = Deno.makeTempDirSync({ prefix: "retie-deep-" });
  Deno.writeTextFileSync(join(ws, "a.txt"), "hello\n");
  const ledgerPath = join(iso.dir, "ledger.db");
  const emu = startOllamaEmulator({
    script: [
      { toolCalls: [{ name: "write", arguments: deepArgs(2_500) }] },
      { toolCalls: [{ name: "read", arguments: deepArgs(100_000) }] },
      { text: "I could not send those arguments." },
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
      "write a.txt",
      ...emulatorFlags(emu.url),
    ], { env: { ...iso.env, OPENAI_API_KEY: "test-key" } });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(Deno.readTextFileSync(join(ws, "a.txt")), "hello\n");
    const pin = /ledger head (\d+:[0-9a-f]{64})/.exec(r.stderr)?.[1];
    assert.ok(pin, r.stderr);

    const ledger = openLedger(ledgerPath);
    const refusals = ledger.entries({ kinds: ["refusal"] }).map((e) => readRefusal(e.payload));
    const head = ledger.head();
    ledger.close();
    assert.equal(pin, `${head.seq}:${head.hash}`);
    assert.equal(refusals.length, 2);
    for (const [i, depth] of [2_502, 100_002].entries()) {
      const f = refusals[i];
      assert.ok(f.ok);
      assert.equal(f.value.stage, "invalid-arguments");
      assert.match(
        f.value.reason,
        new RegExp(`nested ${depth - 1} levels deep \\(the limit is 64\\)`),
      );
      assert.equal(f.value.args, null);
      assert.match(f.value.argsOmitted?.sha256 ?? "", /^[0-9a-f]{64}$/);
      assert.equal(f.value.argsOmitted?.preview.length, 2000);
    }

    const v = await runRetie(["verify", "--ledger", ledgerPath, "--expect-head", pin], {
      env: iso.env,
      local: false,
    });
    assert.equal(v.code, 0, v.stdout + v.stderr);
    assert.match(v.stdout, /^ledger OK: /);
    const replay = await runRetie(["--ledger", ledgerPath, "replay"], { env: iso.env });
    assert.equal(replay.code, 0, replay.stderr);
    assert.match(replay.stdout, /refused/);
  } finally {
    await emu.close();
  }
});
