/**
 * Provider overhead: one streamed turn through the real SDKs against the local emulators
 * (mostly SDK + HTTP cost), and pure reassembly of a fragmented tool call.
 */
import { createOpenAICompatProvider } from "../src/providers/openai_compat.ts";
import { createAnthropicProvider } from "../src/providers/anthropic.ts";
import { TurnBuilder } from "../src/providers/turn_builder.ts";
import { startOllamaEmulator } from "../tests/emulators/ollama_emulator.ts";
import { startAnthropicEmulator } from "../tests/emulators/anthropic_emulator.ts";

const words = Array.from({ length: 200 }, (_, i) => `word${i} `);
const ollama = startOllamaEmulator({
  script: () => ({
    text: words,
    toolCalls: [{ name: "read_file", arguments: '{"path":"src/a.ts"}' }],
  }),
});
const anthropic = startAnthropicEmulator({
  script: () => ({ text: words, toolCalls: [{ name: "read_file", input: { path: "src/a.ts" } }] }),
});
const req = { system: "s", messages: [{ role: "user" as const, content: "hi" }], tools: [] };
const op = createOpenAICompatProvider({
  name: "ollama",
  baseUrl: `${ollama.url}/v1`,
  apiKey: "test-key",
  model: "m",
});
const ap = createAnthropicProvider({
  baseUrl: anthropic.url,
  apiKey: "test-key",
  model: "claude-emulated",
});

Deno.bench("openai_compat: one turn, 200 text chunks + a tool call (emulator)", async () => {
  await op.complete(req);
});

Deno.bench("anthropic: one turn, 200 text deltas + a tool call (emulator)", async () => {
  await ap.complete(req);
});

const big = JSON.stringify({ content: "x".repeat(25_000) });
Deno.bench("TurnBuilder: 25 KB of arguments in 5-char fragments", () => {
  const b = new TurnBuilder("m");
  b.toolFragment(0, { id: "c", name: "write_file" });
  for (let i = 0; i < big.length; i += 5) b.toolFragment(0, { args: big.slice(i, i + 5) });
  b.finish("tool_calls");
});

globalThis.addEventListener("unload", () => {
  ollama.close();
  anthropic.close();
});
