/**
 * The `/diff` renderer: created, deleted, modified, replaced; binary, large and unknown contents
 * listed with a note; hostile names and contents made safe; unchanged paths left out; many files
 * cut to a named list.
 */
import assert from "node:assert/strict";
import {
  DIFF_MAX_BYTES,
  DIFF_MAX_FILES,
  type PathState,
  sessionDiff,
} from "../../src/ui/session_diff.ts";

const ESC = "\u001b";
const file = (text: string, mode?: number): PathState => {
  const bytes = new TextEncoder().encode(text);
  return { type: "file", size: bytes.length, bytes, mode };
};
const absent: PathState = { type: "absent" };
const plain = (s: string) => s.replaceAll(new RegExp(`${ESC}\\[[0-9;]*m`, "g"), "");

Deno.test("session diff: each kind of change, relative paths, unchanged paths left out", () => {
  const out = plain(sessionDiff([
    { path: "/ws/src/a.py", before: file("x = 1\ny = 2\n"), after: file("x = 1\ny = 3\n") },
    { path: "/ws/new.txt", before: absent, after: file("hello\n") },
    { path: "/ws/old.txt", before: file("bye\n"), after: absent },
    { path: "/ws/same.txt", before: file("s\n"), after: file("s\n") },
    { path: "/ws/dir", before: absent, after: { type: "dir" } },
    { path: "/ws/link", before: file("t\n"), after: { type: "symlink", target: "/etc/passwd" } },
  ], "/ws"));
  assert.match(out, /^4 files changed in this session/);
  assert.match(out, /modified\s+src\/a\.py\n\s+--- a\/src\/a\.py\n\s+\+\+\+ b\/src\/a\.py/);
  assert.match(out, /-y = 2\n\s+\+y = 3/);
  assert.match(out, /created\s+new\.txt\n\s+--- \/dev\/null\n\s+\+\+\+ b\/new\.txt/);
  assert.match(out, /deleted\s+old\.txt\n\s+--- a\/old\.txt\n\s+\+\+\+ \/dev\/null/);
  assert.match(out, /replaced\s+link\n\s+not a regular file: 2 bytes → symlink → \/etc\/passwd/);
  assert.doesNotMatch(out, /same\.txt|\/ws\//);
  // Sorted by path.
  assert.ok(
    out.indexOf("link") < out.indexOf("new.txt") &&
      out.indexOf("new.txt") < out.indexOf("src/a.py"),
  );
});

Deno.test("session diff: binary, large and unknown contents get a note, never bytes", () => {
  const big = "a\n".repeat(DIFF_MAX_BYTES);
  const out = plain(sessionDiff([
    {
      path: "/ws/b.bin",
      before: absent,
      after: { type: "file", size: 3, bytes: new Uint8Array([0, 1, 2]) },
    },
    {
      path: "/ws/latin1.txt",
      before: file("ok\n"),
      after: { type: "file", size: 1, bytes: new Uint8Array([0xe9]) },
    },
    { path: "/ws/big.log", before: file("a\n"), after: file(big) },
    { path: "/ws/huge.iso", before: absent, after: { type: "file", size: 5e9, bytes: null } },
    { path: "/ws/run.sh", before: file("echo\n", 0o100644), after: file("echo\n", 0o100755) },
  ], "/ws"));
  assert.match(out, /created\s+b\.bin\n\s+binary file; diff not shown: absent → 3 bytes/);
  assert.match(out, /modified\s+latin1\.txt\n\s+binary file; diff not shown/);
  assert.match(out, /modified\s+big\.log\n\s+large file; diff not shown: 2 bytes → 524,288 bytes/);
  assert.match(out, /created\s+huge\.iso\n\s+contents not kept or too large to read/);
  assert.match(out, /modified\s+run\.sh \(mode 644 → 755\)$/m);
  assert.doesNotMatch(out, /@@/);
});

Deno.test("session diff: names and contents from files never reach the screen raw", () => {
  const out = sessionDiff(
    [
      {
        path: `/ws/evil${ESC}]0;pwned\u0007\n+++ b/fake`,
        before: file("a\n"),
        after: file(`${ESC}[2J${ESC}[31mgotcha\r\n`),
      },
    ],
    "/ws",
    [`note with ${ESC}[5m blink`],
  );
  const raw = out.replaceAll(new RegExp(`${ESC}\\[[0-9;]*m`, "g"), "");
  assert.ok(!raw.includes(ESC), JSON.stringify(raw));
  assert.ok(!raw.includes("\u0007") && !raw.includes("\r"), JSON.stringify(raw));
  // The newline in the name is shown, not obeyed: no line of its own that looks like a header.
  assert.doesNotMatch(raw, /^\s*\+\+\+ b\/fake/m);
  assert.match(raw, /gotcha/);
  assert.match(raw, /note: note with/);
});

Deno.test("session diff: past the file cap the rest are named; nothing changed is empty", () => {
  const many = Array.from({ length: DIFF_MAX_FILES + 3 }, (_, i) => ({
    path: `/ws/f${String(i).padStart(4, "0")}.txt`,
    before: absent,
    after: file(`${i}\n`),
  }));
  const out = plain(sessionDiff(many, "/ws"));
  assert.match(out, new RegExp(`^${DIFF_MAX_FILES + 3} files changed`));
  assert.match(out, /… 3 more, without their diffs:\n\s+created\s+f0200\.txt\n/);
  assert.equal((out.match(/^\s+--- \/dev\/null$/gm) ?? []).length, DIFF_MAX_FILES);
  assert.equal(sessionDiff([{ path: "/ws/a", before: file("x"), after: file("x") }], "/ws"), "");
  assert.match(
    sessionDiff([], "/ws", ["1 action without a record"]),
    /no file changed that retie can show/,
  );
});
