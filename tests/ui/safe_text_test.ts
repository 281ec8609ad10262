// deno-lint-ignore-file no-control-regex
import assert from "node:assert/strict";
import { hasHiddenChars, safeText } from "../../src/ui/safe_text.ts";
import { HOSTILE } from "../helpers/hostile.ts";

Deno.test("no hostile sequence survives: the result has no C0/C1 control but newline and tab", () => {
  for (const h of HOSTILE) {
    const out = safeText(`before ${h} after\n\tindented`);
    assert.ok(!/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(out), JSON.stringify(out));
    assert.ok(!/[\u202a-\u202e\u2066-\u2069\u200b-\u200f]/.test(out), JSON.stringify(out));
    assert.ok(out.startsWith("before ") && out.endsWith(" after\n\tindented"));
    assert.equal(hasHiddenChars(h), true, JSON.stringify(h));
  }
});

Deno.test("what was hidden is shown, so the reader sees every character that will run", () => {
  assert.equal(safeText("echo safe\rrm -rf ~"), "echo safe^Mrm -rf ~");
  assert.equal(safeText("\x1b[2J"), "␛[2J");
  assert.equal(safeText("\x9b2J"), "\\x9b2J");
  assert.equal(safeText("a\u202eb"), "a<U+202E>b");
  assert.equal(safeText("a\tb", { tabs: "show" }), "a^Ib");
});

Deno.test("ordinary text, unicode and emoji pass unchanged", () => {
  for (const s of ["plain", "naïve café — ünïcödé", "日本語のテキスト", "emoji 🎉👍", "x\ny\tz"]) {
    assert.equal(safeText(s), s);
    assert.equal(hasHiddenChars(s), false);
  }
});

Deno.test("the terminal gate: retie's own sequences pass, nothing that writes the clipboard, title or links does", async () => {
  const { terminalGuard } = await import("../../src/ui/term.ts");
  const own =
    "\x1b[1m\x1b[31mbold red\x1b[39m\x1b[22m\r\x1b[2K\x1b[3A\x1b[J\x1b[12C\x1b[?2004h\n\t";
  assert.equal(terminalGuard(own), own);
  for (const h of HOSTILE) {
    const out = terminalGuard(`x ${h} y`);
    // No OSC / DCS / APC / PM / SOS introducer, no BEL, no C1, no bidi or invisible character.
    assert.ok(!/\x1b[\]P_^X]/.test(out), JSON.stringify(out));
    assert.ok(
      !/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/.test(out.replace(/\x1b\[[0-9;?]*[a-zA-Z]/g, "")),
      JSON.stringify(out),
    );
    assert.ok(!/[\u202a-\u202e\u2066-\u2069\u200b-\u200f]/.test(out), JSON.stringify(out));
  }
});
