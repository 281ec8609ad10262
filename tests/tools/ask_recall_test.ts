import assert from "node:assert/strict";
import { askTool, HEADLESS_ANSWER } from "../../src/tools/ask.ts";
import { recallTool } from "../../src/tools/recall.ts";
import { call, fixture } from "./tool_ctx.ts";

Deno.test("ask returns the person's answer; class none", async () => {
  const asked: string[] = [];
  const f = fixture({
    services: { ask: (q) => (asked.push(q), Promise.resolve("use port 8080")) },
  });
  try {
    const eff = await askTool.classify(askTool.schema.parse({ question: "Which port?" }), f.ctx);
    assert.equal(eff.class, "none");
    assert.deepEqual(eff.undo, { kind: "none" });
    const r = await call(askTool, f.ctx, { question: "Which port?" });
    assert.deepEqual([r.ok, r.output], [true, "use port 8080"]);
    assert.deepEqual(asked, ["Which port?"]);
  } finally {
    f.cleanup();
  }
});

Deno.test("ask in a headless run tells the model to go on by itself", async () => {
  const nobody = fixture({ services: { ask: () => Promise.resolve(null) } });
  const headless = fixture({
    headless: true,
    services: { ask: () => Promise.reject(new Error("must not be called")) },
  });
  try {
    for (const f of [nobody, headless]) {
      const r = await call(askTool, f.ctx, { question: "Which port?" });
      assert.equal(r.ok, false);
      assert.equal(r.output, HEADLESS_ANSWER);
    }
    assert.match(HEADLESS_ANSWER, /^no one is at the terminal \(headless run\)/);
  } finally {
    nobody.cleanup();
    headless.cleanup();
  }
});

Deno.test("recall pages through a stored result via the injected service", async () => {
  const stored = "0123456789".repeat(5000);
  const calls: [string, number, number][] = [];
  const f = fixture({
    services: {
      recall: (ref, offset, length) => {
        calls.push([ref, offset, length]);
        if (ref !== "r1") return Promise.reject(new Error(`no stored result ${ref}`));
        return Promise.resolve(stored.slice(offset, offset + length));
      },
    },
  });
  try {
    const eff = await recallTool.classify(recallTool.schema.parse({ ref: "r1" }), f.ctx);
    assert.equal(eff.class, "none");
    const first = await call(recallTool, f.ctx, { ref: "r1" });
    assert.equal(first.output.length, 20_000);
    const page = await call(recallTool, f.ctx, { ref: "r1", offset: 3, length: 4 });
    assert.equal(page.output, "3456");
    const bad = await call(recallTool, f.ctx, { ref: "nope" });
    assert.equal(bad.ok, false);
    assert.match(bad.output, /no stored result nope/);
    assert.deepEqual(calls[0], ["r1", 0, 20_000]);
  } finally {
    f.cleanup();
  }
  const none = fixture();
  try {
    const r = await call(recallTool, none.ctx, { ref: "r1" });
    assert.equal(r.ok, false);
  } finally {
    none.cleanup();
  }
});
