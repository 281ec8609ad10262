/**
 * The common head and tail of two texts, block by block, agree with the character-by-character
 * answer; the new-line flags built on them agree with plain set membership.
 */
import assert from "node:assert/strict";
import { commonPrefix, commonSuffix } from "../../src/inspect/common_span.ts";
import { fileNewLines } from "../../src/inspect/chunk.ts";

function naive(a: string, b: string): [number, number] {
  const max = Math.min(a.length, b.length);
  let p = 0;
  while (p < max && a[p] === b[p]) p++;
  let q = 0;
  while (q < max - p && a[a.length - 1 - q] === b[b.length - 1 - q]) q++;
  return [p, q];
}

/** A deterministic pseudo-random text of `n` lines over a small vocabulary (many repeats). */
function text(seed: number, n: number): string {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) & 0x7fffffff);
  const words = ["a", "bb", "return x", "}", "", "  if (y) {", "z = 1", "# c"];
  return Array.from({ length: n }, () => words[next() % words.length]).join("\n");
}

Deno.test("commonPrefix and commonSuffix match the character-by-character answer", () => {
  for (let s = 1; s < 40; s++) {
    const base = text(s, 3000 + s * 7);
    const at = (s * 7919) % base.length;
    const edits = [
      base.slice(0, at) + "X" + base.slice(at),
      base.slice(0, at) + base.slice(at + 5),
      base + "\ntail",
      "head\n" + base,
      base.slice(0, at),
      base,
    ];
    for (const e of edits) {
      const [p, q] = naive(base, e);
      assert.equal(commonPrefix(base, e), p);
      assert.equal(commonSuffix(base, e, p), q);
    }
  }
  assert.equal(commonSuffix("aa", "aaa", 2), 0);
});

Deno.test("fileNewLines flags exactly the lines the other text lacks", () => {
  for (let s = 1; s < 30; s++) {
    const a = text(s, 400);
    const lines = a.split("\n");
    // Insert, delete and rewrite blocks of lines at spread-out places.
    const b = [
      ...lines.slice(0, 50),
      "new line one",
      ...lines.slice(50, 120),
      ...lines.slice(200, 390),
      ...Array.from({ length: s }, (_, i) => `fresh ${i}`),
      ...lines.slice(390),
    ].join("\n");
    const have = new Set(a.split("\n"));
    const got = fileNewLines(b, a).fresh;
    const want = b.split("\n").map((l) => (have.has(l) ? 0 : 1));
    assert.deepEqual([...got], want);
  }
});
