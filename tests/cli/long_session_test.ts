/**
 * Long sessions end to end, against the emulated model servers: a run driven past a small context
 * window compacts and finishes with every request under the window; `--output-format json` and
 * `stream-json` print only JSON on stdout; exit codes 1 (budget) and 3 (`--fail-on-refusal`);
 * `--continue` sees the earlier conversation and `/undo` reaches across the parts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { emulatorFlags, isolatedEnv, runRetie } from "../helpers/retie_process.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { startAnthropicEmulator } from "../emulators/anthropic_emulator.ts";
import { type Delegation, delegationHash, openLedger, verifyLedger } from "../../src/ledger/mod.ts";

// deno-lint-ignore no-explicit-any
type Body = any;

function workspace(): string {
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-long-" }));
  const lines = Array.from({ length: 300 }, (_, i) => `line ${i} ${"x".repeat(40)}`);
  Deno.writeTextFileSync(join(ws, "big.txt"), lines.join("\n") + "\n");
  return ws;
}

const isSummariser = (b: Body) =>
  String(b.messages?.[0]?.content ?? b.system ?? "").startsWith("You compact") ||
  String(b.system ?? "").startsWith("You compact");

function run(
  iso: ReturnType<typeof isolatedEnv>,
  args: string[],
  env: Record<string, string> = {},
) {
  return runRetie(["--ledger", join(iso.dir, "ledger.db"), "run", ...args], {
    env: { ...iso.env, OPENAI_API_KEY: "test-key", ANTHROPIC_API_KEY: "test-key", ...env },
  });
}

Deno.test("long session (ollama wire): past a small declared window it compacts and finishes", async () => {
  const iso = isolatedEnv();
  const ws = workspace();
  const WINDOW = 8192;
  let recalled = "";
  const emu = startOllamaEmulator({
    contextLength: WINDOW,
    script: (b: Body, i) => {
      if (isSummariser(b)) {
        return { text: "Objective: read big.txt in pieces. Decisions: none yet." };
      }
      if (i < 30) {
        return {
          toolCalls: [{
            name: "read",
            arguments: JSON.stringify({ path: "big.txt", offset: i + 1 }),
          }],
        };
      }
      // After the compactions: a ref from the compacted part (kept in the summary) still recalls.
      if (recalled) return { text: "finished reading" };
      const summary = String(
        b.messages.find((m: Body) => /Summary of the earlier/.test(String(m.content)))?.content ??
          "",
      );
      recalled = /Stored results still recallable[^\n]*?(res_[0-9a-f]{16})/.exec(summary)?.[1] ??
        "";
      return {
        toolCalls: [{
          name: "recall",
          arguments: JSON.stringify({ ref: recalled, offset: 0, length: 50 }),
        }],
      };
    },
  });
  try {
    const r = await run(iso, [
      ws,
      "--headless",
      "-p",
      "read big.txt",
      ...emulatorFlags(emu.url),
      "--output-format",
      "json",
    ]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.status, "done");
    assert.equal(out.result, "finished reading");
    // The window came from /api/show.
    assert.equal(out.usage.contextWindow, WINDOW);
    assert.ok(emu.requests.some((q) => q.path === "/api/show"));
    assert.ok(out.usage.compactions >= 1, JSON.stringify(out.usage));
    assert.ok(out.usage.compactionTokens > 0);
    // Every chat request fit: the emulator would have answered 400 otherwise (none did).
    const chats = emu.requests.filter((q) => q.path === "/v1/chat/completions");
    for (const q of chats) {
      const t = Math.ceil(JSON.stringify({ m: q.body.messages, t: q.body.tools }).length / 4);
      assert.ok(t <= WINDOW, `a request of ${t} tokens`);
    }
    assert.match(r.stderr, /compacted the conversation \(auto\)/);
    assert.match(recalled, /^res_[0-9a-f]{16}$/, "no ref survived in the summary");
    const recall = out.actions.find((x: Body) => x.tool === "recall");
    assert.equal(recall?.outcome, "ok");
    const ledger = openLedger(join(iso.dir, "ledger.db"));
    try {
      const events = ledger.entries({ session: out.session, kinds: ["event"] });
      const comp = events.filter((e) => e.payload.type === "compaction");
      assert.equal(comp.length, out.usage.compactions);
      assert.match(String(comp[0].payload.summaryDigest), /^[0-9a-f]{64}$/);
    } finally {
      ledger.close();
    }
    assert.equal((await verifyLedger(join(iso.dir, "ledger.db"))).ok, true);
    const replay = await runRetie(["--ledger", join(iso.dir, "ledger.db"), "replay", out.session], {
      env: iso.env,
    });
    assert.match(replay.stdout, /compacted \(auto\): \d+ messages → summary [0-9a-f]{12}/);
  } finally {
    await emu.close();
  }
});

Deno.test("long session (anthropic wire): an overflow error compacts once and the run finishes", async () => {
  const iso = isolatedEnv();
  const ws = workspace();
  // The window retie is told is larger than the service's: the service's 400 triggers compaction.
  const emu = startAnthropicEmulator({
    contextWindow: 9000,
    script: (b: Body, i) => {
      if (isSummariser(b)) return { text: "Objective: read big.txt." };
      return i < 14
        ? { toolCalls: [{ name: "read", input: { path: "big.txt", offset: i + 1 } }] }
        : { text: "done reading" };
    },
  });
  try {
    const r = await run(iso, [
      ws,
      "--headless",
      "-p",
      "read big.txt",
      "--provider",
      "anthropic",
      "--model",
      "claude-t",
      "--base-url",
      emu.url,
      "--context-window",
      "100000",
      "--output-format",
      "json",
    ]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.result, "done reading");
    assert.match(r.stderr, /overflowed the model's context window: compacting/);
    // The service's stated window replaced the larger declared one.
    assert.equal(out.usage.contextWindow, 9000);
    assert.ok(out.usage.compactions >= 1);
  } finally {
    await emu.close();
  }
});

Deno.test("headless json: one object with actions, refusals, usage and the ledger head; exit 3 on refusal", async () => {
  const iso = isolatedEnv();
  const ws = workspace();
  const emu = startOllamaEmulator({
    script: [
      {
        toolCalls: [{
          name: "write",
          arguments: JSON.stringify({ path: "a.txt", content: "hi\n" }),
        }],
      },
      {
        toolCalls: [{
          name: "write",
          arguments: JSON.stringify({ path: "/etc/x", content: "no" }),
        }],
      },
      { text: "wrote a.txt" },
    ],
  });
  try {
    const r = await run(iso, [
      ws,
      "--headless",
      "-p",
      "write a.txt",
      ...emulatorFlags(emu.url),
      "--output-format",
      "json",
      "--fail-on-refusal",
      "--context-window",
      "32000",
    ]);
    assert.equal(r.code, 3, r.stderr);
    const lines = r.stdout.trim().split("\n");
    assert.equal(lines.length, 1, r.stdout);
    const out = JSON.parse(lines[0]);
    for (const k of ["session", "result", "actions", "refused", "usage", "ledgerHead"]) {
      assert.ok(k in out, k);
    }
    assert.equal(out.actions.length, 1);
    assert.equal(out.actions[0].tool, "write");
    assert.equal(out.actions[0].class, "reversible");
    assert.equal(out.actions[0].outcome, "ok");
    assert.match(out.actions[0].id, /^act_/);
    assert.equal(out.refused.length, 1);
    assert.equal(out.refused[0].tool, "write");
    assert.equal(out.usage.calls, 3);
    assert.equal(out.usage.inputTokens, 30);
    const ledger = openLedger(join(iso.dir, "ledger.db"));
    try {
      assert.deepEqual(out.ledgerHead, ledger.head());
    } finally {
      ledger.close();
    }
    assert.match(r.stderr, /resume: retie run --resume ses_/);
  } finally {
    await emu.close();
  }
});

Deno.test("headless stream-json: one JSON event per line, ending with the result; budget exits 1", async () => {
  const iso = isolatedEnv();
  const ws = workspace();
  const emu = startOllamaEmulator({
    script: (_b, i) => ({
      toolCalls: [{ name: "read", arguments: JSON.stringify({ path: "big.txt", offset: i + 1 }) }],
      usage: { prompt: 400, completion: 10 },
    }),
  });
  try {
    const r = await run(iso, [
      ws,
      "--headless",
      "-p",
      "read",
      ...emulatorFlags(emu.url),
      "--output-format",
      "stream-json",
      "--budget",
      "1k",
    ]);
    assert.equal(r.code, 1, r.stderr);
    const events = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(events[0].type, "start");
    assert.ok(events.some((e) => e.type === "action" && e.tool === "read" && /^act_/.test(e.id)));
    const last = events.at(-1);
    assert.equal(last.type, "result");
    assert.equal(last.status, "budget");
    assert.match(last.result, /budget of 1000 tokens is spent/);
    // 3 calls of 410 tokens: the budget stops the fourth.
    assert.equal(last.usage.calls, 3);
  } finally {
    await emu.close();
  }
});

Deno.test("--continue sees the earlier conversation; undo reaches across the parts; an edited store is refused", async () => {
  const iso = isolatedEnv();
  const ws = workspace();
  const emu = startOllamaEmulator({
    script: (b: Body) => {
      const user = b.messages.filter((m: Body) => m.role === "user").map((m: Body) => m.content);
      const last = b.messages.at(-1);
      if (last.role === "tool") return { text: "ok" };
      if (user.at(-1) === "write a.txt") {
        return {
          toolCalls: [{
            name: "write",
            arguments: JSON.stringify({ path: "a.txt", content: "one\n" }),
          }],
        };
      }
      if (user.at(-1) === "write b.txt") {
        return {
          toolCalls: [{
            name: "write",
            arguments: JSON.stringify({ path: "b.txt", content: "two\n" }),
          }],
        };
      }
      return { text: `I remember: ${user.join(" | ")}` };
    },
  });
  const base = [
    "--headless",
    ...emulatorFlags(emu.url),
  ];
  try {
    const first = await run(iso, [ws, ...base, "-p", "write a.txt", "--output-format", "json"]);
    assert.equal(first.code, 0, first.stderr);
    const s1 = JSON.parse(first.stdout).session;
    const second = await run(iso, [
      ws,
      ...base,
      "-p",
      "write b.txt",
      "--continue",
      "--output-format",
      "json",
    ]);
    assert.equal(second.code, 0, second.stderr);
    const out2 = JSON.parse(second.stdout);
    assert.deepEqual(out2.parts, [s1, out2.session]);
    assert.match(second.stderr, new RegExp(`continuing ${s1}`));
    {
      // The new delegation, signed by the user key, names the one it continues.
      const l = openLedger(join(iso.dir, "ledger.db"));
      try {
        const g1 = l.entries({ session: s1, kinds: ["genesis"] })[0];
        const g2 = l.entries({ session: out2.session, kinds: ["genesis"] })[0];
        const d1 = g1.payload.delegation as Delegation;
        const d2 = g2.payload.delegation as Delegation;
        assert.equal(d2.continues, delegationHash(d1));
        assert.notEqual(d2.agent, d1.agent);
        const resume = l.entries({ session: out2.session, kinds: ["event"] })
          .find((e) => e.payload.type === "resume")!;
        assert.equal(resume.payload.from, s1);
        assert.equal(resume.payload.fromDelegation, delegationHash(d1));
      } finally {
        l.close();
      }
    }
    const third = await run(iso, [
      ws,
      ...base,
      "-p",
      "what did I ask?",
      "--resume",
      out2.session,
      "--output-format",
      "json",
    ]);
    assert.equal(third.code, 0, third.stderr);
    const out3 = JSON.parse(third.stdout);
    assert.equal(out3.result, "I remember: write a.txt | write b.txt | what did I ask?");
    assert.equal(out3.parts.length, 3);
    // Both parts' actions are listed.
    assert.deepEqual(out3.actions.map((a: Body) => a.tool), ["write", "write"]);
    // undo --all of the latest part reaches the earlier parts.
    const undo = await runRetie([
      "--ledger",
      join(iso.dir, "ledger.db"),
      "undo",
      "--all",
      out3.session,
      "--json",
    ], { env: iso.env });
    assert.equal(undo.code, 0, undo.stderr);
    assert.throws(() => Deno.statSync(join(ws, "a.txt")));
    assert.throws(() => Deno.statSync(join(ws, "b.txt")));
    // A stored conversation edited after the fact is refused.
    const file = join(iso.dir, "ledger.db.conversations", `${out3.session}.json`);
    Deno.writeTextFileSync(file, Deno.readTextFileSync(file).replace("write a.txt", "rm -rf /"));
    const bad = await run(iso, [ws, ...base, "-p", "again", "--resume", out3.session]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /differs from the digest in the ledger/);
    const verify = await runRetie(["--ledger", join(iso.dir, "ledger.db"), "verify"], {
      env: iso.env,
    });
    assert.equal(verify.code, 1, verify.stdout);
    assert.match(
      verify.stdout,
      new RegExp(`stored conversation of ${out3.session} differs from its digest in the ledger`),
    );
    const none = await run(iso, [ws, ...base, "-p", "again", "--resume"]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--resume needs a session id here/);
    assert.match(none.stderr, new RegExp(s1));
    assert.equal((await verifyLedger(join(iso.dir, "ledger.db"))).ok, true);
  } finally {
    await emu.close();
  }
});

Deno.test("on the Ollama ladder: each model's window comes from /api/show, also after an escalation", async () => {
  const { MODELS, KEY } = await import("../models/helpers.ts");
  const { OLLAMA_ERRORS } = await import("../emulators/ollama_emulator.ts");
  const iso = isolatedEnv();
  const ws = workspace();
  const emu = startOllamaEmulator({
    models: MODELS,
    contextLength: { "gpt-oss:20b": 131072, "nemotron-3-nano:30b": 65536 },
    script: [
      { error: OLLAMA_ERRORS.session429 },
      { toolCalls: [{ name: "read", arguments: JSON.stringify({ path: "big.txt" }) }] },
      { text: "read it" },
    ],
  });
  try {
    const r = await runRetie([
      "--ledger",
      join(iso.dir, "ledger.db"),
      "run",
      ws,
      "--headless",
      "-p",
      "read big.txt",
      "--base-url",
      `${emu.url}/v1`,
      "--output-format",
      "json",
    ], { env: { ...iso.env, OLLAMA_API_KEY: KEY } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /context window 131072/);
    const out = JSON.parse(r.stdout);
    assert.equal(out.usage.contextWindow, 65536);
    const shown = emu.requests.filter((q) => q.path === "/api/show").map((q) => q.body.model);
    assert.deepEqual(shown, ["gpt-oss:20b", "nemotron-3-nano:30b"]);
    const ledger = openLedger(join(iso.dir, "ledger.db"));
    try {
      const ev = ledger.entries({ session: out.session, kinds: ["event"] })
        .filter((e) => e.payload.type === "context-window");
      assert.deepEqual(ev.map((e) => e.payload.tokens), [65536]);
    } finally {
      ledger.close();
    }
  } finally {
    await emu.close();
  }
});

Deno.test("a budget in Ollama quota units stops the session before the call that would pass it", async () => {
  const { MODELS, KEY } = await import("../models/helpers.ts");
  const iso = isolatedEnv();
  const ws = workspace();
  const emu = startOllamaEmulator({
    models: MODELS,
    script: (_b, i) => ({
      toolCalls: [{ name: "read", arguments: JSON.stringify({ path: "big.txt", offset: i + 1 }) }],
      usage: { prompt: 10, completion: 5 },
    }),
  });
  try {
    const r = await runRetie([
      "--ledger",
      join(iso.dir, "ledger.db"),
      "run",
      ws,
      "--headless",
      "-p",
      "read",
      "--base-url",
      `${emu.url}/v1`,
      "--output-format",
      "json",
    ], { env: { ...iso.env, OLLAMA_API_KEY: KEY, RETIE_BUDGET: "40 units" } });
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.status, "budget");
    assert.match(out.result, /budget of 40 quota units is spent \(45 used\)/);
    // Tier 1: 15 units a call; the fourth call was never made.
    assert.equal(out.usage.quotaUnits, 45);
    assert.equal(emu.requests.filter((q) => q.path === "/v1/chat/completions").length, 3);
  } finally {
    await emu.close();
  }
});

Deno.test("json mode: a run that cannot start still prints one result object", async () => {
  const iso = isolatedEnv();
  const ws = workspace();
  const r = await runRetie([
    "--ledger",
    join(iso.dir, "ledger.db"),
    "run",
    ws,
    "--headless",
    "-p",
    "x",
    "--provider",
    "anthropic",
    "--model",
    "m",
    "--output-format",
    "json",
  ], { env: iso.env });
  assert.equal(r.code, 2, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.type, "result");
  assert.equal(out.status, "error");
  assert.equal(out.exitCode, 2);
  assert.match(out.result, /ANTHROPIC_API_KEY is not set/);
  assert.match(r.stderr, /ANTHROPIC_API_KEY is not set/);
});
