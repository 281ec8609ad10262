/**
 * "Don't ask again" in a real terminal (tmux): the person picks it at the approval prompt, the
 * same command later runs without a prompt, a different one is asked, and `retie policy` lists the
 * rule. Skipped without tmux.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { homeEnv, runRetie } from "../helpers/retie_process.ts";
import { tmuxPath, TmuxRetie } from "../helpers/tmux.ts";

Deno.test({
  name: "REPL in a terminal: a remembered approval stops the second prompt; retie policy lists it",
  ignore: tmuxPath === null,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const bash = (command: string) => ({
      toolCalls: [{ name: "bash", arguments: JSON.stringify({ command, sandbox: false }) }],
    });
    const t = await TmuxRetie.start({
      script: [
        bash("touch made-1"),
        { text: "first done" },
        bash("touch made-1"),
        { text: "second done" },
        bash("touch other"),
        { text: "third done" },
      ],
      width: 200,
      height: 60,
    });
    const ws = t.ws;
    try {
      await t.waitFor(/^›\s*$/m);
      await t.keys("make the file", "Enter");
      let screen = await t.waitFor(/Allow it\?/);
      assert.match(screen, /yes, and don't ask again for bash `touch made-1` in this project/);
      await t.keys("a");
      await t.waitFor(/first done/);
      await t.keys("make it again", "Enter");
      screen = await t.waitFor(/second done/);
      // One prompt so far; the second call was answered by the remembered rule, and said so.
      assert.equal((screen.match(/^Allow it\?/gm) ?? []).length, 1, screen);
      assert.match(screen, /approved: you said not to ask again for bash `touch made-1`/);
      await t.keys("make another", "Enter");
      screen = await t.waitFor(/touch other[\s\S]*Allow it\?/);
      // Another command is asked about again: the rule covers exactly the one approved.
      await t.keys("n");
      await t.waitFor(/third done/);
      await t.keys("/quit", "Enter");
      await t.waitFor(/closed with a checkpoint/);
    } finally {
      await t.close();
    }
    assert.ok(Deno.statSync(join(ws, "made-1")).isFile);
    assert.throws(() => Deno.statSync(join(ws, "other")));
    const policy = await runRetie(["policy", "--workspace", ws], { env: homeEnv(t.dir) });
    assert.equal(policy.code, 0, policy.stderr);
    assert.match(policy.stdout, /allow bash matching "touch made-1"/);
  },
});
