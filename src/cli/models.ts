/**
 * `retie models [--json] [--base-url URL]`: the live model list with each model's tier and what
 * retie knows of its entitlement (accessible / denied / inconclusive / not probed).
 *
 * @module
 */
import type { Command } from "commander";
import type { Register } from "./commands.ts";

/** Formats a byte count as GB/TB for the table. */
export function formatSize(bytes: number | null): string {
  if (bytes === null) return "?";
  return bytes >= 1e12 ? `${(bytes / 1e12).toFixed(2)} TB` : `${(bytes / 1e9).toFixed(1)} GB`;
}

/** Left-aligned columns, two spaces apart. */
export function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd()).join("\n");
}

/**
 * Registers `retie models`.
 *
 * @example
 * ```ts
 * import { Command } from "commander";
 * import { register } from "./models.ts";
 * const program = new Command("retie");
 * register(program);
 * ```
 */
export const register: Register = (program: Command) => {
  program
    .command("models")
    .description("list the live models with their tier and entitlement (run `retie probe` first)")
    .option("--json", "print JSON")
    .option("--base-url <url>", "OpenAI-compatible base URL", "https://ollama.com/v1")
    .action(async (opts: { json?: boolean; baseUrl: string }) => {
      const { normalizeBaseUrl } = await import("../models/mod.ts");
      const { ProbeCache } = await import("../models/mod.ts");
      const { liveModels } = await import("../models/mod.ts");
      const baseUrl = normalizeBaseUrl(opts.baseUrl);
      const models = await liveModels(baseUrl, new ProbeCache());
      if (opts.json) {
        console.log(JSON.stringify({ baseUrl, models }, null, 2));
        return;
      }
      const rows = [["MODEL", "TIER", "SIZE", "FROM", "ENTITLEMENT"]];
      for (const m of models) {
        rows.push([
          m.name,
          m.tier === null ? "?" : String(m.tier),
          formatSize(m.sizeBytes),
          m.basis,
          m.entitlement.replace("_", " "),
        ]);
      }
      console.log(table(rows));
      if (models.every((m) => m.entitlement === "not_probed")) {
        console.log(
          "\nnothing probed yet: run `retie probe` to learn which models this key may call",
        );
      }
    });
};
