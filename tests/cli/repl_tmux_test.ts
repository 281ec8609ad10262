/**
 * The REPL as a person uses it, in a real terminal (tmux) against a scripted model server: the
 * approval dialog shows the whole command with its control characters made visible, keys typed
 * at a prompt answer that prompt and nothing else (never a request to the model), Esc is no,
 * "don't ask again" holds for the exact action and is recorded, "tell it instead" reaches the
 * model, an `ask` answer is sent once, and /ledger lists actions with their ids.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { settle, tmuxPath, TmuxRetie } from "../helpers/tmux.ts";
import { openLedger } from "../../src/ledger/ledger.ts";
import { verifyLedger } from "../../src/ledger/verify.ts";

const HOSTILE = "rm -rf build\x1b[2K\recho safe # " + "x".repeat(230) + "ZZEND\n# line two\u202e";
const bash = (command: string, sandbox = false) => ({
  name: "bash",
  arguments: JSON.stringify({ command, sandbox }),
});

Deno.test({
  name: "REPL in a terminal: approvals — whole command shown, keys answer only their prompt",
  ignore: tmuxPath === null,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const t = await TmuxRetie.start({
      files: { "build/out.bin": "artefact\n" },
      script: [
        {
          reasoning: "the user wants the build gone",
          text: "I will remove the build directory.",
          toolCalls: [bash(HOSTILE)],
        },
        { text: "All done, nothing was removed." },
        { toolCalls: [bash("touch esc-was-no")] },
        { text: "Esc understood." },
        { toolCalls: [bash("echo twice > twice.txt")] },
        { text: "first run done" },
        { toolCalls: [bash("echo twice > twice.txt")] },
        { text: "second run done" },
        { toolCalls: [bash("touch told.txt")] },
        { text: "ok, using trash" },
      ],
    });
    try {
      await t.waitFor(/^› $/m, 90_000);
      await t.type("please clean the build");
      await t.keys("Enter");
      let screen = await t.waitFor(/Allow it\?[\s\S]*\[y\] yes/);
      // Reasoning is collapsed and labelled; the answer follows.
      assert.match(
        screen,
        /thinking · 1 line \(\/thinking shows it\)\nI will remove the build directory\./,
      );
      assert.doesNotMatch(screen, /the user wants the build gone/);
      // The whole command, exactly: escape and carriage return visible, past 200 characters,
      // every line, the bidi override named, and a warning.
      assert.match(
        screen,
        /│ rm -rf build␛\[2K\^Mecho safe # x{230}ZZEND\n {2}│ # line two<U\+202E>/,
      );
      assert.match(screen, /⚠ it holds control or invisible characters/);
      // Keys that are not an answer do nothing; Enter alone picks nothing.
      await t.type("zzz");
      await t.keys("Enter");
      await t.waitFor(/press y, a, n, t, e or Esc/);
      await t.keys("e");
      await t.waitFor(/retie asks because the policy rule "[^"]+" matched[\s\S]*Allow it\?/);
      await t.keys("n");
      screen = await t.waitFor(/All done, nothing was removed\./);
      assert.match(screen, /refused\s+bash\s+run shell command: rm -rf build␛\[2K/);
      assert.ok(Deno.statSync(join(t.ws, "build", "out.bin")).isFile, "refused: must not run");
      await settle();
      // Nothing typed at the prompt reached the model as a request.
      assert.equal(t.chats().length, 2);
      const users = t.chats()[1].messages.filter((m: { role: string }) => m.role === "user");
      assert.deepEqual(users.map((m: { content: string }) => m.content), [
        "please clean the build",
      ]);
      const tool = t.chats()[1].messages.find((m: { role: string }) => m.role === "tool");
      assert.match(tool.content, /declined/);

      // Esc is no.
      await t.type("try another");
      await t.keys("Enter");
      await t.waitFor(/runs `touch esc-was-no`[\s\S]*Allow it\?/);
      await t.keys("Escape");
      await t.waitFor(/Esc understood\./);
      assert.throws(() => Deno.statSync(join(t.ws, "esc-was-no")));

      // "Don't ask again" covers this exact action for the session, and is recorded.
      await t.type("write twice");
      await t.keys("Enter");
      await t.waitFor(/runs `echo twice > twice.txt`[\s\S]*Allow it\?/);
      await t.keys("a");
      await t.waitFor(/first run done/);
      await t.type("again");
      await t.keys("Enter");
      screen = await t.waitFor(/second run done/);
      assert.match(
        screen,
        /approved: you said not to ask again for bash `echo twice > twice\.txt`/,
      );
      // Asked: the first command (twice, around "explain"), the Esc one, this one once.
      assert.equal((screen.match(/Allow it\?/g) ?? []).length, 4, "asked only the first time");

      // "No, and tell it what to do instead" reaches the model with the refusal.
      await t.type("make a file");
      await t.keys("Enter");
      await t.waitFor(/runs `touch told.txt`[\s\S]*Allow it\?/);
      await t.keys("t");
      await t.waitFor(/instead: $/m);
      await t.type("move it to the trash instead");
      await t.keys("Enter");
      await t.waitFor(/ok, using trash/);
      const told = t.chats().at(-1).messages.filter((m: { role: string }) => m.role === "tool")
        .at(-1);
      assert.match(told.content, /says what to do instead: move it to the trash instead/);

      // /ledger: a readable list with action ids.
      await t.type("/ledger 4");
      await t.keys("Enter");
      screen = await t.waitFor(
        /act_[0-9a-f]{12}\s+\d\d:\d\d:\d\d\s+ok\s+bash\s+run shell command: echo twice/,
      );
      await t.keys("C-d");
      await t.waitFor(/closed with a checkpoint/);
    } finally {
      await t.close();
    }
    const report = verifyLedger(t.ledger);
    assert.ok(report.ok, JSON.stringify(report.firstBad));
    const ledger = openLedger(t.ledger);
    try {
      // "Don't ask again" is a remembered rule (user config): added once, then it decided once.
      const rules = ledger.entries({ kinds: ["event"] }).filter((e) =>
        e.payload.type === "approval-remembered"
      );
      const added = rules.filter((e) => e.payload.added);
      assert.equal(added.length, 1);
      assert.match(JSON.stringify(added[0].payload.added), /echo twice > twice\.txt/);
      assert.equal(rules.filter((e) => e.payload.decision === "allow").length, 1);
    } finally {
      ledger.close();
    }
  },
});

Deno.test({
  name: "REPL in a terminal: an ask answer is sent once, the final answer printed once",
  ignore: tmuxPath === null,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const t = await TmuxRetie.start({
      script: [
        {
          toolCalls: [{
            name: "ask",
            arguments: JSON.stringify({ question: "Which file?\x1b]0;pwned\x07" }),
          }],
        },
        { text: "Final answer: b.txt it is." },
      ],
      // A terminal without colour works the same.
      env: ["NO_COLOR=1"],
    });
    try {
      await t.waitFor(/^› $/m, 90_000);
      await t.type("pick a file");
      await t.keys("Enter");
      const q = await t.waitFor(/answer › $/m);
      assert.match(q, /\? Which file\?␛\]0;pwned\^G/);
      await t.type("b.txt");
      await t.keys("Enter");
      const screen = await t.waitFor(/Final answer: b\.txt it is\.\n› $/m);
      assert.equal((screen.match(/Final answer/g) ?? []).length, 1);
      await settle();
      assert.equal(t.chats().length, 2, "the answer is not also a new request");
      const msgs = t.chats()[1].messages;
      assert.equal(msgs.filter((m: { role: string }) => m.role === "user").length, 1);
      assert.match(msgs.find((m: { role: string }) => m.role === "tool").content, /b\.txt/);
      // Plan mode shows in the prompt.
      await t.type("/mode plan");
      await t.keys("Enter");
      await t.waitFor(/^plan › $/m);
      await t.keys("C-d");
      await t.waitFor(/closed with a checkpoint/);
    } finally {
      await t.close();
    }
  },
});

Deno.test({
  name: "REPL in a terminal: an edit is approved seen — its diff and finding; Ctrl-C there stops",
  ignore: tmuxPath === null,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const { DEMO_FILES, PAY_WITHOUT_GUARDS } = await import("../../src/cli/demo_workspace.ts");
    const t = await TmuxRetie.start({
      files: { "pay.py": DEMO_FILES["pay.py"] },
      script: [
        {
          toolCalls: [{
            name: "edit",
            arguments: JSON.stringify({ path: "pay.py", ...PAY_WITHOUT_GUARDS }),
          }],
        },
        { text: "left it alone" },
      ],
    });
    try {
      await t.waitFor(/^› $/m, 90_000);
      await t.type("simplify refund");
      await t.keys("Enter");
      const screen = await t.waitFor(/Allow it\?[\s\S]*\[y\] yes/);
      // Before the question: the finding, then the diff, both halves.
      const ask = screen.slice(screen.indexOf("simplify refund"));
      const finding = ask.search(/⚑ high: auth-check-removed \(1 → 0\) in \S*pay\.py/);
      const minus = ask.search(/^\s+-@login_required$/m);
      const question = ask.indexOf("Allow it?");
      assert.ok(finding > 0 && minus > finding && question > minus, ask);
      assert.match(ask, /^\s+-\s+if not hmac\.compare_digest\(expected, signature\):$/m);
      // The finding points at its line: the removed decorator, with its number.
      assert.match(ask, /auth-check-removed \(1 → 0\) in pay\.py:7\b.*\n\s+-7 │ @login_required$/m);
      assert.doesNotMatch(ask, /ok\s+edit/, "nothing ran before the answer");
      // Ctrl-C at the dialog: no, and the turn stops (the model is not called again).
      await t.keys("C-c");
      await t.waitFor(/interrupted: the turn stopped[\s\S]*refused\s+edit[\s\S]*^› $/m);
      await settle();
      assert.equal(t.chats().length, 1);
      assert.match(Deno.readTextFileSync(join(t.ws, "pay.py")), /@login_required/);
      await t.keys("C-d");
      await t.waitFor(/closed with a checkpoint/);
    } finally {
      await t.close();
    }
  },
});

Deno.test({
  name: "REPL in a terminal: /diff, /thinking, /model NAME, !cmd, @path, Esc mid-turn",
  ignore: tmuxPath === null,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const t = await TmuxRetie.start({
      files: {
        "calc.py": "def add(a, b):\n    return a - b\n",
        "notes.txt": "remember the milk\n",
      },
      script: [
        {
          reasoning: "subtraction where addition belongs\nfix the operator",
          toolCalls: [{
            name: "edit",
            arguments: JSON.stringify({
              path: "calc.py",
              old_text: "return a - b",
              new_text: "return a + b",
            }),
          }],
        },
        { text: "Fixed." },
        { text: "I see the notes." },
        { text: Array.from({ length: 30 }, (_, i) => `slow line ${i + 1}\n`), frameDelayMs: 250 },
        { text: "after esc" },
      ],
    });
    try {
      await t.waitFor(/^› $/m, 90_000);
      await t.type("fix add");
      await t.keys("Enter");
      await t.waitFor(/Fixed\.\n› $/m);
      await t.type("/diff");
      await t.keys("Enter");
      let screen = await t.waitFor(
        /\/diff\n1 file changed in this session.*\n\s+modified\s+calc\.py\n\s+--- a\/calc\.py\n\s+\+\+\+ b\/calc\.py/,
      );
      assert.match(screen, /^\s+-\s{4}return a - b$/m);
      assert.match(screen, /^\s+\+\s{4}return a \+ b$/m);
      await t.type("/thinking");
      await t.keys("Enter");
      await t.waitFor(/thinking\nsubtraction where addition belongs\nfix the operator/);
      // The person's own command: output shown, no model call.
      await t.type("!grep -c milk notes.txt");
      await t.keys("Enter");
      screen = await t.waitFor(
        /ok\s+bash\s+run read-only command: grep -c milk notes\.txt[\s\S]*stdout │ 1/,
      );
      await settle();
      assert.equal(t.chats().length, 2);
      // @path inlines the file into the request.
      await t.type("what do @notes.txt say?");
      await t.keys("Enter");
      await t.waitFor(/I see the notes\./);
      assert.match(
        t.chats()[2].messages.at(-1).content,
        /<file path="notes\.txt">\n.*remember the milk/s,
      );
      // /model NAME switches the model the next call uses.
      await t.type("/model other-model");
      await t.keys("Enter");
      await t.waitFor(/model: m → other-model/);
      // Esc interrupts a turn as Ctrl-C does.
      await t.type("go slowly");
      await t.keys("Enter");
      await t.waitFor(/slow line 2\n/);
      await t.keys("Escape");
      screen = await t.waitFor(/interrupted: the turn stopped/);
      assert.doesNotMatch(screen, /slow line 30/);
      assert.equal(t.chats()[3].model, "other-model");
      await t.keys("C-d");
      await t.waitFor(/closed with a checkpoint/);
    } finally {
      await t.close();
    }
  },
});
