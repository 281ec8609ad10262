/**
 * The REPL with its input piped in (no terminal), as a script or another program drives it: every
 * line is taken in order even though the input ends while the first turn is still running, a
 * provider error ends only its turn, and a slash command with a bad argument is answered without
 * ending the session.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { emulatorFlags, isolatedEnv, runRetie } from "../helpers/retie_process.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { openLedger } from "../../src/ledger/ledger.ts";

Deno.test({
  name: "REPL on piped input: error turn, bad slash arguments, next turn, clean exit",
  sanitizeResources: false,
  fn: async () => {
    const iso = isolatedEnv();
    const ws = Deno.makeTempDirSync({ prefix: "retie-repl-pipe-" });
    Deno.writeTextFileSync(join(ws, "a.txt"), "hello\n");
    const ledgerPath = join(iso.dir, "ledger.db");
    const emu = startOllamaEmulator({
      script: [
        { error: { status: 500, body: { error: "internal error (ref: 5e1)" } }, delayMs: 300 },
        { text: "back again" },
      ],
    });
    try {
      const r = await runRetie([
        "--ledger",
        ledgerPath,
        "run",
        ws,
        "--provider",
        "openai",
        "--model",
        "gpt-oss:20b",
        "--base-url",
        `${emu.url}/v1`,
      ], {
        env: { ...iso.env, OPENAI_API_KEY: "test-key" },
        stdin: "first try\n/undo act_000000000000\n/ledger abc\nsecond try\n/model\n",
      });
      const all = r.stdout + r.stderr;
      assert.equal(r.code, 0, all);
      assert.doesNotMatch(all, /readline was closed/);
      assert.match(r.stderr, /server \(gpt-oss:20b\) \[500\]: internal error/);
      assert.match(r.stderr, /no action act_000000000000 in the ledger/);
      assert.match(r.stdout, /usage: \/ledger \[n\]/);
      assert.match(r.stdout, /back again/);
      assert.match(r.stdout, /model: gpt-oss:20b/);
      assert.match(r.stderr, /closed with a checkpoint/);
      assert.equal(emu.requests.filter((q) => q.path === "/v1/chat/completions").length, 2);

      const ledger = openLedger(ledgerPath);
      try {
        const events = ledger.entries({ kinds: ["event"] }).map((e) => e.payload);
        assert.deepEqual(
          events.filter((p) => p.type === "turn").map((p) => p.text),
          ["first try", "second try"],
        );
        assert.deepEqual(
          events.filter((p) => p.type === "turn-end").map((p) => p.status),
          ["error"],
        );
        assert.ok(ledger.entries({ kinds: ["checkpoint"] }).length >= 1);
        // The first request is the objective, in the user's own words.
        const genesis = ledger.entries({ kinds: ["genesis"] })[0];
        assert.equal(genesis.payload.objective, "first try");
      } finally {
        ledger.close();
      }
    } finally {
      await emu.close();
    }
  },
});

Deno.test({
  name: "REPL on piped input: an action that asks is refused at once (nobody can answer), not hung",
  sanitizeResources: false,
  fn: async () => {
    const iso = isolatedEnv();
    const ws = Deno.makeTempDirSync({ prefix: "retie-repl-pipe-" });
    const ledgerPath = join(iso.dir, "ledger.db");
    const emu = startOllamaEmulator({
      script: [
        {
          toolCalls: [{
            name: "bash",
            arguments: JSON.stringify({ command: "echo hi > x.txt", sandbox: false }),
          }],
        },
        { toolCalls: [{ name: "ask", arguments: JSON.stringify({ question: "which file?" }) }] },
        { text: "understood" },
        { text: "a request, not an answer: y" },
        { text: "a request, not an answer: b.txt" },
      ],
    });
    try {
      const r = await runRetie([
        "--ledger",
        ledgerPath,
        "run",
        ws,
        "--provider",
        "openai",
        "--model",
        "gpt-oss:20b",
        "--base-url",
        `${emu.url}/v1`,
      ], { env: { ...iso.env, OPENAI_API_KEY: "test-key" }, stdin: "write x.txt\ny\nb.txt\n" });
      const all = r.stdout + r.stderr;
      assert.equal(r.code, 0, all);
      assert.match(all, /not reversible: runs `echo hi > x\.txt` without the sandbox/);
      assert.match(r.stdout, /refused\s+bash/);
      assert.match(r.stdout, /understood/);
      assert.throws(() => Deno.statSync(join(ws, "x.txt")), Deno.errors.NotFound);
      const chats = emu.requests.filter((q) => q.path === "/v1/chat/completions");
      // The lines after the first were requests in their own right: never taken as the
      // approval's or the question's answer.
      assert.equal(chats.length, 5);
      assert.match(r.stdout, /a request, not an answer: y[\s\S]*a request, not an answer: b\.txt/);
      const toolMsgs = chats[2].body.messages.filter((m: { role: string }) => m.role === "tool");
      assert.match(toolMsgs[0].content, /standard input is not a terminal/);
      assert.match(toolMsgs[1].content, /no one is at the terminal/);
      const ledger = openLedger(ledgerPath);
      try {
        const refusals = ledger.entries({ kinds: ["refusal"] }).map((e) => e.payload);
        assert.equal(refusals.length, 1);
        assert.equal(refusals[0].stage, "approval");
        assert.match(String(refusals[0].reason), /not a terminal/);
        const turns = ledger.entries({ kinds: ["event"] }).map((e) => e.payload)
          .filter((p) => p.type === "turn").map((p) => p.text);
        assert.deepEqual(turns, ["write x.txt", "y", "b.txt"]);
      } finally {
        ledger.close();
      }
    } finally {
      await emu.close();
    }
  },
});

Deno.test({
  name: "REPL on piped input: slash commands work from the first prompt; /model NAME switches",
  sanitizeResources: false,
  fn: async () => {
    const iso = isolatedEnv();
    const ws = Deno.makeTempDirSync({ prefix: "retie-repl-pipe-" });
    const ledgerPath = join(iso.dir, "ledger.db");
    const emu = startOllamaEmulator({
      script: [{ text: "first answer" }, { text: "second answer" }],
    });
    try {
      const r = await runRetie([
        "--ledger",
        ledgerPath,
        "run",
        ws,
        ...emulatorFlags(emu.url, "model-a"),
      ], {
        env: { ...iso.env, OPENAI_API_KEY: "test-key" },
        stdin: "/help\n/ledger\n/model model-b\n/mode plan\nfirst request\n/model model-c\n" +
          "second request\n/model\n/ledger\n",
      });
      const all = r.stdout + r.stderr;
      assert.equal(r.code, 0, all);
      assert.match(r.stdout, /commands:[\s\S]*\/model \[NAME\][\s\S]*keys:/);
      assert.match(r.stdout, /ledger: nothing yet — the session starts with your first request/);
      assert.match(r.stdout, /model: model-a → model-b/);
      assert.match(r.stdout, /mode: plan/);
      assert.match(r.stdout, /model: model-b → model-c/);
      assert.match(r.stdout, /model: model-c\n/);
      const chats = emu.requests.filter((q) => q.path === "/v1/chat/completions");
      assert.deepEqual(chats.map((c) => c.body.model), ["model-b", "model-c"]);
      const ledger = openLedger(ledgerPath);
      try {
        const genesis = ledger.entries({ kinds: ["genesis"] })[0].payload;
        assert.equal(genesis.model, "model-b");
        assert.equal(genesis.mode, "plan");
        assert.equal(genesis.objective, "first request");
        const switched = ledger.entries({ kinds: ["event"] }).map((e) => e.payload)
          .filter((p) => p.type === "model" && p.event === "switch");
        assert.deepEqual(switched.map((p) => [p.from, p.to]), [["model-b", "model-c"]]);
      } finally {
        ledger.close();
      }
    } finally {
      await emu.close();
    }
  },
});

Deno.test({
  name:
    "REPL on piped input: !cmd runs in the sandbox as the person's action; @path inlines a file",
  sanitizeResources: false,
  fn: async () => {
    const iso = isolatedEnv();
    const ws = Deno.makeTempDirSync({ prefix: "retie-repl-pipe-" });
    Deno.writeTextFileSync(join(ws, "a.txt"), "hello from a\n");
    const ledgerPath = join(iso.dir, "ledger.db");
    const emu = startOllamaEmulator({ script: [{ text: "first answer" }, { text: "read it" }] });
    try {
      const r = await runRetie([
        "--ledger",
        ledgerPath,
        "run",
        ws,
        ...emulatorFlags(emu.url),
      ], {
        env: { ...iso.env, OPENAI_API_KEY: "test-key" },
        stdin: "start\n!echo own-output > own.txt; cat own.txt; echo oops >&2\n" +
          "explain @a.txt and @../outside.txt please\n",
      });
      const all = r.stdout + r.stderr;
      assert.equal(r.code, 0, all);
      assert.match(r.stdout, /ok\s+bash\s+run shell command: echo own-output/);
      assert.match(r.stdout, /stdout │ own-output/);
      assert.match(r.stdout, /stderr │ oops/);
      assert.equal(Deno.readTextFileSync(join(ws, "own.txt")), "own-output\n");
      assert.match(r.stderr, /@a\.txt inlined/);
      assert.match(r.stderr, /@\.\.\/outside\.txt not inlined/);
      const chats = emu.requests.filter((q) => q.path === "/v1/chat/completions");
      assert.equal(chats.length, 2, "the person's own command is no model turn");
      const last = chats[1].body.messages.at(-1).content as string;
      assert.match(
        last,
        /^explain @a\.txt and @\.\.\/outside\.txt please\n\n<file path="a\.txt">\n.*hello from a/s,
      );
      const ledger = openLedger(ledgerPath);
      try {
        const own = ledger.entries({ kinds: ["event"] }).map((e) => e.payload)
          .filter((p) => p.type === "user-action");
        assert.deepEqual(own.map((p) => [p.tool, p.status]), [
          ["bash", "ok"],
          ["read", "ok"],
          ["read", "refused"],
        ]);
        const intents = ledger.entries({ kinds: ["intent"] }).map((e) => e.payload.tool);
        assert.deepEqual(intents, ["bash", "read"]);
      } finally {
        ledger.close();
      }
    } finally {
      await emu.close();
    }
  },
});

Deno.test({
  name: "REPL on piped input: plan mode runs a command in the sandbox and rolls back its changes",
  sanitizeResources: false,
  fn: async () => {
    const iso = isolatedEnv();
    const ws = Deno.makeTempDirSync({ prefix: "retie-repl-pipe-" });
    Deno.writeTextFileSync(join(ws, "keep.txt"), "original\n");
    const ledgerPath = join(iso.dir, "ledger.db");
    const bash = (command: string, sandbox?: boolean) => ({
      toolCalls: [{ name: "bash", arguments: JSON.stringify({ command, sandbox }) }],
    });
    const emu = startOllamaEmulator({
      script: [
        bash("echo changed > keep.txt; echo new > new.txt; cat keep.txt"),
        bash("ls"),
        bash("ls", false),
        {
          toolCalls: [{
            name: "write",
            arguments: JSON.stringify({ path: "w.txt", content: "x" }),
          }],
        },
        { text: "planned" },
      ],
    });
    try {
      const r = await runRetie([
        "--ledger",
        ledgerPath,
        "run",
        ws,
        "--mode",
        "plan",
        ...emulatorFlags(emu.url),
      ], { env: { ...iso.env, OPENAI_API_KEY: "test-key" }, stdin: "look around\n" });
      const all = r.stdout + r.stderr;
      assert.equal(r.code, 0, all);
      // It ran (its output was seen), then its changes were rolled back.
      assert.match(r.stdout, /stdout │ changed/);
      assert.match(
        r.stdout,
        /plan mode: the command changed .*keep\.txt.*; retie rolled that back/,
      );
      assert.match(
        r.stdout,
        /plan mode: the command changed nothing \(it ran with the workspace read-only\)/,
      );
      assert.equal(Deno.readTextFileSync(join(ws, "keep.txt")), "original\n");
      assert.throws(() => Deno.statSync(join(ws, "new.txt")));
      // Unsandboxed commands and the file tools stay denied.
      assert.match(r.stdout, /refused\s+bash\s+run shell command: ls\n/);
      assert.match(r.stdout, /refused\s+write/);
      assert.throws(() => Deno.statSync(join(ws, "w.txt")));
      const chats = emu.requests.filter((q) => q.path === "/v1/chat/completions");
      const tools = chats.at(-1)!.body.messages.filter((m: { role: string }) => m.role === "tool");
      assert.match(tools[0].content, /retie rolled that back/);
      const ledger = openLedger(ledgerPath);
      try {
        // The writing run was rolled back (recorded); `ls` only reads: it ran with the
        // workspace read-only, and there was nothing to roll back.
        assert.equal(
          ledger.entries({ kinds: ["undo"] }).length,
          1,
          "the writing run rolled back, recorded",
        );
      } finally {
        ledger.close();
      }
    } finally {
      await emu.close();
    }
  },
});
