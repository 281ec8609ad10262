/**
 * "Don't ask again" in a real terminal (tmux): the person picks it at the approval prompt, the
 * same command later runs without a prompt, a different one is asked, and `retie policy` lists the
 * rule. Skipped without tmux.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { denoDir, retieFlags, ROOT } from "../helpers/retie_process.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { runRetie } from "../helpers/retie_process.ts";

const tmux = (() => {
  for (const p of ["/usr/bin/tmux", "/bin/tmux"]) {
    try {
      if (Deno.statSync(p).isFile) return p;
    } catch { /* next */ }
  }
  return null;
})();

async function tm(...args: string[]): Promise<string> {
  const out = await new Deno.Command(tmux!, { args, stdout: "piped", stderr: "piped" }).output();
  return new TextDecoder().decode(out.stdout);
}

async function waitFor(session: string, pattern: RegExp, ms = 30_000): Promise<string> {
  const until = Date.now() + ms;
  let screen = "";
  while (Date.now() < until) {
    screen = await tm("capture-pane", "-p", "-t", session, "-S", "-200");
    if (pattern.test(screen)) return screen;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`timed out waiting for ${pattern} on screen:\n${screen}`);
}

Deno.test({
  name: "REPL in a terminal: a remembered approval stops the second prompt; retie policy lists it",
  ignore: tmux === null,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = Deno.makeTempDirSync({ prefix: "retie-remember-tmux-" });
    const ws = join(dir, "ws");
    Deno.mkdirSync(ws, { recursive: true });
    const ledger = join(dir, "ledger.db");
    const bash = (command: string) => ({
      toolCalls: [{ name: "bash", arguments: JSON.stringify({ command, sandbox: false }) }],
    });
    const emu = startOllamaEmulator({
      script: [
        bash("touch made-1"),
        { text: "first done" },
        bash("touch made-1"),
        { text: "second done" },
        bash("touch other"),
        { text: "third done" },
      ],
    });
    const name = `retie-test-${crypto.randomUUID().slice(0, 8)}`;
    const envVars: Record<string, string> = {
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, "config"),
      XDG_STATE_HOME: join(dir, "state"),
      XDG_CACHE_HOME: join(dir, "cache"),
    };
    const cmd = [
      "env",
      "-i",
      "PATH=/usr/bin:/bin",
      ...Object.entries(envVars).map(([k, v]) => `${k}=${v}`),
      `DENO_DIR=${denoDir()}`,
      "TERM=xterm-256color",
      "OLLAMA_API_KEY=test-key",
      Deno.execPath(),
      "run",
      ...retieFlags(true),
      join(ROOT, "main.ts"),
      "--ledger",
      ledger,
      "run",
      ws,
      "--provider",
      "ollama",
      "--model",
      "m",
      "--base-url",
      `${emu.url}/v1`,
    ].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
    await tm("new-session", "-d", "-s", name, "-x", "200", "-y", "60", `${cmd}; sleep 60`);
    try {
      await waitFor(name, /^›\s*$/m);
      await tm("send-keys", "-t", name, "make the file", "Enter");
      let screen = await waitFor(name, /Allow it\?/);
      assert.match(screen, /yes, and don't ask again for bash `touch made-1` in this project/);
      await tm("send-keys", "-t", name, "a");
      await waitFor(name, /first done/);
      await tm("send-keys", "-t", name, "make it again", "Enter");
      screen = await waitFor(name, /second done/);
      // One prompt so far; the second call was answered by the remembered rule, and said so.
      assert.equal((screen.match(/^Allow it\?/gm) ?? []).length, 1, screen);
      assert.match(screen, /approved: you said not to ask again for bash `touch made-1`/);
      await tm("send-keys", "-t", name, "make another", "Enter");
      screen = await waitFor(name, /touch other[\s\S]*Allow it\?/);
      // Another command is asked about again: the rule covers exactly the one approved.
      await tm("send-keys", "-t", name, "n");
      await waitFor(name, /third done/);
      await tm("send-keys", "-t", name, "/quit", "Enter");
      await waitFor(name, /closed with a checkpoint/);
    } finally {
      await tm("kill-session", "-t", name);
      await emu.close();
    }
    assert.ok(Deno.statSync(join(ws, "made-1")).isFile);
    assert.throws(() => Deno.statSync(join(ws, "other")));
    const policy = await runRetie(["policy", "--workspace", ws], { env: envVars });
    assert.equal(policy.code, 0, policy.stderr);
    assert.match(policy.stdout, /allow bash matching "touch made-1"/);
  },
});
