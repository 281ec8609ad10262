/**
 * Child process for provider_permissions_test.ts: builds providers the way `retie run` will
 * (keys from the environment) and makes one call to each emulator under retie's real permission
 * flags. Prints one JSON line per provider.
 */
import { createProvider } from "../../src/providers/factory.ts";

const [ollamaUrl, anthropicUrl] = Deno.args;
const env = (n: string) => Deno.env.get(n);
const req = { system: "s", messages: [{ role: "user" as const, content: "hi" }], tools: [] };
const o = createProvider({ provider: "ollama", model: "m", baseUrl: `${ollamaUrl}/v1`, env });
console.log(JSON.stringify({ ollama: (await o.complete(req)).text }));
const a = createProvider({
  provider: "anthropic",
  model: "claude-emulated",
  baseUrl: anthropicUrl,
  env,
});
console.log(JSON.stringify({ anthropic: (await a.complete(req)).text }));
