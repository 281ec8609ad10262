// deno-lint-ignore-file no-control-regex
/**
 * Untrusted text never reaches the terminal raw, end to end: a scripted model puts the hostile
 * corpus in its reasoning, its answer, a tool's name, a command (and so its action line), a
 * command's output, a file name and a file's content (and so a diff), and a service error; retie
 * runs headless against it. Whatever it prints — plain, or coloured — holds no escape sequence but
 * retie's own colours, no control character but line feed and tab, and no bidi or invisible
 * format character.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { emulatorFlags, isolatedEnv, runRetie } from "../helpers/retie_process.ts";
import { HOSTILE } from "../helpers/hostile.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";

const ALL = HOSTILE.join(" | ");
const NAME = "evil\x1b[2J\u202efile.txt";

function script() {
  return [
    {
      reasoning: `thinking ${ALL}\n`,
      text: `answer ${ALL}\n`,
      toolCalls: [{
        name: "write",
        arguments: JSON.stringify({ path: NAME, content: `${ALL}\n` }),
      }],
    },
    {
      toolCalls: [{
        name: "bash",
        arguments: JSON.stringify({
          command:
            `cat '${NAME}'; printf '\\033]52;c;aGk=\\007\\033[2J' >&2; echo '${"\x1b]0;t\x07"}'; exit 1`,
        }),
      }],
    },
    { toolCalls: [{ name: "\x1b[2Jtool\x9b", arguments: "{}" }] },
    { text: `final ${ALL}` },
  ];
}

function assertSafe(out: string, colour: boolean): void {
  // retie's own styling is SGR (`ESC [ … m`) and only that; with colour off, not even that.
  const withoutSgr = colour ? out.replace(/\x1b\[[0-9;]*m/g, "") : out;
  const bad =
    /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200b-\u200f\u2028\u2029\ufeff\u061c]/
      .exec(withoutSgr);
  assert.equal(
    bad,
    null,
    bad
      ? `raw ${JSON.stringify(bad[0])} near ${
        JSON.stringify(withoutSgr.slice(bad.index - 40, bad.index + 20))
      }`
      : "",
  );
}

for (const colour of [false, true]) {
  Deno.test({
    name: `hostile text end to end (${
      colour ? "coloured" : "plain"
    }): nothing reaches the terminal raw`,
    sanitizeResources: false,
    fn: async () => {
      const iso = isolatedEnv();
      const ws = Deno.makeTempDirSync({ prefix: "retie-hostile-" });
      const emu = startOllamaEmulator({ script: script() });
      try {
        const r = await runRetie([
          "--ledger",
          join(iso.dir, "ledger.db"),
          "run",
          ws,
          "--headless",
          "-p",
          "go",
          "--provider",
          "ollama",
          "--model",
          "m",
          "--base-url",
          `${emu.url}/v1`,
        ], {
          env: { ...iso.env, OLLAMA_API_KEY: "test-key", ...(colour ? { FORCE_COLOR: "1" } : {}) },
        });
        const all = r.stdout + r.stderr;
        // It ran: the write, the command (which failed), the unknown tool, the final answer.
        assert.match(r.stdout, /ok\s+write/, all);
        assert.match(r.stdout, /exit code 1/, all);
        assert.match(all, /final /);
        // The hostile bytes were shown, made visible.
        assert.match(all, /␛\]52;c;/);
        assert.match(all, /evil␛\[2J<U\+202E>file\.txt/);
        assert.match(all, /␛\[2Jtool\\x9b/);
        // Reasoning never on stdout.
        assert.doesNotMatch(r.stdout, /thinking /);
        assertSafe(r.stdout, colour);
        assertSafe(r.stderr, colour);
      } finally {
        await emu.close();
      }
    },
  });
}

Deno.test({
  name: "hostile text end to end: a service's error message reaches the terminal made safe",
  sanitizeResources: false,
  fn: async () => {
    const iso = isolatedEnv();
    const ws = Deno.makeTempDirSync({ prefix: "retie-hostile-" });
    const emu = startOllamaEmulator({
      script: [{ error: { status: 400, body: { error: { message: `bad ${ALL}` } } } }],
    });
    try {
      const r = await runRetie([
        "--ledger",
        join(iso.dir, "ledger.db"),
        "run",
        ws,
        "--headless",
        "-p",
        "go",
        ...emulatorFlags(emu.url),
      ], { env: { ...iso.env, OPENAI_API_KEY: "test-key" } });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /bad ␛\]52;c;/);
      assertSafe(r.stdout, false);
      assertSafe(r.stderr, false);
    } finally {
      await emu.close();
    }
  },
});
