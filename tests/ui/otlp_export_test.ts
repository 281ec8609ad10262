/**
 * `retie export --otlp` against a real OTLP/HTTP receiver on 127.0.0.1 that decodes the protobuf
 * request per the OTLP spec: the span tree (session → turns → answers and actions), GenAI and
 * retie attributes, ids derived from the ledger, and nothing secret in what arrives.
 */
import assert from "node:assert/strict";
import { runRetie } from "../helpers/retie_process.ts";
import { FIRST_PROMPT, recordFullSession, SECOND_PROMPT } from "../helpers/full_session.ts";
import { type ReceivedSpan, startOtlpReceiver } from "../helpers/otlp_receiver.ts";

const s = await recordFullSession();

async function exportTo(args: string[] = []): Promise<{ spans: ReceivedSpan[]; code: number }> {
  const rx = startOtlpReceiver();
  try {
    const r = await runRetie(["--ledger", s.ledgerPath, "export", "--otlp", rx.url, ...args], {
      env: s.env,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /exported 1 session as \d+ spans to http:\/\/127\.0\.0\.1:\d+\/v1\/traces/,
    );
    assert.ok(rx.requests.length > 0);
    for (const q of rx.requests) {
      assert.equal(q.path, "/v1/traces");
      assert.equal(q.contentType, "application/x-protobuf");
    }
    return { spans: [...rx.spans], code: r.code };
  } finally {
    await rx.close();
  }
}

Deno.test("export: one trace, a session span, a span per turn, answers and actions under their turn", async () => {
  const { spans } = await exportTo();
  const json = await runRetie(["--ledger", s.ledgerPath, "replay", "--json", s.sessionId], {
    env: s.env,
  });
  const model = JSON.parse(json.stdout);
  assert.equal(new Set(spans.map((x) => x.traceId)).size, 1, "one trace per session");
  assert.equal(spans[0].traceId, model.genesisHash.slice(0, 32));
  const roots = spans.filter((x) => x.parentSpanId === "");
  assert.equal(roots.length, 1);
  const root = roots[0];
  assert.equal(root.name, "invoke_agent retie");
  assert.equal(root.attributes["gen_ai.operation.name"], "invoke_agent");
  assert.equal(root.attributes["retie.session.id"], s.sessionId);
  assert.equal(root.attributes["retie.ledger.head.hash"], model.head.hash);
  assert.equal(root.resource["service.name"], "retie");
  const turns = spans.filter((x) => x.parentSpanId === root.spanId);
  assert.deepEqual(turns.map((t) => t.name).sort(), ["turn 1", "turn 2"]);
  assert.deepEqual(
    turns.sort((a, b) => Number(a.start - b.start)).map((t) => t.attributes["retie.prompt"]),
    [FIRST_PROMPT, SECOND_PROMPT],
  );
  const under = (t: ReceivedSpan) =>
    spans.filter((x) => x.parentSpanId === t.spanId).sort((a, b) =>
      Number(a.attributes["retie.ledger.seq"]) - Number(b.attributes["retie.ledger.seq"])
    ).map((x) => x.name);
  const [t1, t2] = turns;
  assert.deepEqual(under(t1), [
    "chat scripted-full",
    "execute_tool read",
    "execute_tool edit",
    "execute_tool edit",
    "execute_tool edit",
    "chat scripted-full",
  ]);
  assert.deepEqual(under(t2), ["execute_tool write", "chat scripted-full"]);
  // Every span in the tree, parents before use: no orphan.
  const ids = new Set(spans.map((x) => x.spanId));
  for (const x of spans) assert.ok(x.parentSpanId === "" || ids.has(x.parentSpanId), x.name);
  assert.equal(ids.size, spans.length, "span ids are unique");
  for (const x of spans) assert.ok(x.end >= x.start, `${x.name} ends after it starts`);

  // Each action span names its ledger entry, class, decision, approver; failures are errors.
  const bySeq = new Map(model.timeline.map((a: { seq: number }) => [a.seq, a]));
  for (const x of spans.filter((x) => x.name.startsWith("execute_tool"))) {
    const item = bySeq.get(Number(x.attributes["retie.ledger.seq"])) as Record<string, string>;
    assert.ok(item, x.name);
    assert.equal(x.attributes["retie.ledger.hash"], item.hash);
    assert.equal(x.spanId, item.hash.slice(0, 16));
    assert.equal(x.attributes["gen_ai.tool.name"], item.tool);
    assert.equal(x.attributes["retie.class"], item.class);
    assert.equal(x.attributes["retie.decision"], item.decision);
    assert.equal(x.attributes["retie.approver"], item.decidedBy);
    if (item.actionId) assert.equal(x.attributes["retie.action.id"], item.actionId);
  }
  const failed = spans.find((x) => x.attributes["retie.action.id"] === s.failedEdit)!;
  assert.equal(failed.status.code, 2, "a failed action is an error span");
  assert.match(failed.status.message, /old_text is not in the file/);
  const good = spans.find((x) => x.attributes["retie.action.id"] === s.goodEdit)!;
  assert.equal(good.status.code, 1);
  assert.match(String(good.attributes["retie.undo"]), /^undone #\d+$/);
  const refused = spans.find((x) => x.attributes["retie.status"] === "refused")!;
  assert.equal(refused.attributes["retie.approver"], "policy rule high-severity-finding");
  assert.deepEqual(refused.events.map((e) => e.attributes["retie.finding.rule"]), [
    "auth-check-removed",
  ]);
  const chat = spans.find((x) => x.name.startsWith("chat"))!;
  assert.equal(chat.attributes["gen_ai.operation.name"], "chat");
  assert.equal(chat.attributes["gen_ai.request.model"], "scripted-full");

  // What stays home: answer text, arguments, diffs, keys.
  const all = JSON.stringify(spans, (_k, v) => typeof v === "bigint" ? String(v) : v);
  assert.ok(!all.includes("Let me look"), "model answer text is not exported");
  assert.ok(!all.includes("return a + b"), "arguments and diffs are not exported");
  assert.ok(!/signature|BEGIN .*KEY/.test(all));
});

Deno.test("export twice sends the same ids (a backend de-duplicates a re-export)", async () => {
  const a = await exportTo([s.sessionId]);
  const b = await exportTo([s.sessionId]);
  const ids = (x: ReceivedSpan[]) => x.map((y) => `${y.traceId}/${y.spanId}`).sort();
  assert.deepEqual(ids(a.spans), ids(b.spans));
});

Deno.test("export: bad input is named (no --otlp, a non-http URL, an unknown session)", async () => {
  const env = { env: s.env };
  const none = await runRetie(["--ledger", s.ledgerPath, "export"], env);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /--otlp URL/);
  const ftp = await runRetie(["--ledger", s.ledgerPath, "export", "--otlp", "ftp://x"], env);
  assert.equal(ftp.code, 2);
  assert.match(ftp.stderr, /http\(s\) URL/);
  const unknown = await runRetie(
    ["--ledger", s.ledgerPath, "export", "--otlp", "http://127.0.0.1:9", "ses_000000000000"],
    env,
  );
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no session ses_000000000000/);
});

Deno.test("export to a collector that is down fails with exit 1, naming the failure", async () => {
  const rx = startOtlpReceiver();
  const url = rx.url;
  await rx.close();
  const r = await runRetie(["--ledger", s.ledgerPath, "export", "--otlp", url], { env: s.env });
  assert.equal(r.code, 1, r.stdout);
  assert.match(r.stderr, /export request\(s\) failed/);
});
