/**
 * The single dispatch on its own, over a real session's guard, ledger and stores: malformed
 * arguments never reach the guard and are recorded, an unknown tool is answered with the tools
 * that exist, refusals say so, large results become a preview with a ref and `recall` answers
 * are handed back whole.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { BlobStore } from "../../src/core/blob_store.ts";
import type { ToolContext } from "../../src/core/tool.ts";
import { dispatch, type DispatchDeps } from "../../src/agent/dispatch.ts";
import { ResultStore } from "../../src/agent/result_store.ts";
import { createScriptedProvider } from "../../src/providers/scripted.ts";
import { testSession } from "../helpers/test_session.ts";

async function setup() {
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-dispatch-" }));
  Deno.writeTextFileSync(join(ws, "a.txt"), "hello\n");
  Deno.writeTextFileSync(join(ws, "big.txt"), "line of text\n".repeat(3000));
  const session = await testSession(ws, createScriptedProvider([]));
  const results = new ResultStore(
    new BlobStore(join(ws, "..", `blobs-${crypto.randomUUID()}.db`)),
    {
      threshold: 2000,
      previewChars: 500,
    },
  );
  let recalled = "";
  const ctx: ToolContext = {
    workspace: ws,
    protectedPaths: [],
    signal: new AbortController().signal,
    sandbox: { available: false, unavailableReason: "test", network: false },
    headless: true,
    sessionId: session.id,
    services: {
      ask: () => Promise.resolve(null),
      recall: (ref, offset, length) => {
        recalled = results.recall(ref, offset, length);
        return Promise.resolve(recalled);
      },
    },
  };
  const deps: DispatchDeps = {
    guard: session.guard,
    tools: session.tools,
    ctx,
    sink: session.writer,
    results,
  };
  return { ws, session, deps, results };
}

Deno.test("dispatch: malformed arguments are recorded as a refusal and never reach the guard", async () => {
  const { session, deps } = await setup();
  try {
    let guarded = 0;
    const spy = {
      run: (c: Parameters<typeof deps.guard.run>[0]) => (guarded++, deps.guard.run(c)),
    };
    const r1 = await dispatch({ id: "c1", name: "read", argumentsJson: '{"path": "a.txt"' }, {
      ...deps,
      guard: spy,
    });
    const r2 = await dispatch({ id: "c2", name: "read", argumentsJson: "[1,2]" }, {
      ...deps,
      guard: spy,
    });
    assert.equal(guarded, 0);
    assert.ok(r1.isError && r1.outcome === null && /not valid JSON/.test(r1.malformed ?? ""));
    assert.match(r2.content, /a JSON array, not an object/);
    const refusals = session.ledger.entries({ session: session.id, kinds: ["refusal"] });
    assert.deepEqual(refusals.map((e) => e.payload.stage), [
      "invalid-arguments",
      "invalid-arguments",
    ]);
  } finally {
    session.close();
  }
});

Deno.test("dispatch: empty arguments are an empty object; a read runs through the guard", async () => {
  const { session, deps } = await setup();
  try {
    const r = await dispatch({ id: "c1", name: "read", argumentsJson: '{"path":"a.txt"}' }, deps);
    assert.equal(r.isError, false);
    assert.equal(r.outcome?.status, "ok");
    assert.match(r.content, /hello/);
    const ls = await dispatch({ id: "c2", name: "ls", argumentsJson: "  " }, deps);
    assert.equal(ls.outcome?.status, "ok", ls.content);
  } finally {
    session.close();
  }
});

Deno.test("dispatch: an unknown tool is answered with the tools that exist, and recorded", async () => {
  const { session, deps } = await setup();
  try {
    const r = await dispatch({ id: "c1", name: "delete_everything", argumentsJson: "{}" }, deps);
    assert.equal(r.isError, true);
    assert.match(
      r.content,
      /^error: there is no tool named "delete_everything". Available tools: .*read/,
    );
    const refusals = session.ledger.entries({ session: session.id, kinds: ["refusal"] });
    assert.equal(refusals.at(-1)?.payload.stage, "unknown-tool");
  } finally {
    session.close();
  }
});

Deno.test("dispatch: a refusal by the gate starts with `refused`", async () => {
  const { session, deps } = await setup();
  try {
    // Headless without --yes: an unsandboxed command is asked about, which headless refuses.
    const r = await dispatch({
      id: "c1",
      name: "bash",
      argumentsJson: JSON.stringify({ command: "touch x", sandbox: false }),
    }, deps);
    assert.equal(r.outcome?.status, "refused");
    assert.match(r.content, /^refused/);
  } finally {
    session.close();
  }
});

Deno.test("dispatch: a large result becomes a preview with a ref; recall is handed back whole", async () => {
  const { session, deps } = await setup();
  try {
    const r = await dispatch({ id: "c1", name: "read", argumentsJson: '{"path":"big.txt"}' }, deps);
    const ref = /ref="([^"]+)"/.exec(r.content)?.[1];
    assert.ok(ref, r.content.slice(0, 400));
    assert.ok(r.content.length < 2000);
    const back = await dispatch({
      id: "c2",
      name: "recall",
      argumentsJson: JSON.stringify({ ref, offset: 0, length: 6000 }),
    }, deps);
    assert.equal(back.outcome?.status, "ok", back.content);
    // Not previewed again: the slice itself, with the store's trailer and no new ref.
    assert.match(back.content, new RegExp(`\\[recall ${ref}: characters 0-6000 of `));
    assert.equal(back.content.match(/ref="res_/g)?.length, 1);
    assert.ok(back.content.length > 5000);
  } finally {
    session.close();
  }
});
