import assert from "node:assert/strict";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { AnyTool, ToolContext } from "../../src/core/tool.ts";
import { storePaths } from "../../src/core/dirs.ts";
import { issueDelegation } from "../../src/ledger/delegation.ts";
import { generateKeyPair } from "../../src/ledger/keys.ts";
import { openLedger } from "../../src/ledger/ledger.ts";
import { undoAction, undoAll } from "../../src/plane/undo.ts";
import { DirSnapshotStore } from "../../src/snapshot/store.ts";
import {
  fixture,
  guardFor,
  shellTool,
  type Spy,
  startSession,
  writeTool,
} from "./plane_fixture.ts";

const read = (p: string) => readFileSync(p, "utf8");

Deno.test("undo: restores prior bytes and mode, deletes created files, and is recorded", async () => {
  const f = fixture();
  try {
    const a = join(f.workspace, "a.txt");
    writeFileSync(a, "v1");
    chmodSync(a, 0o640);
    const spy: Spy = { calls: 0 };
    const g = guardFor(f);
    const w1 = await g.run({
      name: "write",
      tool: writeTool(spy),
      args: { path: "a.txt", content: "v2" },
      ctx: f.ctx,
    });
    chmodSync(a, 0o755); // the mode change belongs to the action's state too
    const w2 = await g.run({
      name: "write",
      tool: writeTool(spy),
      args: { path: "new.txt", content: "n" },
      ctx: f.ctx,
    });
    assert.equal(read(a), "v2");
    const deps = { ledger: f.ledger, sink: f.sink, blobs: f.blobs, snapshots: null };
    const r2 = await undoAction(w2.actionId!, deps);
    assert.equal(r2.status, "undone");
    assert.equal(existsSync(join(f.workspace, "new.txt")), false);
    const r1 = await undoAction(w1.actionId!, deps);
    assert.equal(r1.status, "undone", r1.reason);
    assert.deepEqual(r1.restored, [a]);
    assert.equal(read(a), "v1");
    assert.equal(statSync(a).mode & 0o777, 0o640);
    const undo = f.ledger.entries({ actionId: w1.actionId!, kinds: ["undo"] });
    assert.equal(undo.length, 1);
    assert.deepEqual(undo[0].payload, {
      target: w1.actionId,
      status: "undone",
      reason: r1.reason,
      restored: [a],
    });
    // not undone twice
    const again = await undoAction(w1.actionId!, deps);
    assert.equal(again.status, "skipped");
    assert.match(again.reason, /already undone/);
    assert.equal(f.ledger.entries({ actionId: w1.actionId!, kinds: ["undo"] }).length, 1);
  } finally {
    f.close();
  }
});

Deno.test("undo: directories a write created for a new file go with it, unless others use them", async () => {
  const f = fixture();
  try {
    const mkWrite: AnyTool = {
      ...writeTool({ calls: 0 }),
      handler: (args: { path: string; content: string }, ctx: ToolContext) => {
        const p = join(ctx.workspace, args.path);
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, args.content);
        return Promise.resolve({ ok: true, output: "ok" });
      },
    };
    const g = guardFor(f);
    const a = await g.run({
      name: "write",
      tool: mkWrite,
      args: { path: "sub/deeper/n.txt", content: "n" },
      ctx: f.ctx,
    });
    const b = await g.run({
      name: "write",
      tool: mkWrite,
      args: { path: "other/x/m.txt", content: "m" },
      ctx: f.ctx,
    });
    writeFileSync(join(f.workspace, "other", "keep.txt"), "someone else's");
    const deps = { ledger: f.ledger, sink: f.sink, blobs: f.blobs, snapshots: null };
    assert.equal((await undoAction(a.actionId!, deps)).status, "undone");
    assert.equal(existsSync(join(f.workspace, "sub")), false);
    assert.equal((await undoAction(b.actionId!, deps)).status, "undone");
    assert.equal(existsSync(join(f.workspace, "other", "x")), false);
    assert.equal(read(join(f.workspace, "other", "keep.txt")), "someone else's");
    assert.deepEqual(Deno.readDirSync(f.workspace).toArray().map((e) => e.name), ["other"]);
  } finally {
    f.close();
  }
});

Deno.test("undo: a symlink planted at the path since the action is replaced, not written through", async () => {
  const f = fixture();
  try {
    const a = join(f.workspace, "a.txt");
    writeFileSync(a, "v1");
    const outside = join(f.dir, "outside.txt");
    writeFileSync(outside, "v2"); // same bytes as the action left, so the clobber check passes
    const out = await guardFor(f).run({
      name: "write",
      tool: writeTool({ calls: 0 }),
      args: { path: "a.txt", content: "v2" },
      ctx: f.ctx,
    });
    rmSync(a);
    symlinkSync(outside, a);
    const deps = { ledger: f.ledger, sink: f.sink, blobs: f.blobs, snapshots: null };
    // A symlink where the action left a file is a change (its target is not read), so the undo
    // asks for --force; forced, it replaces the link.
    const first = await undoAction(out.actionId!, deps);
    assert.equal(first.status, "refused", first.reason);
    assert.match(first.reason, /a\.txt: modified since the action/);
    const r = await undoAction(out.actionId!, { ...deps, force: true });
    assert.equal(r.status, "undone", r.reason);
    assert.equal(read(outside), "v2", "the file outside the workspace is untouched");
    assert.equal(lstatSync(a).isSymbolicLink(), false);
    assert.equal(read(a), "v1");
  } finally {
    f.close();
  }
});

Deno.test("undo: refuses to clobber later changes and says what differs; --force overrides", async () => {
  const f = fixture();
  try {
    const a = join(f.workspace, "a.txt");
    writeFileSync(a, "v1");
    const out = await guardFor(f).run({
      name: "write",
      tool: writeTool({ calls: 0 }),
      args: { path: "a.txt", content: "v2" },
      ctx: f.ctx,
    });
    writeFileSync(a, "someone else's edit");
    const deps = { ledger: f.ledger, sink: f.sink, blobs: f.blobs, snapshots: null };
    const r = await undoAction(out.actionId!, deps);
    assert.equal(r.status, "refused");
    assert.deepEqual(r.differs, [`${a}: modified since the action`]);
    assert.match(r.reason, /--force/);
    assert.equal(read(a), "someone else's edit");
    assert.equal(
      f.ledger.entries({ actionId: out.actionId!, kinds: ["undo"] })[0].payload.status,
      "refused",
    );
    const forced = await undoAction(out.actionId!, { ...deps, force: true });
    assert.equal(forced.status, "undone");
    assert.match(forced.reason, /forced over/);
    assert.equal(read(a), "v1");
  } finally {
    f.close();
  }
});

Deno.test("undo_all: newest first, skips the irreversible action and says so, walks sub-delegations", async () => {
  const f = fixture();
  try {
    const spy: Spy = { calls: 0 };
    const g = guardFor(f);
    const a = join(f.workspace, "a.txt");
    writeFileSync(a, "orig");
    const w1 = await g.run({
      name: "write",
      tool: writeTool(spy),
      args: { path: "a.txt", content: "one" },
      ctx: f.ctx,
    });
    const sh = await g.run({
      name: "bash",
      tool: shellTool(spy),
      args: { command: "make" },
      ctx: f.ctx,
    });
    const w2 = await g.run({
      name: "write",
      tool: writeTool(spy),
      args: { path: "a.txt", content: "two" },
      ctx: f.ctx,
    });
    // a sub-agent session in the same ledger, delegated from this session's delegation
    const subKey = generateKeyPair();
    const subDelegation = issueDelegation(f.agentKey, subKey.publicKey, {
      workspace: f.workspace,
      classes: ["none", "reversible"],
      tools: ["write"],
      notBefore: new Date(Date.now() - 1000),
      expires: new Date(Date.now() + 600_000),
    }, f.sink.delegation);
    const sub = startSession(
      f.ledger,
      f.userKey,
      subKey,
      subDelegation,
      f.workspace,
      f.sink.sessionId,
    );
    const ctx: ToolContext = { ...f.ctx, sessionId: sub.sessionId };
    const w3 = await guardFor(f, { sink: sub }).run({
      name: "write",
      tool: writeTool(spy),
      args: { path: "b.txt", content: "sub" },
      ctx,
    });
    assert.equal(w3.status, "ok");
    // an unrelated session is not touched
    const otherKey = generateKeyPair();
    const other = startSession(
      f.ledger,
      f.userKey,
      otherKey,
      issueDelegation(f.userKey, otherKey.publicKey, {
        workspace: f.workspace,
        classes: ["reversible"],
        tools: ["*"],
        notBefore: new Date(Date.now() - 1000),
        expires: new Date(Date.now() + 600_000),
      }),
      f.workspace,
    );
    const w4 = await guardFor(f, { sink: other }).run({
      name: "write",
      tool: writeTool(spy),
      args: { path: "c.txt", content: "other" },
      ctx: { ...f.ctx, sessionId: other.sessionId },
    });
    const deps = { ledger: f.ledger, sink: f.sink, blobs: f.blobs, snapshots: null };
    const reports = await undoAll(f.sink.sessionId, deps);
    assert.deepEqual(reports.map((r) => [r.target, r.status]), [
      [w3.actionId, "undone"],
      [w2.actionId, "undone"],
      [sh.actionId, "skipped"],
      [w1.actionId, "undone"],
    ]);
    assert.match(reports[2].reason, /not reversible \(class irreversible\)/);
    assert.equal(read(a), "orig");
    assert.equal(existsSync(join(f.workspace, "b.txt")), false);
    assert.equal(read(join(f.workspace, "shell.log")), "ran\n"); // skipped, never claimed undone
    assert.equal(read(join(f.workspace, "c.txt")), "other");
    assert.equal(f.ledger.entries({ actionId: w4.actionId!, kinds: ["undo"] }).length, 0);
    const skip = f.ledger.entries({ actionId: sh.actionId!, kinds: ["undo"] })[0].payload;
    assert.equal(skip.status, "skipped");
    // a second pass undoes nothing twice
    const again = await undoAll(f.sink.sessionId, deps);
    assert.ok(again.every((r) => r.status === "skipped"));
    assert.equal(read(a), "orig");
  } finally {
    f.close();
  }
});

Deno.test("undo: an action with no outcome (crashed mid-run) is refused unless forced, then restored", async () => {
  const f = fixture();
  try {
    const crash: AnyTool = {
      ...writeTool({ calls: 0 }),
      handler: (args: { path: string; content: string }, ctx: ToolContext) => {
        writeFileSync(join(ctx.workspace, args.path), args.content);
        f.ledger.close(); // the process "dies": the outcome cannot be written
        return Promise.resolve({ ok: true, output: "ok" });
      },
    };
    const out = await guardFor(f).run({
      name: "write",
      tool: crash,
      args: { path: "a.txt", content: "x" },
      ctx: f.ctx,
    });
    assert.equal(out.status, "ok");
    const ledger = openLedger(f.ledgerPath);
    try {
      const key = generateKeyPair();
      const sink = startSession(
        ledger,
        f.userKey,
        key,
        issueDelegation(f.userKey, key.publicKey, {
          workspace: f.workspace,
          classes: ["reversible"],
          tools: ["undo"],
          notBefore: new Date(Date.now() - 1000),
          expires: new Date(Date.now() + 600_000),
        }),
        f.workspace,
      );
      const deps = { ledger, sink, blobs: f.blobs, snapshots: null };
      const r = await undoAction(out.actionId!, deps);
      assert.equal(r.status, "refused");
      assert.match(r.reason, /no recorded outcome.*--force/);
      assert.equal(read(join(f.workspace, "a.txt")), "x");
      // the inverse was prepared before the action ran: forced, it brings the prior state back
      const forced = await undoAction(out.actionId!, { ...deps, force: true });
      assert.equal(forced.status, "undone", forced.reason);
      assert.match(forced.reason, /forced over: the action has no recorded outcome/);
      assert.equal(existsSync(join(f.workspace, "a.txt")), false);
      assert.deepEqual(
        ledger.entries({ actionId: out.actionId!, kinds: ["undo"] }).map((e) => e.payload.status),
        ["refused", "undone"],
      );
      sink.close();
    } finally {
      ledger.close();
    }
  } finally {
    f.close();
  }
});

Deno.test("undo: a snapshot action is restored from the real snapshot store", async () => {
  const f = fixture();
  const snapshots = new DirSnapshotStore(storePaths(f.ledgerPath).snapshots);
  try {
    writeFileSync(join(f.workspace, "keep.txt"), "keep");
    const sandboxed: AnyTool = {
      ...shellTool({ calls: 0 }),
      classify: (_a: unknown, ctx: ToolContext) =>
        Promise.resolve({
          class: "reversible",
          reads: [],
          writes: [],
          readsOutside: [],
          writesOutside: [],
          sandboxed: true,
          network: false,
          external: false,
          summary: "run sandboxed: rm keep.txt; touch junk",
          consequence: "reversible: workspace snapshot",
          reason: "sandboxed shell",
          undo: { kind: "snapshot", root: ctx.workspace, readOnly: [] },
        }),
      handler: (_a: unknown, ctx: ToolContext) => {
        Deno.removeSync(join(ctx.workspace, "keep.txt"));
        writeFileSync(join(ctx.workspace, "junk"), "junk");
        return Promise.resolve({ ok: true, output: "" });
      },
    };
    const out = await guardFor(f, { snapshots }).run({
      name: "bash",
      tool: sandboxed,
      args: { command: "x" },
      ctx: f.ctx,
    });
    assert.equal(out.status, "ok", out.result.output);
    const intent = f.ledger.entries({ actionId: out.actionId!, kinds: ["intent"] })[0]
      .payload as { undo: { kind: string } };
    assert.equal(intent.undo.kind, "snapshot");
    const deps = { ledger: f.ledger, sink: f.sink, blobs: f.blobs, snapshots };
    writeFileSync(join(f.workspace, "later.txt"), "later");
    const refused = await undoAction(out.actionId!, deps);
    assert.equal(refused.status, "refused");
    assert.deepEqual(refused.differs, ["later.txt: added since the action"]);
    Deno.removeSync(join(f.workspace, "later.txt"));
    const r = await undoAction(out.actionId!, deps);
    assert.equal(r.status, "undone", r.reason);
    assert.equal(read(join(f.workspace, "keep.txt")), "keep");
    assert.equal(existsSync(join(f.workspace, "junk")), false);
  } finally {
    snapshots.close();
    f.close();
  }
});
