/**
 * A provider error in the middle of a session, against both wire shapes (real SDK clients, the
 * emulators): the turn ends with the error, the error is in the ledger (not only on the screen),
 * the replay shows it, and the next turn of the same session works with a well-formed history.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startSession } from "../../src/agent/session.ts";
import { createOpenAICompatProvider } from "../../src/providers/openai_compat.ts";
import { createAnthropicProvider } from "../../src/providers/anthropic.ts";
import type { Provider } from "../../src/providers/types.ts";
import { buildReplay } from "../../src/ui/replay_model.ts";
import { verifyLedger } from "../../src/ledger/verify.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { ANTHROPIC_ERRORS, startAnthropicEmulator } from "../emulators/anthropic_emulator.ts";

interface ErrorWire {
  name: string;
  start(): {
    provider: Provider;
    // deno-lint-ignore no-explicit-any
    requests: () => any[];
    close: () => Promise<void>;
  };
}

const READ = { path: "a.txt" };

const WIRES: ErrorWire[] = [
  {
    name: "ollama /v1",
    start() {
      const emu = startOllamaEmulator({
        script: [
          { toolCalls: [{ name: "read", arguments: JSON.stringify(READ) }] },
          { error: { status: 500, body: { error: "internal error (ref: 5e1)" } } },
          { text: "back again" },
        ],
      });
      return {
        provider: createOpenAICompatProvider({
          name: "ollama",
          baseUrl: `${emu.url}/v1`,
          apiKey: "test-key",
          model: "gpt-oss:20b",
        }),
        requests: () =>
          emu.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => r.body),
        close: () => emu.close(),
      };
    },
  },
  {
    name: "anthropic messages",
    start() {
      const emu = startAnthropicEmulator({
        script: [
          { toolCalls: [{ name: "read", input: READ }] },
          { error: ANTHROPIC_ERRORS.server },
          { text: "back again" },
        ],
      });
      return {
        provider: createAnthropicProvider({
          baseUrl: emu.url,
          apiKey: "test-key",
          model: "claude-x",
        }),
        requests: () => emu.requests.filter((r) => r.path === "/v1/messages").map((r) => r.body),
        close: () => emu.close(),
      };
    },
  },
];

for (const wire of WIRES) {
  Deno.test({
    name: `${wire.name}: a provider error mid-session is shown, recorded, and the session goes on`,
    sanitizeResources: false,
    fn: async () => {
      const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-provider-error-" }));
      Deno.writeTextFileSync(join(ws, "a.txt"), "hello\n");
      const tmp = Deno.makeTempDirSync();
      const ledgerPath = join(tmp, "ledger.db");
      const w = wire.start();
      const s = await startSession({
        workspace: ws,
        ledgerPath,
        objective: "read a.txt",
        provider: w.provider,
        providerName: "test",
        mode: "default",
        headless: false,
        yes: false,
        sandbox: { available: false, unavailableReason: "not needed here", network: false },
        approve: () => Promise.resolve(false),
        configDir: join(tmp, "cfg"),
      });
      try {
        const first = await s.turn("read a.txt");
        assert.equal(first.status, "error");
        assert.equal(first.actions, 1);
        assert.match(first.text, /server/);

        const ended = s.ledger.entries({ session: s.id, kinds: ["event"] })
          .filter((e) => e.payload.type === "turn-end");
        assert.equal(ended.length, 1, "the failed turn is recorded");
        assert.equal(ended[0].payload.status, "error");
        assert.match(String(ended[0].payload.message), /^error: server/);
        assert.equal(ended[0].payload.text, first.text);

        const second = await s.turn("try again");
        assert.equal(second.status, "done", second.text);
        assert.equal(second.text, "back again");
        // The history the model got after the error: the tool call answered, both user turns kept.
        const last = w.requests().at(-1);
        const text = JSON.stringify(last.messages);
        assert.match(text, /read a\.txt/);
        assert.match(text, /try again/);
        assert.match(text, /hello/);

        const replay = buildReplay(s.ledger.entries({ session: s.id }), { seq: 0, hash: "" });
        const shown = replay.timeline.find((a) => a.tool === "turn-end");
        assert.ok(shown, "the replay shows the failed turn");
        assert.match(shown.summary, /^error: server/);
        assert.equal(replay.totals.turns, 2);
      } finally {
        s.close();
        await w.close();
      }
      assert.equal(verifyLedger(ledgerPath).ok, true);
    },
  });
}
