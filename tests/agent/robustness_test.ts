/**
 * What weaker models really do, against both wire shapes: the real `openai` and
 * `@anthropic-ai/sdk` clients talk to the emulators, and the agent loop answers through the one
 * dispatch and the guard, with a real ledger.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { testSession } from "../helpers/test_session.ts";
import type { Approver } from "../../src/plane/guard.ts";
import { createOpenAICompatProvider } from "../../src/providers/openai_compat.ts";
import { createAnthropicProvider } from "../../src/providers/anthropic.ts";
import type { Provider } from "../../src/providers/types.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { startAnthropicEmulator } from "../emulators/anthropic_emulator.ts";

interface Call {
  name: string;
  /** Raw argument text exactly as the model sends it. */
  raw: string;
}

/** A wire: starts an emulator for a script of turns (tool calls or a final text). */
interface Wire {
  name: string;
  start(turns: (Call[] | string)[]): {
    provider: Provider;
    // deno-lint-ignore no-explicit-any
    requests: () => any[];
    close: () => Promise<void>;
  };
}

const WIRES: Wire[] = [
  {
    name: "ollama /v1",
    start(turns) {
      const emu = startOllamaEmulator({
        script: turns.map((t) =>
          typeof t === "string"
            ? { text: t }
            : { toolCalls: t.map((c) => ({ name: c.name, arguments: c.raw })) }
        ),
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
    start(turns) {
      const emu = startAnthropicEmulator({
        script: turns.map((t) =>
          typeof t === "string" ? { text: t } : {
            toolCalls: t.map((c) => ({
              name: c.name,
              fragments: [c.raw.slice(0, 3), c.raw.slice(3)],
            })),
          }
        ),
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

async function session(provider: Provider, opts: { headless?: boolean; approve?: Approver } = {}) {
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-robust-" }));
  Deno.writeTextFileSync(join(ws, "a.txt"), "hello\n");
  const s = await testSession(ws, provider, {
    headless: opts.headless ?? true,
    ...(opts.approve ? { approve: opts.approve } : {}),
    budgets: { maxStepsPerTurn: 12, maxTotalSteps: 50, maxRepeats: 3 },
  });
  return { s, ws };
}

/** The text of every tool result the model was sent in its last request. */
// deno-lint-ignore no-explicit-any
function toolResults(body: any): string[] {
  const out: string[] = [];
  for (const m of body.messages) {
    if (m.role === "tool") out.push(String(m.content));
    if (m.role === "user" && Array.isArray(m.content)) {
      for (const b of m.content) {
        if (b.type === "tool_result") {
          out.push(typeof b.content === "string" ? b.content : JSON.stringify(b.content));
        }
      }
    }
  }
  return out;
}

for (const wire of WIRES) {
  Deno.test({
    name: `${wire.name}: a hallucinated tool gets an error listing the real tools`,
    sanitizeResources: false,
    fn: async () => {
      const w = wire.start([[{ name: "read_file", raw: '{"path":"a.txt"}' }], "ok"]);
      const { s } = await session(w.provider);
      try {
        const r = await s.turn("go");
        assert.equal(r.status, "done");
        const results = toolResults(w.requests()[1]);
        assert.match(results[0], /no tool named "read_file"/);
        assert.match(results[0], /read, /);
        const refusals = s.ledger.entries({ session: s.id, kinds: ["refusal"] });
        assert.equal(refusals.length, 1);
      } finally {
        s.close();
        await w.close();
      }
    },
  });

  Deno.test({
    name: `${wire.name}: malformed JSON arguments are not run and the parse error is returned`,
    sanitizeResources: false,
    fn: async () => {
      const w = wire.start([[{ name: "write", raw: '{"path": "b.txt", "content": "x"' }], "ok"]);
      const { s, ws } = await session(w.provider);
      try {
        await s.turn("go");
        const results = toolResults(w.requests()[1]);
        assert.match(results[0], /not valid JSON/);
        assert.throws(() => Deno.statSync(join(ws, "b.txt")), "nothing may be written");
        assert.equal(s.ledger.entries({ session: s.id, kinds: ["intent"] }).length, 0);
        assert.equal(s.ledger.entries({ session: s.id, kinds: ["refusal"] }).length, 1);
      } finally {
        s.close();
        await w.close();
      }
    },
  });

  Deno.test({
    name: `${wire.name}: schema-invalid arguments name the bad field`,
    sanitizeResources: false,
    fn: async () => {
      const w = wire.start([[{ name: "read", raw: '{"file":"a.txt"}' }], "ok"]);
      const { s } = await session(w.provider);
      try {
        await s.turn("go");
        const results = toolResults(w.requests()[1]);
        assert.match(results[0], /path/);
        assert.equal(s.ledger.entries({ session: s.id, kinds: ["intent"] }).length, 0);
      } finally {
        s.close();
        await w.close();
      }
    },
  });

  Deno.test({
    name: `${wire.name}: a refused approval tells the model it was refused and why`,
    sanitizeResources: false,
    fn: async () => {
      let asked = 0;
      const w = wire.start([
        [{ name: "bash", raw: '{"command":"echo hi","sandbox":false}' }],
        "ok",
      ]);
      const { s } = await session(w.provider, {
        headless: false,
        approve: () => {
          asked++;
          return Promise.resolve(false);
        },
      });
      try {
        await s.turn("go");
        assert.equal(asked, 1);
        const results = toolResults(w.requests()[1]);
        assert.match(results[0], /refused/);
        assert.match(results[0], /approv|declined|person/i);
      } finally {
        s.close();
        await w.close();
      }
    },
  });

  Deno.test({
    name: `${wire.name}: identical repeated calls are stopped`,
    sanitizeResources: false,
    fn: async () => {
      const same = [{ name: "read", raw: '{"path":"a.txt"}' }];
      const w = wire.start(Array.from({ length: 10 }, () => same));
      const { s } = await session(w.provider);
      try {
        const r = await s.turn("go");
        assert.equal(r.status, "loop");
        // Three runs, then refusals without running, then the turn stops.
        assert.equal(s.ledger.entries({ session: s.id, kinds: ["intent"] }).length, 3);
        assert.ok(w.requests().length <= 6);
      } finally {
        s.close();
        await w.close();
      }
    },
  });
}

Deno.test({
  name: "the step budget stops a model that never finishes",
  sanitizeResources: false,
  fn: async () => {
    let i = 0;
    const w = {
      emu: startOllamaEmulator({
        script: () => ({
          toolCalls: [{ name: "read", arguments: JSON.stringify({ path: "a.txt", offset: ++i }) }],
        }),
      }),
    };
    const provider = createOpenAICompatProvider({
      name: "ollama",
      baseUrl: `${w.emu.url}/v1`,
      apiKey: "test-key",
      model: "m",
    });
    const { s } = await session(provider);
    try {
      const r = await s.turn("go");
      assert.equal(r.status, "budget");
      assert.equal(r.steps, 12);
    } finally {
      s.close();
      await w.emu.close();
    }
  },
});
