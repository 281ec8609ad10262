/**
 * The REPL's output and interruptions in a real terminal (tmux) against a scripted model server:
 * a multi-line paste is one request, markdown is rendered, Ctrl-C mid-stream and mid-command
 * interrupts once and adds only a marker to the conversation, a running command shows its time
 * and its latest output, a finished one its head, tail and exit code (`/show` the rest), and the
 * prompt redraws cleanly at 60 columns.
 */
import assert from "node:assert/strict";
import { settle, tmuxPath, TmuxRetie } from "../helpers/tmux.ts";
import { openLedger } from "../../src/ledger/ledger.ts";

const PASTE = "first pasted line\nsecond pasted line\nthird pasted line\nfourth pasted line";
const lines = (n: number, w: string) => Array.from({ length: n }, (_, i) => `${w}${i + 1}\n`);
const bash = (command: string) => ({ name: "bash", arguments: JSON.stringify({ command }) });

Deno.test({
  name: "REPL in a terminal: paste, markdown, Ctrl-C mid-stream and mid-command, output, resize",
  ignore: tmuxPath === null,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const t = await TmuxRetie.start({
      script: [
        { text: "## Result\n\nThis is **bold** and `code`.\n\n- one item\n- two items\n" },
        { text: lines(30, "streamed line "), frameDelayMs: 250 },
        { toolCalls: [bash("echo started-the-slow-one; sleep 30; echo never")] },
        {
          toolCalls: [bash(
            "for i in $(seq 1 20); do echo out$i; done; echo 'bad thing' >&2; exit 3",
          )],
        },
        { text: "tests fail" },
        { text: "still here" },
      ],
    });
    try {
      await t.waitFor(/^› $/m, 90_000);
      // A paste of four lines is one request, shown folded, sent whole.
      await t.type("look at this: ");
      await t.paste(PASTE);
      await t.waitFor(/› look at this: \[pasted 4 lines\]$/m);
      await t.keys("Enter");
      let screen = await t.waitFor(/two items/);
      // Markdown rendered: no ## or ** or list dashes.
      assert.match(screen, /^Result$/m);
      assert.match(screen, /This is bold and code\./);
      assert.match(screen, /^ {2}• one item$/m);
      assert.doesNotMatch(screen, /## Result|\*\*bold\*\*/);
      await settle(300);
      assert.equal(t.chats().length, 1, "one request for the whole paste");
      assert.equal(t.chats()[0].messages.at(-1).content, `look at this: ${PASTE}`);

      // Ctrl-C while the answer streams: said once, nothing else.
      await t.type("stream something");
      await t.keys("Enter");
      await t.waitFor(/streamed line 2\n/);
      await t.type("typed during the stream");
      await t.keys("C-c");
      screen = await t.waitFor(/interrupted: the turn stopped[\s\S]*^› typed during the stream$/m);
      assert.equal((screen.match(/interrupted/g) ?? []).length, 1);
      assert.doesNotMatch(screen, /reasoning used|cut off|streamed line 30/);
      // What was typed during the stream was not echoed into it, was not sent, and waits at
      // the next prompt as the start of a request.
      assert.equal((screen.match(/typed during the stream/g) ?? []).length, 1);
      assert.match(screen, /^› typed during the stream$/m);
      await t.keys("C-u");

      // Ctrl-C while a command runs: the status line shows it running with its output, then
      // one notice; the command is killed.
      await t.type("run the slow one");
      await t.keys("Enter");
      screen = await t.waitFor(
        /running bash: echo started-the-slow-one.* · \d+\.\ds · started-the-slow-one/,
      );
      await t.keys("C-c");
      screen = await t.waitFor(/exit code 137 \(cancelled\)\n› $/m);
      assert.equal((screen.match(/interrupted/g) ?? []).length, 2);
      await settle(300);
      assert.equal(t.chats().length, 3, "no model call after the interruption");

      // A failing command's output: head, tail, exit code; /show has all of it.
      await t.type("run the tests");
      await t.keys("Enter");
      screen = await t.waitFor(/tests fail/);
      assert.match(screen, /stdout │ out1\n\s+│ out2\n\s+│ out3\n\s+│ … \+14 lines\n\s+│ out18/);
      assert.match(screen, /stderr │ bad thing/);
      assert.match(screen, /exit code 3 · \/show (act_[0-9a-f]{12}) for all of it/);
      const id = /\/show (act_[0-9a-f]{12})/.exec(screen)![1];
      await t.type(`/show ${id}`);
      await t.keys("Enter");
      screen = await t.waitFor(/out11\nout12/);

      // The conversation holds the interruptions as markers, never an instruction.
      await t.type("are you there?");
      await t.keys("Enter");
      await t.waitFor(/still here/);
      const msgs = t.chats().at(-1).messages as { role: string; content: string }[];
      const markers = msgs.filter((m) => m.content?.includes("[interrupted by the user]"));
      assert.equal(markers.length, 2);
      assert.ok(!msgs.some((m) => /cut off|Continue, more briefly/.test(m.content ?? "")));
      assert.deepEqual(
        msgs.filter((m) => m.role === "user").map((m) => m.content.slice(0, 14)),
        ["look at this: ", "stream somethi", "run the slow o", "run the tests", "are you there?"],
      );

      // 60 columns: a long request wraps within the width and redraws without leftovers.
      await t.resize(60);
      await settle(300);
      await t.type("a long request that is certainly wider than sixty columns once typed out");
      await settle(300);
      await t.resize(50);
      await settle(300);
      await t.resize(60);
      await settle(300);
      const rows = (await t.rows()).split("\n");
      assert.ok(rows.every((r) => [...r].length <= 60));
      const starts = rows.filter((r) => r.startsWith("› a long request"));
      assert.equal(starts.length, 1, rows.join("\n"));
      await t.keys("C-u");
      await t.keys("C-d");
      screen = await t.waitFor(/closed with a checkpoint/);
      assert.match(screen, /replay: retie --ledger \S+ replay ses_/);
    } finally {
      await t.close();
    }
    const ledger = openLedger(t.ledger);
    try {
      assert.equal(
        ledger.entries({ kinds: ["genesis"] })[0].payload.objective,
        `look at this: ${PASTE}`,
      );
    } finally {
      ledger.close();
    }
  },
});

Deno.test({
  name:
    "REPL in a terminal: the status line keeps time while the first snapshot of a large tree runs",
  ignore: tmuxPath === null,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const files: Record<string, string> = {};
    for (let d = 0; d < 100; d++) {
      for (let f = 0; f < 300; f++) files[`d${d}/f${f}.txt`] = `content ${d} ${f}\n`.repeat(20);
    }
    const t = await TmuxRetie.start({
      files,
      // A command that writes (a reader would run with the workspace read-only, no snapshot).
      script: [{ toolCalls: [bash("echo snapshot-done | tee done.txt")] }, { text: "ran it" }],
      // The snapshot store: its first capture of a large tree is what this test watches.
      args: ["--snapshots"],
    });
    try {
      await t.waitFor(/^› $/m, 60_000);
      await t.type("run it");
      await t.keys("Enter");
      // Sample the screen while the call runs: the elapsed time must move on, even though the
      // main thread is busy taking the first snapshot of 30,000 files.
      const seen = new Set<string>();
      const until = Date.now() + 60_000;
      let done = false;
      while (Date.now() < until && !done) {
        const screen = await t.rows();
        for (
          const m of screen.matchAll(
            /running bash: echo snapshot-done \| tee done\.txt · (\d+\.\d)s/g,
          )
        ) {
          seen.add(m[1]);
        }
        done = /ran it/.test(screen);
        await settle(200);
      }
      assert.ok(done, "the call finished");
      assert.ok(seen.size >= 3, `the status line moved: ${[...seen].join(", ")}`);
      await t.keys("C-d");
      await t.waitFor(/closed with a checkpoint/);
    } finally {
      await t.close();
    }
  },
});
