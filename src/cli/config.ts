/**
 * `retie config [--json] [--schema]`: the effective settings and where each came from (flag >
 * environment > config file > default), the config file's path, and its remembered approvals.
 * `--schema` prints the config file's JSON Schema. An invalid config file exits 2 naming the key.
 *
 * @module
 */
import type { Register } from "./commands.ts";

/**
 * Registers `retie config`.
 *
 * @example
 * ```ts
 * import { Command } from "commander";
 * import { register } from "./config.ts";
 * const program = new Command("retie");
 * register(program);
 * ```
 */
export const register: Register = (program) => {
  program
    .command("config")
    .description("print the effective settings and where each came from (flag > env > config)")
    .option("--json", "print them as JSON")
    .option("--schema", "print the JSON Schema of config.json")
    .action(async (opts: { json?: boolean; schema?: boolean }) => {
      const cfg = await import("../config/mod.ts");
      if (opts.schema) {
        console.log(JSON.stringify(cfg.configJsonSchema(), null, 2));
        return;
      }
      const loaded = cfg.loadConfig();
      const env = (n: string) => {
        try {
          return Deno.env.get(n) || undefined;
        } catch {
          return undefined;
        }
      };
      const s = cfg.resolveSettings({}, env, loaded.config, loaded.path);
      const remembered = loaded.config.rememberedApprovals ?? [];
      if (opts.json) {
        console.log(JSON.stringify(
          {
            configFile: loaded.path,
            exists: loaded.exists,
            settings: s,
            rememberedApprovals: remembered,
            reserved: {
              mcpServers: loaded.config.mcpServers ?? null,
              agents: loaded.config.agents ?? null,
              otlp: loaded.config.otlp ?? null,
            },
          },
          null,
          2,
        ));
        return;
      }
      console.log(`config file: ${loaded.path}${loaded.exists ? "" : " (absent: defaults)"}`);
      for (const [key, v] of Object.entries(s)) {
        const shown = v.value === undefined
          ? "(unset)"
          : key === "budget"
          ? cfg.formatBudget(v.value)
          : String(v.value);
        const where = v.source === "default" ? "default" : `${v.source} ${v.from}`;
        console.log(`  ${key.padEnd(14)} ${shown.padEnd(28)} ${where}`);
      }
      console.log(`  remembered approvals: ${remembered.length} (retie policy lists them)`);
      console.log("precedence: flag > environment (RETIE_*) > config file > default");
    });
};
