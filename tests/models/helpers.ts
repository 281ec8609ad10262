/** Shared fixtures for the models tests: a live-looking list and the real wire provider. */
import { createOpenAICompatProvider } from "../../src/providers/openai_compat.ts";
import type { Provider } from "../../src/providers/types.ts";
import type { Emulator } from "../emulators/ollama_emulator.ts";

/** Sizes as /api/tags gives them; tiers (from the real formula): 1, 1, 2, 2, 3, 4. */
export const MODELS = [
  { name: "gpt-oss:20b", size: 13_800_000_000 },
  { name: "nemotron-3-nano:30b", size: 24_000_000_000 },
  { name: "gpt-oss:120b", size: 65_000_000_000 },
  { name: "minimax-m3", size: 130_000_000_000 },
  { name: "qwen3.5:397b", size: 420_000_000_000 },
  { name: "deepseek-v4-pro", size: 1_700_000_000_000 },
];

export const KEY = "test-key";

/** The real openai-compatible provider against the emulator. */
export function wire(emu: Emulator, timeoutMs?: number): (model: string) => Provider {
  return (model) =>
    createOpenAICompatProvider({
      name: "ollama",
      baseUrl: `${emu.url}/v1`,
      apiKey: KEY,
      model,
      timeoutMs,
    });
}

/** The models the chat endpoint was asked for, in order. */
export function chatModels(emu: Emulator): string[] {
  return emu.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => r.body?.model);
}

/** A one-message request. */
export const HELLO = {
  system: "be brief",
  messages: [{ role: "user" as const, content: "hello" }],
  tools: [],
};

const made: string[] = [];
globalThis.addEventListener("unload", () => {
  for (const d of made) {
    try {
      Deno.removeSync(d, { recursive: true });
    } catch { /* already gone */ }
  }
});

/** A temp dir, removed when the test module unloads. */
export function tempDir(): string {
  const d = Deno.makeTempDirSync({ prefix: "retie-models-test-" });
  made.push(d);
  return d;
}

/** Registers a dir made elsewhere (e.g. by `isolatedEnv()`) for removal at unload. */
export function removeAtUnload(dir: string): void {
  made.push(dir);
}

/**
 * `isolatedEnv()` moves HOME, and Deno's module cache defaults to `$HOME/.cache/deno`: a child
 * would then try to download every npm package. Keep the parent's cache (read-only use).
 */
export function denoDirEnv(): Record<string, string> {
  const dir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME") ?? "/root"}/.cache/deno`;
  return { DENO_DIR: dir };
}
