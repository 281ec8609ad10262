import assert from "node:assert/strict";
import {
  DIFF_LINES,
  EXCERPT_LINES,
  maskSecrets,
  outputExcerpt,
  recordedDiffs,
} from "../../src/plane/evidence.ts";

Deno.test("an excerpt keeps the first and last lines and says how many were left out", () => {
  const out = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
  const x = outputExcerpt(out);
  assert.equal(x.head.length, EXCERPT_LINES);
  assert.equal(x.tail.length, EXCERPT_LINES);
  assert.equal(x.head[0], "line 1");
  assert.equal(x.tail.at(-1), "line 100");
  assert.equal(x.omitted, 100 - 2 * EXCERPT_LINES);
  assert.equal(x.lines, 100);
  const short = outputExcerpt("stdout:\nok\nexit code 0");
  assert.deepEqual(short, {
    head: ["stdout:", "ok", "exit code 0"],
    tail: [],
    omitted: 0,
    lines: 3,
  });
  assert.ok(outputExcerpt("x".repeat(5000)).head[0].length < 300, "long lines are cut");
});

Deno.test("likely credentials are masked before an excerpt is recorded", () => {
  const cases: [string, RegExp][] = [
    ["API_KEY=abcdef1234567890", /^API_KEY=\[masked\]$/],
    ['"password": "hunter2hunter2"', /"password": "\[masked\]"/],
    ["Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.x.y", /Bearer \[masked\]/],
    ["key sk-proj-ABCDEFGHIJKLMNOPQRST1234", /^key \[masked\]$/],
    ["ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", /^\[masked\]$/],
    ["aws AKIAABCDEFGHIJKLMNOP", /^aws \[masked\]$/],
    ["-----BEGIN OPENSSH PRIVATE KEY-----", /^\[masked\]$/],
  ];
  for (const [line, want] of cases) assert.match(maskSecrets(line), want, line);
  assert.equal(maskSecrets("4 passed, 0 failed"), "4 passed, 0 failed", "ordinary text is kept");
  assert.match(outputExcerpt("TOKEN=abcdefghijkl\nok").head[0], /\[masked\]/);
});

Deno.test("a recorded diff has context, line numbers, relative paths and a bound", () => {
  const before = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join("\n") + "\n";
  const after = before.replace("l10\n", "L10\n");
  const [d] = recordedDiffs([{ path: "/ws/src/a.txt", before, after }], "/ws");
  assert.equal(d.path, "src/a.txt");
  assert.equal(d.change, "modify");
  assert.equal(d.hunks.length, 1);
  assert.equal(d.hunks[0].oldStart, 7);
  assert.deepEqual(d.hunks[0].lines, [" l7", " l8", " l9", "-l10", "+L10", " l11", " l12", " l13"]);
  const [created] = recordedDiffs([{ path: "/ws/new.txt", before: null, after: "a\nb\n" }], "/ws");
  assert.equal(created.change, "create");
  assert.deepEqual(created.hunks[0].lines, ["+a", "+b"]);
  const big = Array.from({ length: DIFF_LINES * 2 }, (_, i) => `${i}`).join("\n");
  const [huge] = recordedDiffs([{ path: "/ws/big", before: null, after: big }], "/ws");
  const kept = huge.hunks.reduce((n, h) => n + h.lines.length, 0);
  assert.equal(kept, DIFF_LINES);
  assert.equal(huge.omitted, DIFF_LINES * 2 - DIFF_LINES);
});
