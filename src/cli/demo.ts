/**
 * `retie demo`: all of retie on a scripted model — no key, no network, a few seconds.
 *
 * It shows the classification table (bash twice: sandboxed and unconfined, and why that changes
 * the class), the gate deciding, an unclassified tool refused by default, the inspector catching
 * `auth-check-removed (1 → 0)`, a sandboxed command undone, the ledger verified by a separate
 * process, and the replay.
 *
 * @module
 */
import type { Command } from "commander";
import { join } from "node:path";
import type { Register } from "./commands.ts";

interface DemoOptions {
  ledger?: string;
}

export const register: Register = (program) => {
  program
    .command("demo")
    .description("see all of retie on a scripted model: no key, no network, a few seconds")
    .action(async (_o: DemoOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<DemoOptions>();
      const { runDemo } = await import("./demo_run.ts");
      Deno.exitCode = await runDemo({ ledgerPath: opts.ledger });
    });
};

/** Where the demo keeps its ledger when `--ledger` is not given. */
export function demoLedgerPath(tmp: string): string {
  return join(tmp, "ledger.db");
}
