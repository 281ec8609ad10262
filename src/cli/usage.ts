/**
 * `retie usage [--json] [--base-url URL] [--max-tier N]`: what has been spent, in quota units
 * (tokens × tier weight), per model, tier, session and day, plus the current ladder.
 *
 * Consumption only, never a "remaining" figure: the service publishes no allowance to divide by.
 * Works offline: the ladder comes from the last saved model list and the probe cache.
 *
 * @module
 */
import type { Command } from "commander";
import { RetieError } from "../core/errors.ts";
import type { Register } from "./commands.ts";

function maxTierArg(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 4) {
    throw new RetieError(`invalid --max-tier (${v}): must be 1, 2, 3 or 4`, {
      hint: "pass --max-tier 2, for example",
      exitCode: 2,
    });
  }
  return n;
}

/**
 * Registers `retie usage`.
 *
 * @example
 * ```ts
 * import { Command } from "commander";
 * import { register } from "./usage.ts";
 * register(new Command("retie"));
 * ```
 */
export const register: Register = (program: Command) => {
  program
    .command("usage")
    .description("show quota units spent per model, tier, session and day, and the current ladder")
    .option("--json", "print JSON")
    .option("--base-url <url>", "OpenAI-compatible base URL", "https://ollama.com/v1")
    .option("--max-tier <n>", "show the ladder as `--max-tier N` would use it", maxTierArg)
    .action(async (opts: { json?: boolean; baseUrl: string; maxTier?: number }) => {
      const { normalizeBaseUrl } = await import("../models/mod.ts");
      const { ProbeCache } = await import("../models/mod.ts");
      const { cachedModels, toCandidates } = await import("../models/mod.ts");
      const { rungs } = await import("../models/mod.ts");
      const { UsageStore } = await import("../models/mod.ts");
      const { table } = await import("./models.ts");

      const baseUrl = normalizeBaseUrl(opts.baseUrl);
      const store = new UsageStore();
      let summary;
      try {
        summary = store.summary();
      } finally {
        store.close();
      }
      const models = cachedModels(baseUrl, new ProbeCache());
      const ladder = models
        ? rungs(toCandidates(models), opts.maxTier).map((c) => ({
          model: c.name,
          tier: c.tier,
          entitlement: c.entitlement,
        }))
        : null;
      const denied = models?.filter((m) => m.entitlement === "denied").map((m) => m.name) ?? [];

      if (opts.json) {
        console.log(JSON.stringify({ baseUrl, usage: summary, ladder, denied }, null, 2));
        return;
      }
      const section = (title: string, rows: typeof summary.byModel) => {
        console.log(`\n${title}`);
        if (rows.length === 0) return console.log("  (none)");
        const t = table([
          ["", "CALLS", "IN", "OUT", "UNITS"],
          ...rows.map((r) => [
            r.key,
            String(r.calls),
            String(r.inputTokens),
            String(r.outputTokens),
            String(r.units),
          ]),
        ]);
        console.log(t.split("\n").map((l) => `  ${l}`).join("\n"));
      };
      console.log(
        `total: ${summary.total.units} quota units over ${summary.total.calls} calls ` +
          "(tokens × tier weight; consumption only: the service publishes no allowance)",
      );
      section("per model", summary.byModel);
      section("per tier", summary.byTier);
      section("per session", summary.bySession);
      section("per day (UTC)", summary.byDay);
      console.log(`\nladder (${baseUrl}${opts.maxTier ? `, --max-tier ${opts.maxTier}` : ""})`);
      if (!ladder) {
        console.log("  no model list saved yet: run `retie models` or `retie probe`");
      } else if (ladder.length === 0) {
        console.log("  no usable model");
      } else {
        ladder.forEach((r, i) =>
          console.log(
            `  ${i + 1}. ${r.model}  tier ${r.tier ?? "?"}  ${r.entitlement.replace("_", " ")}`,
          )
        );
      }
      if (denied.length) console.log(`  dropped (denied): ${denied.join(", ")}`);
    });
};
