/**
 * The session view without a terminal process: events in, text out (a sink that says it is a
 * terminal, so the markdown path is taken; colour off so the text is plain).
 */
import assert from "node:assert/strict";
import { forceColor } from "../../src/ui/color.ts";
import { SessionView } from "../../src/ui/session_view.ts";

function view(width = 40) {
  // The status line clears itself with `\r ESC[2K`; what remains is what a person reads.
  const clean = (t: string) => t.replaceAll("\r\x1b[2K", "");
  const out: string[] = [];
  const err: string[] = [];
  const v = new SessionView({
    workspace: "/ws",
    out: { write: (t) => void out.push(clean(t)), isTerminal: true },
    err: { write: (t) => void err.push(clean(t)), isTerminal: true },
    width: () => width,
    now: () => new Date("2026-01-01T09:00:00Z"),
  });
  return { v, out, err };
}

Deno.test("view: a long paragraph appears row by row as it streams, wrapped at words", () => {
  forceColor(false);
  try {
    const { v, out } = view(40);
    const words =
      "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau"
        .split(" ");
    let rowsBeforeEnd = 0;
    for (const w of words) v.handle({ type: "text", delta: w + " " });
    rowsBeforeEnd = out.join("").split("\n").length - 1;
    v.handle({ type: "text", delta: "**upsilon** phi\n" });
    v.handle({ type: "turn_end", summary: { status: "done", text: "", steps: 1, actions: 0 } });
    const text = out.join("");
    assert.ok(rowsBeforeEnd >= 1, "rows were shown before the line ended");
    for (const row of text.split("\n")) assert.ok(row.length <= 40, row);
    assert.equal(
      text.replace(/\n/g, " ").replace(/\s+/g, " ").trim(),
      [...words, "upsilon", "phi"].join(" "),
    );
  } finally {
    forceColor(null);
  }
});

Deno.test("view: reasoning is one labelled line on stderr; /thinking keeps it whole", () => {
  forceColor(false);
  try {
    const { v, out, err } = view();
    v.handle({ type: "reasoning", delta: "first\nsecond\n" });
    v.handle({ type: "text", delta: "answer\n" });
    v.handle({ type: "turn_end", summary: { status: "done", text: "", steps: 1, actions: 0 } });
    assert.equal(err.join(""), "thinking · 2 lines (/thinking shows it)\n");
    assert.equal(out.join(""), "answer\n");
    assert.equal(v.lastReasoning, "first\nsecond\n");
  } finally {
    forceColor(null);
  }
});
