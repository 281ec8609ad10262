import assert from "node:assert/strict";
import type { LedgerEntry } from "../../src/ledger/mod.ts";
import { renderHtml } from "../../src/ui/replay_html.ts";
import { renderMarkdown } from "../../src/ui/replay_markdown.ts";
import { buildReplay } from "../../src/ui/replay_model.ts";
import { renderText } from "../../src/ui/replay_text.ts";
import { forceColor } from "../../src/ui/color.ts";

let seq = 0;
function entry(
  kind: string,
  payload: Record<string, unknown>,
  actionId: string | null = null,
): LedgerEntry {
  seq++;
  return {
    seq,
    time: `2026-01-01T09:00:${String(seq).padStart(2, "0")}.000Z`,
    session: "ses_0123456789ab",
    kind: kind as LedgerEntry["kind"],
    actionId,
    payloadJson: JSON.stringify(payload),
    payload,
    prev: "0".repeat(64),
    hash: seq.toString(16).padStart(64, "a"),
    signer: "",
    signature: "",
  };
}

const entries = [
  entry("genesis", { objective: "run the tests", model: "m1", provider: "ollama" }),
  entry("event", { type: "turn", text: "run the tests" }),
  entry("intent", {
    tool: "bash",
    args: { command: "deno test" },
    class: "reversible",
    decision: "ask",
    rule: "sandboxed-shell",
    approvedBy: "user",
    effect: { summary: "bash: deno test" },
  }, "act_000000000001"),
  entry("outcome", {
    status: "error",
    detail: { code: 1 },
    excerpt: { head: ["stdout:", "1 failed"], tail: [], omitted: 0, lines: 2 },
  }, "act_000000000001"),
  entry("event", {
    type: "model",
    event: "escalate",
    from: "m1",
    to: "m2",
    reason: "loop",
  }),
  entry("event", {
    type: "compaction",
    reason: "auto",
    focus: null,
    summaryDigest: "ab".repeat(32),
    compactedMessages: 40,
    tokensBefore: 90000,
    tokensAfter: 12000,
  }),
  entry("compaction", { tokensBefore: 90000, tokensAfter: 12000 }),
  entry("intent", {
    tool: "edit",
    args: { path: "a.ts", old_text: "a", new_text: "b" },
    class: "reversible",
    decision: "allow",
    rule: "reversible",
    approvedBy: "remembered (same command approved at #3)",
    effect: { summary: "edit a.ts" },
  }, "act_000000000002"),
  entry("outcome", { status: "ok", detail: { line: 7 } }, "act_000000000002"),
  entry("refusal", {
    tool: "edit",
    args: { path: "views.py" },
    stage: "gate",
    rule: "high-severity-finding",
    class: "reversible",
    reason: "denied",
    findings: [{
      rule: "auth-check-removed",
      severity: "high",
      path: "views.py",
      before: 1,
      after: 0,
      line: 419,
      message: "auth checks removed: 1 → 0",
      detail: "check_permissions() call removed from initial()",
    }],
  }),
  entry("undo", {
    target: "act_000000000002",
    status: "undone",
    reason: "restored",
    restored: ["a.ts"],
  }, "act_000000000002"),
];

Deno.test("every entry shows up: unknown kinds, compaction and model switch events, undos", () => {
  const m = buildReplay(entries, { seq, hash: "f".repeat(64) });
  assert.deepEqual(m.timeline.map((a) => `${a.kind}:${a.tool}`), [
    "prompt:prompt",
    "action:bash",
    "event:model",
    "event:compaction",
    "entry:compaction",
    "action:edit",
    "refusal:edit",
    "undo:undo",
  ]);
  const [, bash, model, compaction, unknown, edit, refusal, undo] = m.timeline;
  assert.equal(refusal.decidedBy, "policy rule high-severity-finding");
  assert.equal(bash.status, "error");
  assert.equal(bash.reason, "exit code 1", "a failed command says its exit code, not 'stdout:'");
  assert.equal(bash.decidedBy, "the person (asked by rule sandboxed-shell)");
  assert.equal(model.summary, "escalate m1 → m2: loop");
  assert.equal(
    compaction.summary,
    "compacted (auto): 40 messages → summary abababababab, ~90000 → ~12000 tokens",
  );
  assert.equal(unknown.summary, "tokensBefore=90000 tokensAfter=12000");
  assert.equal(edit.decidedBy, "remembered (same command approved at #3) (rule reversible)");
  assert.equal(edit.diffs[0].hunks[0].oldStart, 7, "an old ledger's diff is placed at its line");
  assert.equal(edit.diffs[0].recorded, false);
  assert.equal(edit.undo?.status, "undone");
  assert.equal(undo.status, "undone");
  assert.equal(m.totals.undone, 1);
  assert.equal(m.totals.failed, 1);

  forceColor(false);
  const text = renderText(m);
  const md = renderMarkdown(m);
  const html = renderHtml(m);
  for (const out of [text, md.replace(/\\(.)/g, "$1"), html]) {
    assert.ok(out.includes("compacted (auto): 40 messages"), "compaction event shown");
    assert.ok(out.includes("tokensBefore=90000"), "unknown entry kind shown");
    assert.ok(out.includes("m1 → m2"), "model switch shown");
    assert.ok(out.includes("exit code 1"), "exit code shown");
    assert.ok(out.includes("remembered (same command approved at #3)"), "approver shown");
    assert.ok(
      out.includes("auth-check-removed (1 → 0) at views.py:419 — check_permissions() call removed"),
      "a finding with its file, line and construct",
    );
  }
  forceColor(null);
});
