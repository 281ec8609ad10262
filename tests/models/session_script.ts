/**
 * Runs one session on the ladder in its own process (as `retie run` would) and prints JSON:
 * the model that answered, the ladder events, or the error. Used by the cross-process tests.
 *
 * Usage: session_script.ts <baseUrl> <session> <turns> [--max-tier N] [--model NAME]
 */
import { openSessionLadder } from "../../src/models/session_ladder.ts";
import { UsageStore } from "../../src/models/usage_store.ts";
import type { LadderEvent } from "../../src/models/ladder.ts";

const [baseUrl, session, turns, ...rest] = Deno.args;
const flag = (name: string) => {
  const i = rest.indexOf(name);
  return i >= 0 ? rest[i + 1] : undefined;
};
const events: LadderEvent[] = [];
const usage = new UsageStore();
const served: string[] = [];
let error: string | undefined;
try {
  const { provider } = await openSessionLadder({
    baseUrl,
    apiKey: Deno.env.get("OLLAMA_API_KEY") ?? "",
    session,
    maxTier: flag("--max-tier") ? Number(flag("--max-tier")) : undefined,
    model: flag("--model"),
    usage,
    onEvent: (e) => events.push(e),
  });
  for (let i = 0; i < Number(turns); i++) {
    const turn = await provider.complete({
      system: "be brief",
      messages: [{ role: "user", content: `turn ${i}` }],
      tools: [],
    });
    served.push(turn.model);
  }
} catch (e) {
  error = (e as Error).message;
} finally {
  usage.close();
}
console.log(JSON.stringify({ served, events, error }));
