/**
 * Tunes the preview size by measurement (`deno run -A bench/preview_bench.ts`).
 *
 * Scenario (the seed's): a model reads two ~25 KB source files and summarises them. The trajectory
 * is scripted (read A, read B, answer), so the number of calls is fixed; what varies is what each
 * request carries. Every request the agent really sent is counted with a real tokenizer
 * (gpt-tokenizer, o200k_base): system prompt, tool definitions and messages.
 *
 * Run for: no previews (every result whole), and previews of several sizes.
 */
import { join } from "node:path";
import { encode } from "gpt-tokenizer";
import { startSession } from "../src/agent/session.ts";
import { createScriptedProvider } from "../src/providers/scripted.ts";

const ROOT = new URL("../", import.meta.url).pathname;
// Two ~25 KB real source files, made from retie's own code so the numbers are reproducible.
const A = ["src/plane/guard.ts", "src/plane/undo.ts"].map((f) =>
  Deno.readTextFileSync(join(ROOT, f))
).join("\n");
const B = ["src/ledger/ledger.ts", "src/ledger/verify.ts"].map((f) =>
  Deno.readTextFileSync(join(ROOT, f))
).join("\n");

async function measure(previews: { threshold: number; previewChars: number }) {
  const ws = Deno.realPathSync(Deno.makeTempDirSync());
  Deno.writeTextFileSync(join(ws, "a.ts"), A);
  Deno.writeTextFileSync(join(ws, "b.ts"), B);
  const tmp = Deno.makeTempDirSync();
  const provider = createScriptedProvider([
    { toolCalls: [{ name: "read", arguments: { path: "a.ts" } }] },
    { toolCalls: [{ name: "read", arguments: { path: "b.ts" } }] },
    {
      text:
        "a.ts runs every tool call through the guard; b.ts is the signed ledger and its verifier.",
    },
  ]);
  const s = await startSession({
    workspace: ws,
    ledgerPath: join(tmp, "l.db"),
    objective: "summarise a.ts and b.ts",
    provider,
    providerName: "scripted",
    mode: "default",
    headless: true,
    yes: false,
    sandbox: { available: false, unavailableReason: "bench", network: false },
    approve: () => Promise.resolve(false),
    configDir: join(tmp, "cfg"),
    previews,
  });
  await s.turn("Read a.ts and b.ts and summarise what each does.");
  s.close();
  let tokens = 0;
  for (const req of provider.requests) {
    tokens += encode(req.system).length + encode(JSON.stringify(req.tools)).length +
      encode(JSON.stringify(req.messages)).length;
  }
  return { calls: provider.requests.length, tokens };
}

console.log(`file sizes: a.ts ${A.length} chars, b.ts ${B.length} chars`);
const base = await measure({ threshold: Number.MAX_SAFE_INTEGER, previewChars: 0 });
console.log(`no previews: ${base.calls} calls, ${base.tokens} prompt tokens`);
for (const size of [420, 1000, 2000, 3000, 4000, 6000, 8000]) {
  const r = await measure({ threshold: 6000, previewChars: size });
  const saved = (100 * (1 - r.tokens / base.tokens)).toFixed(1);
  console.log(
    `preview ${
      String(size).padStart(5)
    } chars: ${r.calls} calls, ${r.tokens} prompt tokens (${saved}% fewer)`,
  );
}
