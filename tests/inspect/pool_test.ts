import assert from "node:assert/strict";
import { inspectAll, poolSize } from "../../src/inspect/pool.ts";
import { inspectText, loadParsers } from "../../src/inspect/mod.ts";
import { loadCorpus } from "./corpus/load.ts";

/** Real guard removals and their reverses: edits with findings and edits without. */
function edits(n: number) {
  const out: { path: string; before: string | null; after: string | null }[] = [];
  for (const g of loadCorpus().guards.slice(0, n / 2)) {
    out.push({ path: g.path, before: g.before, after: g.after });
    out.push({ path: g.path, before: g.after, after: g.before });
  }
  return out;
}

Deno.test("inspection pool: workers give each edit the findings it gets alone, in order", async () => {
  await loadParsers();
  const all = edits(90);
  const alone = all.map((e) => inspectText(e.path, e.before, e.after));
  assert.ok(alone.some((f) => f.length > 0) && alone.some((f) => f.length === 0));
  assert.deepEqual(await inspectAll(all, { workers: 2 }), alone);
  // More workers than edits, and none: the same.
  assert.deepEqual(await inspectAll(all.slice(0, 3), { workers: 4 }), alone.slice(0, 3));
  assert.deepEqual(await inspectAll(all.slice(0, 5), { workers: 0 }), alone.slice(0, 5));
  assert.deepEqual(await inspectAll([], { workers: 2 }), []);
});

Deno.test("inspection pool: workers that fail leave their edits to the main thread, none lost", async () => {
  await loadParsers();
  const all = edits(20);
  const alone = all.map((e) => inspectText(e.path, e.before, e.after));
  const failing = new URL("./fixtures/failing_worker.ts", import.meta.url);
  assert.deepEqual(await inspectAll(all, { workers: 2, workerUrl: failing }), alone);
});

Deno.test("inspection pool: no workers for a few edits or one core; at most four", () => {
  assert.equal(poolSize(10, 8), 0);
  assert.equal(poolSize(500, 1), 0);
  assert.equal(poolSize(500, 2), 2);
  assert.equal(poolSize(500, 16), 4);
});
