/**
 * `retie run [DIR]` — an interactive session, or `--headless -p "objective"` to completion.
 *
 * @module
 */
import type { Command } from "commander";
import { RetieError } from "../core/errors.ts";
import { defaultLedgerPath } from "../core/dirs.ts";
import type { Register } from "./commands.ts";

/** Options of `retie run`. */
export interface RunOptions {
  headless?: boolean;
  prompt?: string;
  provider: string;
  model?: string;
  baseUrl?: string;
  maxSteps: string;
  maxTier?: string;
  mode: string;
  network?: boolean;
  yes?: boolean;
  ledger?: string;
}

function intOption(
  name: string,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new RetieError(`${name} takes a whole number from ${min} to ${max} (got "${value}")`, {
      exitCode: 2,
    });
  }
  return n;
}

export const register: Register = (program) => {
  program
    .command("run")
    .description("start a session in DIR (default: the current directory)")
    .argument("[dir]", "the project directory (the workspace)", ".")
    .option("--headless", "run to completion without a terminal: ask becomes deny unless --yes")
    .option("-p, --prompt <objective>", "the objective (headless: else read from stdin)")
    .option("--provider <name>", "ollama | anthropic | openai", "ollama")
    .option("--model <name>", "pin a model (default for ollama: the ladder, cheapest first)")
    .option("--base-url <url>", "OpenAI-compatible or Anthropic base URL (e.g. a local Ollama)")
    .option("--max-steps <n>", "model calls per turn", "40")
    .option("--max-tier <n>", "never use a heavier model tier (ollama ladder)")
    .option(
      "--mode <mode>",
      "default | plan (read-only: no write or edit; commands sandboxed and rolled back)",
      "default",
    )
    .option("--network", "give sandboxed commands the network (re-opens exfiltration)")
    .option("--yes", "approve every ask (prints a warning: the gate is then bypassed)")
    .action(async (dir: string, _o: RunOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<RunOptions>();
      if (opts.mode !== "default" && opts.mode !== "plan") {
        throw new RetieError(`--mode takes default or plan (got "${opts.mode}")`, { exitCode: 2 });
      }
      if (!["ollama", "anthropic", "openai"].includes(opts.provider)) {
        throw new RetieError(
          `--provider takes ollama, anthropic or openai (got "${opts.provider}")`,
          {
            exitCode: 2,
          },
        );
      }
      const maxSteps = intOption("--max-steps", opts.maxSteps, 1, 1000)!;
      const maxTier = intOption("--max-tier", opts.maxTier, 1, 4);
      const { runSessionCli } = await import("./run_session.ts");
      Deno.exitCode = await runSessionCli({
        dir,
        headless: opts.headless === true,
        prompt: opts.prompt,
        provider: opts.provider as "ollama" | "anthropic" | "openai",
        model: opts.model,
        baseUrl: opts.baseUrl,
        maxSteps,
        maxTier,
        mode: opts.mode as "default" | "plan",
        network: opts.network === true,
        yes: opts.yes === true,
        ledgerPath: opts.ledger ?? defaultLedgerPath(),
      });
    });
};
