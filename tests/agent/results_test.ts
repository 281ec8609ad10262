import assert from "node:assert/strict";
import { join } from "node:path";
import { BlobStore } from "../../src/core/blob_store.ts";
import { ResultStore } from "../../src/agent/result_store.ts";
import { buildPreview } from "../../src/agent/preview.ts";
import { testSession } from "../helpers/test_session.ts";
import { createScriptedProvider } from "../../src/providers/scripted.ts";

function sample(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    lines.push(
      i % 40 === 0
        ? `export function f${i}(x: number): number {`
        : `  const v${i} = x * ${i}; // é✓ ${i}`,
    );
  }
  return lines.join("\n");
}

Deno.test("small results pass through untouched", () => {
  const store = new ResultStore(new BlobStore(":memory:"));
  assert.deepEqual(store.shrink("short"), { text: "short", ref: null });
});

Deno.test("large results become a preview with a ref, and recall returns every byte", () => {
  const blobs = new BlobStore(join(Deno.makeTempDirSync(), "b.db"));
  const store = new ResultStore(blobs, { threshold: 1000, previewChars: 800 });
  const text = sample(2000);
  const { text: preview, ref } = store.shrink(text);
  assert.ok(ref);
  assert.ok(preview.length < 1200, `preview too long: ${preview.length}`);
  assert.match(preview, new RegExp(`ref="${ref}"`));
  let got = "";
  let offset = 0;
  while (offset < text.length) {
    const part = store.recall(ref, offset, 7000);
    const body = part.slice(0, part.lastIndexOf("\n[recall "));
    got += body;
    offset += body.length;
  }
  assert.equal(got, text);
  blobs.close();
});

Deno.test("recall refuses refs it never issued, with the fix", () => {
  const store = new ResultStore(new BlobStore(":memory:"));
  assert.throws(() => store.recall("res_0000000000000000"), /not from this session/);
  assert.throws(() => store.recall("../etc/passwd"), /unknown ref/);
});

Deno.test("the preview carries an outline of the definitions it does not show", () => {
  const p = buildPreview(sample(2000), "res_x", 4000);
  assert.match(p, /definitions among them/);
  assert.match(p, /f1000/);
});

Deno.test("a session's large read is previewed and recalled exactly by the model", async () => {
  const ws = Deno.realPathSync(Deno.makeTempDirSync());
  const big = sample(3000);
  Deno.writeTextFileSync(join(ws, "big.ts"), big);
  let ref = "";
  const provider = createScriptedProvider((req, i) => {
    if (i === 0) {
      return { toolCalls: [{ name: "read", arguments: { path: "big.ts", limit: 5000 } }] };
    }
    if (i === 1) {
      const last = req.messages.at(-1)!;
      ref = /ref="(res_[0-9a-f]+)"/.exec(last.role === "tool" ? last.content : "")?.[1] ?? "";
      return { toolCalls: [{ name: "recall", arguments: { ref, offset: 0, length: 200 } }] };
    }
    return { text: "done" };
  });
  const s = await testSession(ws, provider, { objective: "read" });
  try {
    await s.turn("read big.ts");
    assert.match(ref, /^res_/);
    const recalled = provider.requests[2].messages.at(-1)!;
    assert.equal(recalled.role, "tool");
    // The read tool numbers lines; the recalled text is the exact start of the stored result.
    assert.match(recalled.role === "tool" ? recalled.content : "", /^\s*1\s+export function f0/);
  } finally {
    s.close();
  }
});

Deno.test("a recall with the default length returns the exact text, not another preview", async () => {
  const ws = Deno.realPathSync(Deno.makeTempDirSync());
  const big = sample(3000); // ~100 KB: its default recall (20,000 characters) exceeds the threshold
  Deno.writeTextFileSync(join(ws, "big.ts"), big);
  let ref = "";
  const provider = createScriptedProvider((req, i) => {
    if (i === 0) {
      return { toolCalls: [{ name: "read", arguments: { path: "big.ts", limit: 5000 } }] };
    }
    if (i === 1) {
      const last = req.messages.at(-1)!;
      ref = /ref="(res_[0-9a-f]+)"/.exec(last.role === "tool" ? last.content : "")?.[1] ?? "";
      return { toolCalls: [{ name: "recall", arguments: { ref } }] };
    }
    if (i === 2) {
      return { toolCalls: [{ name: "recall", arguments: { ref, offset: 0, length: 150_000 } }] };
    }
    return { text: "done" };
  });
  const s = await testSession(ws, provider, { objective: "read" });
  try {
    await s.turn("read big.ts");
    assert.match(ref, /^res_/);
    const bodies: string[] = [];
    for (const step of [2, 3]) {
      const msg = provider.requests[step].messages.at(-1)!;
      const content = msg.role === "tool" ? msg.content : "";
      assert.doesNotMatch(content, /large result stored as ref=/, `recall ${step} was previewed`);
      const body = content.slice(0, content.lastIndexOf("\n[recall "));
      assert.equal(body.length, 20_000);
      assert.match(body, /^\s*1\s+export function f0/);
      bodies.push(body);
      assert.match(
        content,
        new RegExp(`characters 0-20000 of \\d+; next: recall\\(ref="${ref}", offset=20000\\)`),
      );
    }
    assert.equal(bodies[0], bodies[1]);
  } finally {
    s.close();
  }
});
