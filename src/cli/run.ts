/**
 * `retie run [DIR]` — an interactive session, or `--headless -p "objective"` to completion.
 *
 * @module
 */
import type { Command } from "commander";
import { describeError, RetieError } from "../core/errors.ts";
import { defaultLedgerPath } from "../core/dirs.ts";
import type { Register } from "./commands.ts";

/** Options of `retie run` (unparsed: settings resolve flag > env > config > default). */
export interface RunOptions {
  headless?: boolean;
  prompt?: string;
  provider?: string;
  model?: string;
  baseUrl?: string;
  maxSteps?: string;
  maxTier?: string;
  contextWindow?: string;
  budget?: string;
  mode?: string;
  network?: boolean;
  snapshots?: boolean;
  yes?: boolean;
  ledger?: string;
  otlp?: string;
  outputFormat?: string;
  failOnRefusal?: boolean;
  continue?: boolean;
  resume?: boolean | string;
}

const OUTPUT_FORMATS = ["text", "json", "stream-json"] as const;

function terminal(): boolean {
  try {
    return Deno.stdin.isTerminal();
  } catch {
    return false;
  }
}

async function askYesNo(message: string): Promise<boolean> {
  const { confirm } = await import("@inquirer/prompts");
  return await confirm({ message, default: false });
}

export const register: Register = (program) => {
  program
    .command("run")
    .description("start a session in DIR (default: the directory you ran retie from)")
    .argument("[dir]", "the project directory (the workspace)", ".")
    .option("--headless", "run to completion without a terminal: ask becomes deny unless --yes")
    .option("-p, --prompt <objective>", "the objective (headless: else read from stdin)")
    .option("--provider <name>", "ollama | anthropic | openai (default: ollama)")
    .option("--model <name>", "pin a model (default for ollama: the ladder, cheapest first)")
    .option("--base-url <url>", "OpenAI-compatible or Anthropic base URL (e.g. a local Ollama)")
    .option("--max-steps <n>", "model calls per turn (default: 40)")
    .option("--max-tier <n>", "never use a heavier model tier (ollama ladder)")
    .option(
      "--context-window <n>",
      "the model's context window in tokens (default: asked of Ollama, or a known table)",
    )
    .option(
      "--budget <amount>",
      'stop the session when it has used this much: "200k tokens" or "3 units" (default: off)',
    )
    .option(
      "--mode <mode>",
      "default | plan (read-only: no write or edit; commands sandboxed and rolled back)",
    )
    .option("--network", "give sandboxed commands the network (re-opens exfiltration)")
    .option(
      "--snapshots",
      "undo sandboxed commands by whole-workspace snapshots, not a copy-on-write view",
    )
    .option("--yes", "approve every ask (prints a warning: the gate is then bypassed)")
    .option("--otlp <url>", "when the session ends, export it as OpenTelemetry traces (OTLP/HTTP)")
    .option(
      "--output-format <format>",
      "headless output: text | json (one object at the end) | stream-json (one event per line)",
    )
    .option("--fail-on-refusal", "exit 3 when the run finished but the gate refused something")
    .option("--continue", "continue the latest session of this workspace")
    .option("--resume [session]", "continue a session of this workspace (a list when omitted)")
    .action(async (dir: string, _o: RunOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<RunOptions>();
      const format = opts.outputFormat ?? "text";
      if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
        throw new RetieError(
          `--output-format takes text, json or stream-json (got "${format}")`,
          { exitCode: 2 },
        );
      }
      if (format !== "text" && opts.headless !== true) {
        throw new RetieError(`--output-format ${format} needs --headless`, {
          hint: `retie run --headless --output-format ${format} -p "what to do"`,
          exitCode: 2,
        });
      }
      if (opts.continue && opts.resume !== undefined) {
        throw new RetieError("give either --continue or --resume, not both", { exitCode: 2 });
      }
      try {
        const { loadConfig, resolveSettings } = await import("../config/mod.ts");
        const loaded = loadConfig();
        const settings = resolveSettings(
          {
            provider: opts.provider,
            model: opts.model,
            baseUrl: opts.baseUrl,
            maxTier: opts.maxTier,
            contextWindow: opts.contextWindow,
            budget: opts.budget,
            mode: opts.mode,
            maxSteps: opts.maxSteps,
          },
          env,
          loaded.config,
          loaded.path,
        );
        const budget = settings.budget.value;
        if (budget?.kind === "units" && settings.provider.value !== "ollama") {
          throw new RetieError(
            `${settings.budget.from} is in quota units, which only Ollama meters (provider ${settings.provider.value})`,
            { hint: 'give the budget in tokens, e.g. --budget "500k tokens"', exitCode: 2 },
          );
        }
        const { resolveWorkspace } = await import("../agent/session.ts");
        const { confirmWorkspace } = await import("./workspace.ts");
        await confirmWorkspace(resolveWorkspace(dir), {
          headless: opts.headless === true,
          yes: opts.yes === true,
          ask: terminal() ? askYesNo : undefined,
        });
        const { runSessionCli } = await import("./run_session.ts");
        Deno.exitCode = await runSessionCli({
          dir,
          headless: opts.headless === true,
          prompt: opts.prompt,
          provider: settings.provider.value,
          model: settings.model.value,
          baseUrl: settings.baseUrl.value,
          maxSteps: settings.maxSteps.value,
          maxTier: settings.maxTier.value,
          contextWindow: settings.contextWindow.value,
          budget: settings.budget.value,
          mode: settings.mode.value,
          network: opts.network === true,
          staging: opts.snapshots !== true,
          yes: opts.yes === true,
          ledgerPath: opts.ledger ?? defaultLedgerPath(),
          outputFormat: format as typeof OUTPUT_FORMATS[number],
          failOnRefusal: opts.failOnRefusal === true,
          otlp: opts.otlp,
          config: loaded,
          resume: opts.continue
            ? { latest: true }
            : opts.resume === undefined
            ? undefined
            : { latest: false, id: typeof opts.resume === "string" ? opts.resume : undefined },
        });
      } catch (e) {
        // A script reading JSON still gets one result object; the message goes to stderr too.
        if (format !== "text") {
          const code = e instanceof RetieError ? e.exitCode : 1;
          const line = JSON.stringify({
            type: "result",
            session: null,
            status: "error",
            result: describeError(e),
            exitCode: code,
          });
          Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
        }
        throw e;
      }
    });
};

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}
