/**
 * `retie run --resume` without an id in a real terminal (tmux): a list of this workspace's
 * sessions to pick from; the picked one continues with its conversation. Skipped without tmux.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { homeEnv, runRetie } from "../helpers/retie_process.ts";
import { tmuxPath, TmuxRetie } from "../helpers/tmux.ts";

Deno.test({
  name: "REPL in a terminal: --resume without an id offers a list, and the pick continues",
  ignore: tmuxPath === null,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = Deno.makeTempDirSync({ prefix: "retie-resume-tmux-" });
    const ws = join(dir, "ws");
    Deno.mkdirSync(ws, { recursive: true });
    const ledger = join(dir, "ledger.db");
    let seen: string[] = [];
    const emu = startOllamaEmulator({
      script: (b) => {
        // deno-lint-ignore no-explicit-any
        seen = b.messages.filter((m: any) => m.role !== "system").map((m: any) => m.content);
        return { text: `answer to ${seen.at(-1)}` };
      },
    });
    const common = ["--ledger", ledger, "run", ws, "--provider", "ollama", "--model", "m"];
    const first = await runRetie(
      [...common, "--base-url", `${emu.url}/v1`, "--headless", "-p", "remember the word kiwi"],
      { env: { ...homeEnv(dir), OLLAMA_API_KEY: "test-key" } },
    );
    assert.equal(first.code, 0, first.stderr);
    const id = /resume: retie run --resume (ses_[0-9a-f]{12})/.exec(first.stderr)![1];
    // The same home, workspace, ledger and model server, now in a terminal.
    const t = await TmuxRetie.start({
      home: dir,
      emulator: emu,
      width: 200,
      height: 60,
      args: ["--resume"],
    });
    try {
      const screen = await t.waitFor(/resume which session\?/);
      assert.match(screen, new RegExp(`${id}.*remember the word kiwi`));
      await t.keys("Enter");
      await t.waitFor(/^›\s*$/m);
      await t.keys("which word?", "Enter");
      await t.waitFor(/answer to which word\?/);
      await t.keys("/quit", "Enter");
      await t.waitFor(/resume: retie run --resume ses_/);
    } finally {
      await t.close();
    }
    assert.deepEqual(seen, [
      "remember the word kiwi",
      "answer to remember the word kiwi",
      "which word?",
    ]);
  },
});
