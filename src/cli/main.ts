/**
 * The `retie` program: global options, subcommand registration, exit codes.
 *
 * Exit codes: 0 success, 1 failure, 2 usage error or unreadable input. Subcommands import their
 * heavy modules lazily inside their actions, so `retie --help` starts fast.
 *
 * @module
 */
import { Command, CommanderError } from "commander";
import { VERSION } from "../version.ts";
import { describeError, RetieError } from "../core/errors.ts";
import { COMMANDS } from "./commands.ts";
import { safeText } from "../ui/safe_text.ts";

/** Options every subcommand can read with `cmd.optsWithGlobals()`. */
export interface GlobalOptions {
  /** Path of the ledger database (default: `$RETIE_LEDGER` or `<state>/retie/ledger.db`). */
  ledger?: string;
}

/**
 * Builds the commander program with every registered subcommand.
 *
 * @example
 * ```ts
 * import { buildProgram } from "./main.ts";
 * buildProgram().helpInformation().includes("retie"); // true
 * ```
 */
export function buildProgram(): Command {
  const program = new Command("retie")
    .description(
      "A terminal coding agent that classifies every action by how hard it is to undo,\n" +
        "plans the undo before acting, and records what it did to a signed ledger.",
    )
    .version(VERSION, "-V, --version", "print the version")
    .option(
      "--ledger <path>",
      "ledger database (default: $RETIE_LEDGER or ~/.local/state/retie/ledger.db)",
    )
    .option(
      "--unconfined",
      "run even with broader Deno permissions than retie's own flags (announced and recorded)",
    )
    .showHelpAfterError("(run `retie --help` for usage)")
    .exitOverride();
  for (const register of COMMANDS) register(program);
  return program;
}

/**
 * Runs retie with the given arguments and returns the exit code.
 *
 * @example
 * ```ts
 * import { main } from "./main.ts";
 * const code = await main(["--version"]); // prints the version, returns 0
 * ```
 */
export async function main(args: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(args, { from: "user" });
    return typeof Deno.exitCode === "number" ? Deno.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === "commander.helpDisplayed" || e.code === "commander.version") return 0;
      if (e.code === "commander.help") return 0;
      return 2;
    }
    // An error can carry a server's or a file's text: made safe like all terminal output.
    console.error(`retie: ${safeText(describeError(e))}`);
    return e instanceof RetieError ? e.exitCode : 1;
  }
}
