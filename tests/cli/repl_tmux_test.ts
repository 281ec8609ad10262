/**
 * The REPL as a person uses it: retie runs in a real terminal (tmux), keys are typed with
 * send-keys and the screen is read with capture-pane. Skipped, with the reason, without tmux.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { denoDir, retieFlags, ROOT } from "../helpers/retie_process.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { verifyLedger } from "../../src/ledger/verify.ts";

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
  name:
    "REPL in a terminal: approval by consequence with explain, refusal told to the model, /ledger, Ctrl-D",
  ignore: tmux === null,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = Deno.makeTempDirSync({ prefix: "retie-repl-" });
    const ws = join(dir, "ws");
    Deno.mkdirSync(join(ws, "build"), { recursive: true });
    Deno.writeTextFileSync(join(ws, "build", "out.bin"), "artefact\n");
    const ledger = join(dir, "ledger.db");
    const emu = startOllamaEmulator({
      script: [
        {
          reasoning: "the user wants the build gone",
          text: "I will remove the build directory.",
          toolCalls: [{
            name: "bash",
            arguments: JSON.stringify({ command: "rm -rf build", sandbox: false }),
          }],
        },
        { text: "All done, nothing was removed." },
        { text: "too late", delayMs: 4000 },
        { text: "still here after the cancel" },
      ],
    });
    const name = `retie-test-${crypto.randomUUID().slice(0, 8)}`;
    const env = [
      "PATH=/usr/bin:/bin",
      `HOME=${dir}`,
      `XDG_CONFIG_HOME=${join(dir, "config")}`,
      `XDG_STATE_HOME=${join(dir, "state")}`,
      `XDG_CACHE_HOME=${join(dir, "cache")}`,
      `DENO_DIR=${denoDir()}`,
      "TERM=xterm-256color",
      "OLLAMA_API_KEY=test-key",
    ];
    const cmd = [
      "env",
      "-i",
      ...env,
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
    await tm("new-session", "-d", "-s", name, "-x", "160", "-y", "50", `${cmd}; sleep 60`);
    try {
      await waitFor(name, /^›\s*$/m);
      await tm("send-keys", "-t", name, "please clean the build", "Enter");
      let screen = await waitFor(name, /Allow it\?/);
      assert.match(screen, /not reversible: runs `rm -rf build` without the sandbox/);
      // Reasoning is collapsed to a labelled line; the answer follows.
      assert.match(
        screen,
        /thinking · 1 line \(\/thinking shows it\)\nI will remove the build directory\./,
      );
      assert.doesNotMatch(screen, /the user wants the build gone/);
      await tm("send-keys", "-t", name, "Down", "Down", "Enter");
      screen = await waitFor(name, /retie asks because the policy rule "[^"]+" matched/);
      await waitFor(name, /retie asks because[\s\S]*Allow it\?/);
      await tm("send-keys", "-t", name, "Down", "Enter");
      screen = await waitFor(name, /All done, nothing was removed\./);
      assert.match(screen, /refused\s+bash\s+run shell command: rm -rf build/);
      assert.ok(
        Deno.statSync(join(ws, "build", "out.bin")).isFile,
        "the refused command must not run",
      );
      await tm("send-keys", "-t", name, "/ledger 3", "Enter");
      await waitFor(name, /#\d+ \d\d:\d\d:\d\d refusal/);
      // Ctrl-C cancels the running turn, not the session.
      await tm("send-keys", "-t", name, "take your time", "Enter");
      await new Promise((r) => setTimeout(r, 800));
      await tm("send-keys", "-t", name, "C-c");
      screen = await waitFor(name, /cancelled the current turn/);
      assert.doesNotMatch(screen, /too late/);
      await tm("send-keys", "-t", name, "are you there?", "Enter");
      await waitFor(name, /still here after the cancel/);
      await tm("send-keys", "-t", name, "C-d");
      await waitFor(name, /closed with a checkpoint/);
    } finally {
      await tm("kill-session", "-t", name);
      await emu.close();
    }
    const report = verifyLedger(ledger);
    assert.ok(report.ok, JSON.stringify(report.firstBad));
    // The refusal reached the model as a tool result that says why.
    const second = emu.requests.filter((r) => r.path === "/v1/chat/completions")[1].body;
    const tool = second.messages.find((m: { role: string }) => m.role === "tool");
    assert.match(tool.content, /declined/);
  },
});
