/**
 * `retie run --headless` endings other than success: the exit code is honest (1) and what stopped
 * the run is said once, with the replay pointer.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { emulatorFlags, isolatedEnv, runRetie } from "../helpers/retie_process.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";

Deno.test("headless: a run that hits its step budget exits 1 and says so once", async () => {
  const iso = isolatedEnv();
  const ws = Deno.makeTempDirSync({ prefix: "retie-headless-" });
  Deno.writeTextFileSync(join(ws, "a.txt"), "hello\n");
  const emu = startOllamaEmulator({
    script: [{ toolCalls: [{ name: "read", arguments: JSON.stringify({ path: "a.txt" }) }] }],
  });
  try {
    const r = await runRetie([
      "--ledger",
      join(iso.dir, "ledger.db"),
      "run",
      ws,
      "--headless",
      "-p",
      "read a.txt",
      ...emulatorFlags(emu.url),
      "--max-steps",
      "1",
    ], { env: { ...iso.env, OPENAI_API_KEY: "test-key" } });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /ok\s+read\s+read a\.txt/);
    const said = r.stderr.match(/reached its step budget \(1 model calls\)/g) ?? [];
    assert.equal(said.length, 1, r.stderr);
    // The closing line: counts, tokens, the cost (no known price for model "m"), duration, and a
    // replay hint that works as printed.
    const hint =
      /session (ses_[0-9a-f]{12}) · 1 action · 0 files changed · \d+ tokens in, \d+ out · cost unknown · \d+s · replay: retie (--ledger \S+ replay ses_[0-9a-f]{12})/
        .exec(r.stderr);
    assert.ok(hint, r.stderr);
    const replay = await runRetie(hint[2].split(" "), { env: iso.env });
    assert.equal(replay.code, 0, replay.stderr);
    assert.match(replay.stdout, /read a\.txt/);
  } finally {
    await emu.close();
  }
});
