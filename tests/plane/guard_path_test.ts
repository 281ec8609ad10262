import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Effect } from "../../src/core/effect.ts";
import type { PostState } from "../../src/plane/undo_plan.ts";
import { openLedger } from "../../src/ledger/ledger.ts";
import type { AnyTool } from "../../src/core/tool.ts";
import type { ApprovalRequest } from "../../src/plane/guard.ts";
import type { EntryKind, LedgerEntry } from "../../src/ledger/types.ts";
import { defaultPolicy } from "../../src/plane/policy.ts";
import { fixture, guardFor, noopTool, shellTool, type Spy, writeTool } from "./plane_fixture.ts";

function kinds(f: ReturnType<typeof fixture>): string[] {
  return f.ledger.entries({ session: f.sink.sessionId }).map((e) => e.kind);
}

Deno.test("guard: the intent is durable before the handler starts", async () => {
  const f = fixture();
  try {
    const seen: string[] = [];
    const spy: Spy = {
      calls: 0,
      onCall() {
        // A second connection to the ledger file sees the intent while the handler runs.
        const other = openLedger(f.ledgerPath);
        try {
          const intents = other.entries({
            session: f.sink.sessionId,
            kinds: ["intent", "outcome"],
          });
          seen.push(...intents.map((e) => `${e.kind}:${e.actionId}`));
        } finally {
          other.close();
        }
      },
    };
    const out = await guardFor(f).run({
      name: "write",
      tool: writeTool(spy),
      args: { path: "a.txt", content: "hello" },
      ctx: f.ctx,
    });
    assert.equal(out.status, "ok");
    assert.equal(spy.calls, 1);
    assert.deepEqual(seen, [`intent:${out.actionId}`]);
    assert.equal(readFileSync(join(f.workspace, "a.txt"), "utf8"), "hello");
    const entries = f.ledger.entries({ actionId: out.actionId! });
    assert.deepEqual(entries.map((e) => e.kind), ["intent", "outcome"]);
    const intent = entries[0].payload;
    assert.equal(intent.class, "reversible");
    assert.equal(intent.decision, "allow");
    assert.equal(intent.rule, "reversible");
    assert.equal(intent.approvedBy, "policy");
    assert.deepEqual(intent.undo, {
      kind: "files",
      files: [{ path: join(f.workspace, "a.txt"), blob: null, mode: null }],
    });
    const outcome = entries[1].payload as { status: string; after: PostState };
    assert.equal(outcome.status, "ok");
    assert.equal(outcome.after.kind, "files");
    assert.match(
      outcome.after.kind === "files" ? String(outcome.after.files[0].sha256) : "",
      /^[0-9a-f]{64}$/,
    );
  } finally {
    f.close();
  }
});

Deno.test("guard: a failing ledger append means the handler is never called", async () => {
  const f = fixture();
  try {
    const spy: Spy = { calls: 0 };
    f.ledger.close(); // the database connection is gone: every append fails
    const out = await guardFor(f).run({
      name: "write",
      tool: writeTool(spy),
      args: { path: "a.txt", content: "x" },
      ctx: f.ctx,
    });
    assert.equal(out.status, "refused");
    assert.equal(out.stage, "record");
    assert.equal(spy.calls, 0);
    assert.equal(existsSync(join(f.workspace, "a.txt")), false);
    assert.match(out.result.output, /not run because it could not be recorded/);
  } finally {
    f.close();
  }
});

Deno.test("guard: reversible claimed with no inverse is refused before execution", async () => {
  const f = fixture();
  try {
    const spy: Spy = { calls: 0 };
    const g = guardFor(f);
    const out = await g.run({
      name: "write",
      tool: writeTool(spy, { brokenUndo: true }),
      args: { path: "a.txt", content: "x" },
      ctx: f.ctx,
    });
    assert.equal(out.status, "refused");
    assert.equal(out.stage, "undo-plan");
    assert.match(out.result.output, /reversible claimed, no inverse/);
    // a path that is a directory cannot have its prior bytes stored
    mkdirSync(join(f.workspace, "d"));
    const dir = await g.run({
      name: "write",
      tool: { ...writeTool(spy), preview: undefined },
      args: { path: "d", content: "x" },
      ctx: f.ctx,
    });
    assert.equal(dir.stage, "undo-plan");
    assert.match(dir.result.output, /reversible claimed, no inverse: .*not a regular file/);
    // a snapshot undo with no snapshot store
    const snapTool: AnyTool = {
      ...writeTool(spy),
      name: "bash",
      classify: (_a, ctx) =>
        Promise.resolve({
          class: "reversible",
          reads: [],
          writes: [],
          readsOutside: [],
          writesOutside: [],
          sandboxed: true,
          network: false,
          external: false,
          summary: "run sandboxed",
          consequence: "reversible",
          reason: "test",
          undo: { kind: "snapshot", root: ctx.workspace, readOnly: [] },
        }),
    };
    const snap = await g.run({
      name: "bash",
      tool: snapTool,
      args: { path: "a", content: "x" },
      ctx: f.ctx,
    });
    assert.equal(snap.stage, "undo-plan");
    assert.match(snap.result.output, /no snapshot store/);
    // "no side effect" claimed by a call that lists a path it writes
    const sly: AnyTool = {
      ...writeTool(spy),
      classify: async (a, ctx) => ({
        ...(await writeTool(spy).classify(a, ctx)),
        class: "none",
        undo: { kind: "none" },
      }),
    };
    const none = await g.run({
      name: "write",
      tool: sly,
      args: { path: "a.txt", content: "x" },
      ctx: f.ctx,
    });
    assert.equal(none.stage, "undo-plan");
    assert.match(none.result.output, /class none claimed, but the call writes .*a\.txt/);
    assert.equal(existsSync(join(f.workspace, "a.txt")), false);
    assert.equal(spy.calls, 0);
    const refusals = f.ledger.entries({ session: f.sink.sessionId, kinds: ["refusal"] });
    assert.equal(refusals.length, 4);
    assert.ok(refusals.every((r) => r.payload.stage === "undo-plan"));
    assert.ok(!kinds(f).includes("intent"));
  } finally {
    f.close();
  }
});

Deno.test("guard: gate deny, unknown tool, headless ask and plan mode never reach the handler", async () => {
  const f = fixture({ classes: ["none", "reversible", "irreversible", "unknown"] });
  try {
    const spy: Spy = { calls: 0 };
    const approvals: ApprovalRequest[] = [];
    const approve = (r: ApprovalRequest) => (approvals.push(r), Promise.resolve(true));
    // unknown tool
    const unknown = await guardFor(f, { approve }).run({
      name: "teleport",
      tool: undefined,
      args: {},
      ctx: f.ctx,
    });
    assert.equal(unknown.stage, "unknown-tool");
    assert.match(unknown.result.output, /unknown tool "teleport"/);
    // class unknown: no rule → deny
    const unclassified: AnyTool = {
      ...noopTool(spy),
      classify: () => Promise.resolve(unknownLike()),
    };
    const u = await guardFor(f, { approve }).run({
      name: "read",
      tool: unclassified,
      args: {},
      ctx: f.ctx,
    });
    assert.equal(u.stage, "gate");
    assert.equal(u.decision, "deny");
    assert.equal(u.rule, null);
    assert.match(u.result.output, /default deny: no rule matches/);
    // headless: irreversible asks → deny, approve never called
    const h = await guardFor(f, { approve, headless: true }).run({
      name: "bash",
      tool: shellTool(spy),
      args: { command: "ls" },
      ctx: f.ctx,
    });
    assert.equal(h.stage, "gate");
    assert.equal(h.rule, "irreversible");
    assert.match(h.result.output, /headless/);
    // plan mode: writes denied
    const p = await guardFor(f, { approve, mode: "plan" }).run({
      name: "write",
      tool: writeTool(spy),
      args: { path: "a", content: "x" },
      ctx: f.ctx,
    });
    assert.equal(p.stage, "gate");
    assert.equal(p.rule, "plan-mode-read-only");
    // write outside the workspace
    const o = await guardFor(f, { approve }).run({
      name: "write",
      tool: writeTool(spy),
      args: { path: join(f.dir, "evil"), content: "x" },
      ctx: f.ctx,
    });
    assert.equal(o.stage, "scope"); // outside the delegated workspace, and the policy denies it too
    assert.equal(o.decision, "deny");
    assert.equal(spy.calls, 0);
    assert.equal(approvals.length, 0);
    const refusals = f.ledger.entries({ session: f.sink.sessionId, kinds: ["refusal"] });
    assert.deepEqual(refusals.map((r) => r.payload.stage), [
      "unknown-tool",
      "gate",
      "gate",
      "gate",
      "scope",
    ]);
    assert.ok(!kinds(f).includes("intent"));
  } finally {
    f.close();
  }
});

function unknownLike(): Effect {
  return {
    class: "unknown",
    reads: [],
    writes: [],
    readsOutside: [],
    writesOutside: [],
    sandboxed: false,
    network: false,
    external: false,
    summary: "x",
    consequence: "x",
    reason: "x",
    undo: { kind: "impossible", why: "x" },
  };
}

Deno.test("guard: invalid arguments name each bad field; classify errors refuse", async () => {
  const f = fixture();
  try {
    const spy: Spy = { calls: 0 };
    const out = await guardFor(f).run({
      name: "write",
      tool: writeTool(spy),
      args: { path: 3, extra: 1 },
      ctx: f.ctx,
    });
    assert.equal(out.stage, "invalid-arguments");
    assert.match(out.result.output, /- path: .*expected string/);
    assert.match(out.result.output, /- content: .*expected string/);
    assert.match(out.result.output, /extra/);
    const broken: AnyTool = {
      ...writeTool(spy),
      classify: () => Promise.reject(new Error("cannot resolve path")),
    };
    const c = await guardFor(f).run({
      name: "write",
      tool: broken,
      args: { path: "a", content: "b" },
      ctx: f.ctx,
    });
    assert.equal(c.stage, "classify");
    assert.match(c.result.output, /cannot resolve path/);
    assert.equal(spy.calls, 0);
  } finally {
    f.close();
  }
});

Deno.test("guard: delegation scope and expiry are refused by the gate", async () => {
  const f = fixture({
    tools: ["read"],
    classes: ["none", "reversible"],
    expires: new Date(Date.now() + 60_000),
  });
  try {
    const spy: Spy = { calls: 0 };
    const w = await guardFor(f).run({
      name: "write",
      tool: writeTool(spy),
      args: { path: "a", content: "x" },
      ctx: f.ctx,
    });
    assert.equal(w.stage, "scope");
    assert.match(w.result.output, /tool write not delegated/);
    const read = noopTool(spy);
    const later = () => new Date(Date.now() + 3600_000);
    const e = await guardFor(f, { now: later }).run({
      name: "read",
      tool: read,
      args: {},
      ctx: f.ctx,
    });
    assert.equal(e.stage, "scope");
    assert.match(e.result.output, /after expiry/);
    assert.equal(spy.calls, 0);
    const ok = await guardFor(f).run({ name: "read", tool: read, args: {}, ctx: f.ctx });
    assert.equal(ok.status, "ok");
    assert.equal(spy.calls, 1);
  } finally {
    f.close();
  }
});

Deno.test("guard: ask goes to the person; a decline is a recorded refusal", async () => {
  const f = fixture();
  try {
    const spy: Spy = { calls: 0 };
    const no = await guardFor(f, { approve: () => Promise.resolve(false) }).run({
      name: "bash",
      tool: shellTool(spy),
      args: { command: "rm -rf build" },
      ctx: f.ctx,
    });
    assert.equal(no.stage, "approval");
    assert.equal(spy.calls, 0);
    let asked: ApprovalRequest | null = null;
    const yes = await guardFor(f, { approve: (r) => ((asked = r), Promise.resolve(true)) }).run({
      name: "bash",
      tool: shellTool(spy),
      args: { command: "make" },
      ctx: f.ctx,
    });
    assert.equal(yes.status, "ok");
    assert.equal(spy.calls, 1);
    assert.equal(asked!.rule, "irreversible");
    assert.equal(asked!.class, "irreversible");
    const intent = f.ledger.entries({ actionId: yes.actionId!, kinds: ["intent"] })[0].payload;
    assert.equal(intent.approvedBy, "user");
    assert.deepEqual(intent.undo, {
      kind: "impossible",
      why: "an unconfined shell command has no stated inverse",
    });
    // headless --yes: allowed without asking, recorded as such
    const y = await guardFor(f, {
      headless: true,
      yes: true,
      approve: () => Promise.reject(new Error("never")),
    }).run({
      name: "bash",
      tool: shellTool(spy),
      args: { command: "make" },
      ctx: f.ctx,
    });
    assert.equal(y.status, "ok");
    assert.equal(
      f.ledger.entries({ actionId: y.actionId!, kinds: ["intent"] })[0].payload.approvedBy,
      "--yes",
    );
  } finally {
    f.close();
  }
});

Deno.test("guard: inspector findings reach the policy and the record", async () => {
  const f = fixture();
  try {
    const spy: Spy = { calls: 0 };
    writeFileSync(
      join(f.workspace, "pay.py"),
      "@login_required\ndef pay(request):\n    return charge(request)\n",
    );
    const out = await guardFor(f, { headless: true }).run({
      name: "write",
      tool: writeTool(spy),
      args: { path: "pay.py", content: "def pay(request):\n    return charge(request)\n" },
      ctx: f.ctx,
    });
    assert.equal(out.status, "refused");
    assert.equal(out.stage, "gate");
    assert.equal(out.rule, "high-severity-finding");
    assert.ok(out.findings.some((x) => x.rule === "auth-check-removed" && x.severity === "high"));
    assert.equal(out.changes.length, 1);
    assert.equal(spy.calls, 0);
    const r = f.ledger.entries({ session: f.sink.sessionId, kinds: ["refusal"] })[0]
      .payload as { findings: { rule: string }[] };
    assert.ok(r.findings.some((x) => x.rule === "auth-check-removed"));
  } finally {
    f.close();
  }
});

Deno.test("guard: two concurrent calls cannot interleave the chain", async () => {
  const f = fixture();
  try {
    const order: string[] = [];
    const slow = (name: string, ms: number): AnyTool => ({
      ...noopTool({ calls: 0 }),
      name,
      handler: async () => {
        order.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, ms));
        order.push(`end ${name}`);
        return { ok: true, output: name };
      },
    });
    // two guards on the same session (as after a mode switch) share one chain
    const [a, b] = await Promise.all([
      guardFor(f).run({ name: "read", tool: slow("a", 30), args: {}, ctx: f.ctx }),
      guardFor(f).run({ name: "read", tool: slow("b", 1), args: {}, ctx: f.ctx }),
    ]);
    assert.deepEqual(order, ["start a", "end a", "start b", "end b"]);
    const seq = f.ledger.entries({ session: f.sink.sessionId, kinds: ["intent", "outcome"] }).map((
      e,
    ) => `${e.kind}:${e.actionId}`);
    assert.deepEqual(seq, [
      `intent:${a.actionId}`,
      `outcome:${a.actionId}`,
      `intent:${b.actionId}`,
      `outcome:${b.actionId}`,
    ]);
  } finally {
    f.close();
  }
});

Deno.test("guard: a handler that throws is recorded as an error outcome", async () => {
  const f = fixture();
  try {
    const boom: AnyTool = {
      ...noopTool({ calls: 0 }),
      handler: () => Promise.reject(new Error("disk full")),
    };
    const out = await guardFor(f).run({ name: "read", tool: boom, args: {}, ctx: f.ctx });
    assert.equal(out.status, "error");
    assert.match(out.result.output, /disk full/);
    const o = f.ledger.entries({ actionId: out.actionId!, kinds: ["outcome"] })[0].payload;
    assert.equal(o.status, "error");
  } finally {
    f.close();
  }
});

Deno.test("guard: a policy, scope input or approver that throws fails closed with a recorded refusal", async () => {
  const f = fixture();
  try {
    const spy: Spy = { calls: 0 };
    const throwingPolicy = {
      ...defaultPolicy(),
      evaluate: () => {
        throw new Error("policy exploded");
      },
    };
    const p = await guardFor(f, { policy: throwingPolicy }).run({
      name: "read",
      tool: noopTool(spy),
      args: {},
      ctx: f.ctx,
    });
    assert.equal(p.status, "refused");
    assert.equal(p.stage, "internal");
    assert.match(p.result.output, /nothing ran: policy exploded/);
    const u = await guardFor(f, {
      untrustedInput: () => {
        throw new Error("flag unreadable");
      },
    }).run({ name: "read", tool: noopTool(spy), args: {}, ctx: f.ctx });
    assert.equal(u.stage, "internal");
    const a = await guardFor(f, { approve: () => Promise.reject(new Error("tty gone")) }).run({
      name: "bash",
      tool: shellTool(spy),
      args: { command: "make" },
      ctx: f.ctx,
    });
    assert.equal(a.status, "refused");
    assert.equal(a.stage, "approval");
    assert.match(a.result.output, /approval failed: tty gone/);
    assert.equal(spy.calls, 0);
    const refusals = f.ledger.entries({ session: f.sink.sessionId, kinds: ["refusal"] });
    assert.deepEqual(refusals.map((r) => r.payload.stage), ["internal", "internal", "approval"]);
    assert.match(String(refusals[0].payload.reason), /policy exploded/);
    assert.ok(!kinds(f).includes("intent"));
  } finally {
    f.close();
  }
});

Deno.test("guard: a handler that returns no result is an error outcome, not a crash", async () => {
  const f = fixture();
  try {
    const odd: AnyTool = {
      ...noopTool({ calls: 0 }),
      handler: () => Promise.resolve(undefined as unknown as { ok: boolean; output: string }),
    };
    const out = await guardFor(f).run({ name: "read", tool: odd, args: {}, ctx: f.ctx });
    assert.equal(out.status, "error");
    assert.match(out.result.output, /returned no result/);
    const o = f.ledger.entries({ actionId: out.actionId!, kinds: ["outcome"] });
    assert.equal(o.length, 1);
    assert.equal(o[0].payload.status, "error");
  } finally {
    f.close();
  }
});

Deno.test("guard: an outcome that cannot be recorded is said, not swallowed", async () => {
  const f = fixture();
  try {
    const spy: Spy = { calls: 0 };
    const sink = {
      sessionId: f.sink.sessionId,
      delegation: f.sink.delegation,
      append: (kind: EntryKind, payload: Record<string, unknown>, actionId?: string | null) => {
        if (kind === "outcome") throw new Error("disk went away");
        return (f.sink.append as (k: EntryKind, p: unknown, a?: string | null) => LedgerEntry)(
          kind,
          payload,
          actionId,
        );
      },
    };
    const out = await guardFor(f, { sink }).run({
      name: "read",
      tool: noopTool(spy),
      args: {},
      ctx: f.ctx,
    });
    assert.equal(spy.calls, 1);
    assert.match(out.result.output, /outcome could not be recorded in the ledger: disk went away/);
    assert.equal(out.result.detail?.outcomeNotRecorded, "disk went away");
    assert.deepEqual(
      f.ledger.entries({ actionId: out.actionId! }).map((e) => e.kind),
      ["intent"],
    );
  } finally {
    f.close();
  }
});

Deno.test("guard: a delegation that expires while the person decides is refused before the intent", async () => {
  const f = fixture({ expires: new Date(Date.now() + 60_000) });
  try {
    const spy: Spy = { calls: 0 };
    let clock = Date.now();
    const out = await guardFor(f, {
      now: () => new Date(clock),
      approve: () => {
        clock += 3600_000; // the person answers an hour later
        return Promise.resolve(true);
      },
    }).run({ name: "bash", tool: shellTool(spy), args: { command: "make" }, ctx: f.ctx });
    assert.equal(out.status, "refused");
    assert.equal(out.stage, "scope");
    assert.match(out.result.output, /after expiry/);
    assert.equal(spy.calls, 0);
    assert.ok(!kinds(f).includes("intent"));
  } finally {
    f.close();
  }
});
