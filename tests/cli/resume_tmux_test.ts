/**
 * `retie run --resume` without an id in a real terminal (tmux): a list of this workspace's
 * sessions to pick from; the picked one continues with its conversation. Skipped without tmux.
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
  name: "REPL in a terminal: --resume without an id offers a list, and the pick continues",
  ignore: tmux === null,
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
    const envVars: Record<string, string> = {
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, "config"),
      XDG_STATE_HOME: join(dir, "state"),
      XDG_CACHE_HOME: join(dir, "cache"),
    };
    const common = ["--ledger", ledger, "run", ws, "--provider", "ollama", "--model", "m"];
    const first = await runRetie(
      [...common, "--base-url", `${emu.url}/v1`, "--headless", "-p", "remember the word kiwi"],
      { env: { ...envVars, OLLAMA_API_KEY: "test-key" } },
    );
    assert.equal(first.code, 0, first.stderr);
    const id = /resume: retie run --resume (ses_[0-9a-f]{12})/.exec(first.stderr)![1];
    const name = `retie-test-${crypto.randomUUID().slice(0, 8)}`;
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
      ...common,
      "--base-url",
      `${emu.url}/v1`,
      "--resume",
    ].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
    await tm("new-session", "-d", "-s", name, "-x", "200", "-y", "60", `${cmd}; sleep 60`);
    try {
      const screen = await waitFor(name, /resume which session\?/);
      assert.match(screen, new RegExp(`${id}.*remember the word kiwi`));
      await tm("send-keys", "-t", name, "Enter");
      await waitFor(name, /^›\s*$/m);
      await tm("send-keys", "-t", name, "which word?", "Enter");
      await waitFor(name, /answer to which word\?/);
      await tm("send-keys", "-t", name, "/quit", "Enter");
      await waitFor(name, /resume: retie run --resume ses_/);
    } finally {
      await tm("kill-session", "-t", name);
      await emu.close();
    }
    assert.deepEqual(seen, [
      "remember the word kiwi",
      "answer to remember the word kiwi",
      "which word?",
    ]);
  },
});
