/**
 * A long session under a small window (`deno run -A bench/long_session_bench.ts [turns] [window]`).
 *
 * Scenario: 200 user turns; in each the scripted model reads a large file (a different ~20 KB
 * region of retie's own source each time, so the results become previews with refs), greps, and
 * answers. Every request the agent really sends is counted with a real tokenizer (gpt-tokenizer,
 * o200k_base) and that count is reported back as the prompt tokens, as a service would. The
 * summariser's requests are answered with a fixed 120-word summary.
 *
 * Reported: the largest request against the window (it must stay under it at every request),
 * how many compactions ran, and what they cost in tokens (their own input + output) compared with
 * the whole session.
 */
import { join } from "node:path";
import { encode } from "gpt-tokenizer";
import { startSession } from "../src/agent/session.ts";
import { createScriptedProvider } from "../src/providers/scripted.ts";
import type { TurnRequest } from "../src/providers/types.ts";

const TURNS = Number(Deno.args[0] ?? 200);
const WINDOW = Number(Deno.args[1] ?? 32768);
const ROOT = new URL("../", import.meta.url).pathname;

const sources = [
  "src/plane/guard.ts",
  "src/plane/undo.ts",
  "src/ledger/ledger.ts",
  "src/ledger/verify.ts",
  "src/agent/session.ts",
  "src/sandbox/bwrap_args.ts",
].map((f) => Deno.readTextFileSync(join(ROOT, f)));

const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-long-bench-" }));
for (let k = 0; k < 10; k++) {
  Deno.writeTextFileSync(
    join(ws, `f${k}.ts`),
    sources.join("\n").slice(k * 3000, k * 3000 + 20000),
  );
}

function tokens(req: TurnRequest): number {
  const text = req.system + JSON.stringify(req.tools) +
    req.messages.map((m) => m.content + (m.role === "assistant" ? JSON.stringify(m.toolCalls) : ""))
      .join("\n");
  return encode(text).length;
}

const SUMMARY = Array.from({ length: 120 }, (_, i) => `word${i}`).join(" ");
let maxPrompt = 0;
let requests = 0;
let over = 0;
let summariserTokens = 0;
const provider = createScriptedProvider((req, i) => {
  const prompt = tokens(req);
  maxPrompt = Math.max(maxPrompt, prompt);
  requests++;
  if (prompt > WINDOW) over++;
  if (req.system.startsWith("You compact")) {
    summariserTokens += prompt + 160;
    return { text: SUMMARY, usage: { inputTokens: prompt, outputTokens: 160 } };
  }
  const last = req.messages.at(-1)!;
  const usage = { inputTokens: prompt, outputTokens: 30 };
  const toolsThisTurn = req.messages.slice(
    req.messages.findLastIndex((m) => m.role === "user"),
  ).filter((m) => m.role === "tool").length;
  if (last.role === "user" || toolsThisTurn === 0) {
    return { toolCalls: [{ name: "read", arguments: { path: `f${i % 10}.ts` } }], usage };
  }
  if (toolsThisTurn === 1) {
    return { toolCalls: [{ name: "grep", arguments: { pattern: "export", path: "." } }], usage };
  }
  return { text: `turn done (${i})`, usage };
});

const tmp = Deno.makeTempDirSync();
const s = await startSession({
  workspace: ws,
  ledgerPath: join(tmp, "l.db"),
  objective: "bench",
  provider,
  providerName: "scripted",
  mode: "default",
  headless: true,
  yes: false,
  sandbox: { available: false, unavailableReason: "bench", network: false },
  approve: () => Promise.resolve(false),
  configDir: join(tmp, "cfg"),
  contextWindow: WINDOW,
});
const t0 = performance.now();
let failed = 0;
for (let t = 0; t < TURNS; t++) {
  const r = await s.turn(`turn ${t}: read the next file and look for exports`);
  if (r.status !== "done") failed++;
}
const ms = performance.now() - t0;
const u = s.usage();
s.close();
const total = u.inputTokens + u.outputTokens;
console.log(JSON.stringify(
  {
    turns: TURNS,
    window: WINDOW,
    requests,
    failedTurns: failed,
    maxPromptTokens: maxPrompt,
    maxPromptShareOfWindow: Math.round(1000 * maxPrompt / WINDOW) / 10,
    requestsOverWindow: over,
    compactions: u.compactions,
    compactionTokens: u.compactionTokens,
    summariserTokensCounted: summariserTokens,
    sessionTokens: total,
    compactionShareOfSession: Math.round(1000 * u.compactionTokens / total) / 10,
    wallMs: Math.round(ms),
  },
  null,
  2,
));
