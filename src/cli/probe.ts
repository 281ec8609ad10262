/**
 * `retie probe [--force] [--concurrency N] [--model NAME…] [--base-url URL] [--json]`: one token
 * per model, to learn which models this key may call. Results are cached; see
 * `src/models/probe.ts` for what each answer means.
 *
 * @module
 */
import type { Command } from "commander";
import { RetieError } from "../core/errors.ts";
import type { Register } from "./commands.ts";

function positiveInt(name: string, example: number) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) {
      throw new RetieError(`invalid ${name} (${v}): must be a positive integer`, {
        hint: `pass ${name} ${example}, for example`,
        exitCode: 2,
      });
    }
    return n;
  };
}

/**
 * Registers `retie probe`.
 *
 * @example
 * ```ts
 * import { Command } from "commander";
 * import { register } from "./probe.ts";
 * register(new Command("retie"));
 * ```
 */
export const register: Register = (program: Command) => {
  program
    .command("probe")
    .description("send one token to each model to learn which ones this key may call")
    .option("--force", "re-probe models cached as denied")
    .option("--concurrency <n>", "parallel probes", positiveInt("--concurrency", 2), 2)
    .option("--model <name...>", "probe only these models")
    .option("--timeout-ms <ms>", "per-probe timeout", positiveInt("--timeout-ms", 60000), 60_000)
    .option("--base-url <url>", "OpenAI-compatible base URL", "https://ollama.com/v1")
    .option("--json", "print JSON")
    .action(async (opts: {
      force?: boolean;
      concurrency: number;
      model?: string[];
      timeoutMs: number;
      baseUrl: string;
      json?: boolean;
    }) => {
      const { normalizeBaseUrl } = await import("../models/mod.ts");
      const { ProbeCache } = await import("../models/mod.ts");
      const { liveModels } = await import("../models/mod.ts");
      const { probeModels } = await import("../models/mod.ts");
      const { createOpenAICompatProvider } = await import("../providers/openai_compat.ts");
      const { UsageStore } = await import("../models/mod.ts");

      const apiKey = Deno.env.get("OLLAMA_API_KEY") ?? "";
      if (!apiKey) {
        throw new RetieError("cannot probe: OLLAMA_API_KEY is not set", {
          hint: "create a key at https://ollama.com/settings/keys and export OLLAMA_API_KEY",
          exitCode: 2,
        });
      }
      const baseUrl = normalizeBaseUrl(opts.baseUrl);
      const cache = new ProbeCache();
      const live = await liveModels(baseUrl, cache);
      const tiers = new Map(live.map((m) => [m.name, m.tier]));
      const models = opts.model?.length ? opts.model : live.map((m) => m.name);
      const usage = new UsageStore();
      const session = `probe_${new Date().toISOString()}`;
      try {
        const report = await probeModels({
          baseUrl,
          models,
          cache,
          force: opts.force,
          concurrency: opts.concurrency,
          makeProvider: (model) =>
            createOpenAICompatProvider({
              name: "ollama",
              baseUrl,
              apiKey,
              model,
              timeoutMs: opts.timeoutMs,
            }),
          onUsage: (turn, model) =>
            usage.record({
              session,
              model,
              tier: tiers.get(model) ?? null,
              inputTokens: turn.usage.inputTokens,
              outputTokens: turn.usage.outputTokens,
              baseUrl,
            }),
          onResult: opts.json ? undefined : (r) => {
            const note = r.cached
              ? " (cached; --force to re-probe)"
              : r.message
              ? ` (${r.kind}: ${r.message})`
              : "";
            console.log(`${r.model}: ${r.status.replace("_", " ")}${note}`);
          },
        });
        if (opts.json) console.log(JSON.stringify({ baseUrl, ...report }, null, 2));
        if (report.stopped) {
          const s = report.stopped;
          const what = s.reason === "auth"
            ? "the service refused the API key (OLLAMA_API_KEY)"
            : `the account hit its ${s.reason.replace("_", " ")}`;
          console.error(
            `retie: probing stopped on ${s.model}: ${what}: ${s.message}\n  hint: ${s.hint}`,
          );
          Deno.exitCode = 1;
        }
      } finally {
        usage.close();
      }
    });
};
