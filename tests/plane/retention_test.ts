/** Retention of undo data: age policy, size cap, what undo says afterwards, `retie gc`. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadRetention, pruneUndoData } from "../../src/plane/retention.ts";
import { isolatedEnv, runRetie } from "../helpers/retie_process.ts";
import { stagedFixture } from "./staged_fixture.ts";

const policy = { undoRetentionDays: 30, undoMaxMiB: 0, autoPrune: true };

Deno.test("retention: undo data older than the policy is pruned, recorded, and undo says so", async () => {
  const s = stagedFixture();
  try {
    Deno.writeTextFileSync(join(s.ws, "a.txt"), "the prior bytes of a\n");
    Deno.writeTextFileSync(join(s.ws, "b.txt"), "the prior bytes of b\n");
    const one = await s.bash("echo new > a.txt");
    const two = await s.bash("echo new > b.txt");
    const deps = { ledger: s.f.ledger, blobs: s.f.blobs, sink: s.f.sink };

    // Nothing is old yet.
    assert.deepEqual(pruneUndoData(deps, policy).actions, []);
    // 31 days later both actions' data goes.
    const later = new Date(Date.now() + 31 * 86_400_000);
    const dry = pruneUndoData(deps, policy, { now: later, dryRun: true });
    assert.deepEqual(dry.actions.sort(), [one.actionId, two.actionId].sort());
    assert.ok(dry.bytes > 0);
    const r = pruneUndoData(deps, policy, { now: later });
    assert.equal(r.actions.length, 2);
    assert.ok(r.blobs >= 2, `deleted ${r.blobs} blobs`);
    const u = await s.undo(one.actionId!);
    assert.equal(u.status, "refused");
    assert.match(u.reason, new RegExp(`undo data pruned on ${later.toISOString().slice(0, 10)}`));
    assert.equal(Deno.readTextFileSync(join(s.ws, "a.txt")), "new\n");
    // Pruned once: a second run finds nothing more.
    assert.deepEqual(pruneUndoData(deps, policy, { now: later }).actions, []);
  } finally {
    s.close();
  }
});

Deno.test("retention: the size cap prunes the oldest first and keeps blobs others still need", async () => {
  const s = stagedFixture();
  try {
    const big = "x".repeat(600_000) + "\n";
    Deno.writeTextFileSync(join(s.ws, "a.txt"), big);
    Deno.writeTextFileSync(join(s.ws, "same.txt"), big); // same bytes: the same blob
    const one = await s.bash("echo 1 > a.txt");
    const two = await s.bash("echo 2 > same.txt");
    const deps = { ledger: s.f.ledger, blobs: s.f.blobs, sink: s.f.sink };
    // Cap below the two actions' data (each ~0.6 MB, one shared blob): both hold it, so the
    // oldest is pruned but the shared blob stays for the newer one.
    const r = pruneUndoData(deps, { undoRetentionDays: 0, undoMaxMiB: 0.9, autoPrune: true });
    assert.deepEqual(r.actions, [one.actionId]);
    assert.equal(r.bytes, 0, "the blob is still needed by the newer action");
    const u2 = await s.undo(two.actionId!);
    assert.equal(u2.status, "undone", u2.reason);
    assert.equal(Deno.readTextFileSync(join(s.ws, "same.txt")), big);
    const u1 = await s.undo(one.actionId!);
    assert.match(u1.reason, /undo data pruned on/);
  } finally {
    s.close();
  }
});

Deno.test("retention: a bad retention.json is a clear error; retie gc --dry-run reports", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    Deno.writeTextFileSync(join(dir, "retention.json"), '{"undoRetentionDays": "soon"}');
    assert.throws(() => loadRetention(dir), /retention\.json: not valid retention settings/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
  const s = stagedFixture();
  const home = isolatedEnv();
  try {
    Deno.writeTextFileSync(join(s.ws, "a.txt"), "a\n");
    await s.bash("echo b > a.txt");
    s.f.sink.close();
    const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME") ?? "/root"}/.cache/deno`;
    const env = { ...home.env, DENO_DIR: denoDir };
    const r = await runRetie(
      ["--ledger", s.f.ledgerPath, "gc", "--older-than", "0", "--max-size", "0", "--dry-run"],
      { env },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /gc: would prune the undo data of 0 action/);
    const bad = await runRetie(["--ledger", s.f.ledgerPath, "gc", "--older-than", "x"], { env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--older-than x: not a number/);
  } finally {
    s.close();
    Deno.removeSync(home.dir, { recursive: true });
  }
});
