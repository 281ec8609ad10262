/**
 * The REPL's context commands on piped input: `/compact focus` summarises (the next request starts
 * with the summary), `/usage` shows tokens and the context used, `/clear` starts afresh; each is
 * recorded; the end prints how to resume, and `--continue` then sees the conversation.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { emulatorFlags, isolatedEnv, runRetie } from "../helpers/retie_process.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { openLedger } from "../../src/ledger/mod.ts";

// deno-lint-ignore no-explicit-any
type Body = any;

Deno.test({
  name: "REPL: /compact, /usage, /clear, then --continue",
  sanitizeResources: false,
  fn: async () => {
    const iso = isolatedEnv();
    const ws = Deno.makeTempDirSync({ prefix: "retie-repl-ctx-" });
    const ledgerPath = join(iso.dir, "ledger.db");
    const seen: string[][] = [];
    const emu = startOllamaEmulator({
      contextLength: 64000,
      script: (b: Body) => {
        const contents = b.messages.filter((m: Body) => m.role !== "system").map((m: Body) =>
          String(m.content)
        );
        if (String(b.messages[0]?.content).startsWith("You compact")) {
          return { text: `SUMMARY focus=${/Focus especially on: ([^.]*)/.exec(contents[0])?.[1]}` };
        }
        seen.push(contents);
        return { text: `answer ${seen.length}` };
      },
    });
    const args = [
      "--ledger",
      ledgerPath,
      "run",
      ws,
      ...emulatorFlags(emu.url),
    ];
    try {
      const r = await runRetie(args, {
        env: { ...iso.env, OPENAI_API_KEY: "test-key" },
        stdin: "first\nsecond\n/compact the tests\n/usage\nthird\n/clear\nfourth\n",
      });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /compacted: \d+ messages became a summary/);
      assert.match(
        r.stdout,
        /this session: \d+ tokens in, \d+ out over \d+ calls · context \d+ of 64000/,
      );
      assert.match(r.stdout, /cleared: the next request starts a fresh conversation/);
      assert.match(r.stderr, /resume: retie run --resume ses_[0-9a-f]{12}/);
      // After /compact: the summary (with the focus) comes first.
      assert.match(seen[2][0], /Summary of the earlier conversation/);
      assert.match(seen[2][0], /SUMMARY focus=the tests/);
      assert.equal(seen[2].at(-1), "third");
      // After /clear: only the new request.
      assert.deepEqual(seen[3], ["fourth"]);
      const ledger = openLedger(ledgerPath);
      try {
        const types = ledger.entries({ kinds: ["event"] }).map((e) => e.payload.type);
        assert.ok(types.includes("compaction"));
        assert.ok(types.includes("clear"));
      } finally {
        ledger.close();
      }

      const again = await runRetie([...args, "--continue"], {
        env: { ...iso.env, OPENAI_API_KEY: "test-key" },
        stdin: "fifth\n",
      });
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stderr, /continuing ses_[0-9a-f]{12}/);
      assert.deepEqual(seen[4], ["fourth", "answer 4", "fifth"]);
    } finally {
      await emu.close();
    }
  },
});

Deno.test({
  name: "REPL: /init drafts AGENTS.md through the gate (a recorded, undoable write)",
  sanitizeResources: false,
  fn: async () => {
    const iso = isolatedEnv();
    const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-repl-init-" }));
    Deno.writeTextFileSync(join(ws, "deno.json"), '{"tasks":{"test":"deno test"}}\n');
    const ledgerPath = join(iso.dir, "ledger.db");
    let request = "";
    const emu = startOllamaEmulator({
      script: (b: Body) => {
        const last = b.messages.at(-1);
        if (last.role === "user") {
          request = String(last.content);
          return {
            toolCalls: [{
              name: "write",
              arguments: JSON.stringify({
                path: "AGENTS.md",
                content: "# Agents\n\nRun deno test.\n",
              }),
            }],
          };
        }
        return { text: "drafted AGENTS.md" };
      },
    });
    try {
      const r = await runRetie([
        "--ledger",
        ledgerPath,
        "run",
        ws,
        ...emulatorFlags(emu.url),
      ], { env: { ...iso.env, OPENAI_API_KEY: "test-key" }, stdin: "/init mention deno\n" });
      assert.equal(r.code, 0, r.stderr);
      assert.match(request, /Draft an AGENTS\.md/);
      assert.match(request, /The person adds: mention deno/);
      assert.equal(Deno.readTextFileSync(join(ws, "AGENTS.md")), "# Agents\n\nRun deno test.\n");
      const ledger = openLedger(ledgerPath);
      try {
        const intent = ledger.entries({ kinds: ["intent"] })[0];
        assert.equal(intent.payload.tool, "write");
        assert.equal(intent.payload.class, "reversible");
      } finally {
        ledger.close();
      }
    } finally {
      await emu.close();
    }
  },
});
