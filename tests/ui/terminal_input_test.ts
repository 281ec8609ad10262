/**
 * The terminal input without a terminal: chunks of bytes in (as a raw-mode terminal sends them),
 * what each prompt receives out. Keys reach only the prompt that is open; keys typed while none
 * is open wait for the next request and never answer a choice.
 */
import assert from "node:assert/strict";
import { forceColor } from "../../src/ui/color.ts";
import { KeyParser } from "../../src/ui/keys.ts";
import { layout, LineEditor } from "../../src/ui/line_editor.ts";
import { type InputSource, TerminalInput } from "../../src/ui/terminal_input.ts";

/** A terminal whose keys the test types, chunk by chunk. */
function fakeTerminal() {
  const queue: string[] = [];
  let wake: (() => void) | null = null;
  let ended = false;
  const written: string[] = [];
  const source: InputSource = {
    isTerminal: true,
    setRaw: () => {},
    async *chunks() {
      while (true) {
        while (queue.length) yield queue.shift()!;
        if (ended) return;
        await new Promise<void>((r) => (wake = r));
      }
    },
  };
  return {
    source,
    out: { write: (t: string) => void written.push(t), isTerminal: true },
    written,
    type(s: string) {
      queue.push(s);
      wake?.();
    },
    end() {
      ended = true;
      wake?.();
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

Deno.test("terminal input: keys typed while no prompt is open never answer a choice", async () => {
  forceColor(false);
  const t = fakeTerminal();
  const input = new TerminalInput({ source: t.source, out: t.out, width: () => 80 });
  try {
    const interrupts: string[] = [];
    input.onInterrupt = (k) => interrupts.push(k);
    t.type("y\r");
    t.type("\x03");
    await tick();
    assert.deepEqual(interrupts, ["interrupt"]);
    const choice = input.choose([{ key: "y", label: "yes" }, { key: "n", label: "no" }], "n");
    t.type("zq\r");
    await tick();
    t.type("\x1b");
    assert.equal(await choice, "n", "the early y was not the answer; Esc is the escape choice");
    // Ctrl-C at a choice is the escape choice, and interrupts the turn too.
    const second = input.choose([{ key: "y", label: "yes" }, { key: "n", label: "no" }], "n");
    t.type("\x03");
    assert.equal(await second, "n");
    assert.deepEqual(interrupts, ["interrupt", "interrupt"]);
    // The early "y" waits at the next request, which needs its own Enter.
    const req = input.readRequest("› ");
    t.type("es\r");
    assert.equal(await req, "yes");
  } finally {
    input.close();
    t.end();
    forceColor(null);
  }
});

Deno.test("terminal input: a paste split across chunks is one request; Ctrl-D ends", async () => {
  const t = fakeTerminal();
  const input = new TerminalInput({ source: t.source, out: t.out, width: () => 80 });
  try {
    const req = input.readRequest("› ");
    t.type("see \x1b[200~one\r\ntwo");
    await tick();
    t.type("\nthree\x1b[2");
    await tick();
    t.type("01~\r");
    assert.equal(await req, "see one\ntwo\nthree");
    assert.ok(t.written.join("").includes("[pasted 3 lines]"));
    const next = input.readRequest("› ");
    t.type("\x04");
    assert.equal(await next, null);
  } finally {
    input.close();
    t.end();
  }
});

Deno.test("terminal input: piped lines are requests in order, never answers", async () => {
  const lines = ["first", "y", "cont\\", "inued"];
  const source: InputSource = {
    isTerminal: false,
    setRaw: () => {},
    async *chunks() {
      yield lines.join("\n") + "\n";
    },
  };
  const input = new TerminalInput({ source, out: { write: () => {}, isTerminal: false } });
  assert.equal(await input.readRequest("› "), "first");
  assert.equal(await input.choose([{ key: "y", label: "yes" }], "y"), null);
  assert.equal(await input.readText("answer › "), null);
  assert.equal(await input.readRequest("› "), "y");
  assert.equal(await input.readRequest("› "), "cont\ninued");
  assert.equal(await input.readRequest("› "), null);
  input.close();
});

Deno.test("keys: arrows, Home/End, Alt-Enter, Delete and a lone Esc", () => {
  const p = new KeyParser();
  assert.deepEqual(p.feed("\x1b[A\x1b[B\x1bOH\x1b[4~\x1b\r\x1b[3~"), [
    { name: "up" },
    { name: "down" },
    { name: "home" },
    { name: "end" },
    { name: "newline" },
    { name: "delete" },
  ]);
  assert.deepEqual(p.feed("\x1b"), [{ name: "escape" }]);
  assert.deepEqual(p.feed("é😀"), [{ name: "text", text: "é😀" }]);
});

Deno.test("line editor: history, multi-line, words, a backslash continues the line", () => {
  const ed = new LineEditor(["newest", "older"]);
  ed.apply({ name: "up" });
  assert.equal(ed.text, "newest");
  ed.apply({ name: "up" });
  assert.equal(ed.text, "older");
  ed.apply({ name: "down" });
  ed.apply({ name: "down" });
  assert.equal(ed.text, "");
  ed.apply({ name: "text", text: "one two\\" });
  assert.equal(ed.apply({ name: "enter" }), "changed");
  ed.apply({ name: "text", text: "three" });
  assert.equal(ed.text, "one two\nthree");
  ed.apply({ name: "delete-word" });
  assert.equal(ed.text, "one two\n");
  ed.apply({ name: "backspace" });
  ed.apply({ name: "home" });
  ed.apply({ name: "word-right" });
  ed.apply({ name: "kill-line" });
  assert.equal(ed.text, "one");
  assert.equal(ed.apply({ name: "enter" }), "submit");
});

Deno.test("layout: wide characters and control characters, never past the last column", () => {
  const l = layout({ prompt: "› ", cont: "  ", text: "你好你好\x1b[2J", cursor: 4, columns: 8 });
  for (const r of l.rows) assert.ok(r.length <= 8);
  assert.deepEqual(l.rows, ["› 你好你", "好␛[2J"]);
  assert.deepEqual([l.cursorRow, l.cursorCol], [1, 2]);
});

Deno.test("history: multi-line requests and quotes survive the file", async () => {
  const { loadHistory, saveHistory } = await import("../../src/cli/repl.ts");
  const path = `${Deno.makeTempDirSync()}/history`;
  const entries = ["newest\nwith two lines", '"quoted"', "plain \\n not a newline"];
  saveHistory(entries, path);
  assert.deepEqual(loadHistory(path), entries);
});
