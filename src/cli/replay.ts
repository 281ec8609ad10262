/**
 * `retie replay [--last | SESSION] [--markdown | --json | --html] [--out FILE]`
 *
 * Verifies the whole chain before printing anything; an invalid ledger prints the verify error and
 * exits 1, so a replay is checkable rather than merely plausible.
 *
 * @module
 */
import type { Command } from "commander";
import { RetieError } from "../core/errors.ts";
import { defaultLedgerPath } from "../core/dirs.ts";
import type { Register } from "./commands.ts";

interface ReplayOptions {
  last?: boolean;
  markdown?: boolean;
  json?: boolean;
  html?: boolean;
  out?: string;
  ledger?: string;
}

export const register: Register = (program) => {
  program
    .command("replay")
    .description(
      "verify the ledger, then show what a session did (text, --markdown, --json, --html)",
    )
    .argument("[session]", "session id (ses_…); default: the last session")
    .option("--last", "the most recent session (the default)")
    .option("--markdown", "markdown, for a pull request")
    .option("--json", "JSON, for tools")
    .option("--html", "one self-contained HTML page")
    .option("-o, --out <file>", "write to a file instead of stdout")
    .action(async (session: string | undefined, _opts: ReplayOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<ReplayOptions>();
      const formats = [opts.markdown, opts.json, opts.html].filter(Boolean).length;
      if (formats > 1) {
        throw new RetieError("replay: choose one of --markdown, --json, --html", { exitCode: 2 });
      }
      if (session && opts.last) {
        throw new RetieError("replay: give a session id or --last, not both", { exitCode: 2 });
      }
      const path = opts.ledger ?? defaultLedgerPath();
      const { verifyLedger } = await import("../ledger/mod.ts");
      const report = verifyLedger(path);
      if (!report.ok) {
        const bad = report.firstBad!;
        console.error(`retie: ledger INVALID at seq ${bad.seq}: ${bad.detail} [${bad.code}]`);
        console.error(
          "  hint: nothing is replayed from a ledger that does not verify; run `retie verify` for details",
        );
        Deno.exitCode = 1;
        return;
      }
      const { openLedger } = await import("../ledger/mod.ts");
      const { buildReplay } = await import("../ui/replay_model.ts");
      const ledger = openLedger(path);
      try {
        const sessions = ledger.sessions();
        if (sessions.length === 0) {
          throw new RetieError(`replay: the ledger ${path} has no sessions yet`, {
            hint: "run `retie run` (or `deno task demo`) first",
          });
        }
        const id = session ?? sessions.at(-1)!.id;
        if (!sessions.some((s) => s.id === id)) {
          throw new RetieError(`replay: no session ${id} in ${path}`, {
            hint: `sessions here: ${sessions.slice(-5).map((s) => s.id).join(", ")}`,
            exitCode: 2,
          });
        }
        const model = buildReplay(ledger.entries({ session: id }), {
          seq: report.headSeq,
          hash: report.headHash,
        });
        let text: string;
        if (opts.json) text = JSON.stringify(model, null, 2);
        else if (opts.html) text = (await import("../ui/replay_html.ts")).renderHtml(model);
        else if (opts.markdown) text = (await import("../ui/replay_text.ts")).renderMarkdown(model);
        else {
          // A file gets plain text, whatever the terminal is.
          if (opts.out) (await import("../ui/color.ts")).forceColor(false);
          text = (await import("../ui/replay_text.ts")).renderText(model);
        }
        if (opts.out) {
          try {
            await Deno.writeTextFile(opts.out, text.endsWith("\n") ? text : `${text}\n`);
          } catch (e) {
            throw new RetieError(`replay: cannot write ${opts.out}: ${(e as Error).message}`, {
              hint: "pass --out a file in an existing, writable directory",
              exitCode: 2,
            });
          }
          console.log(`wrote ${opts.out}`);
        } else console.log(text);
      } finally {
        ledger.close();
      }
    });
};
