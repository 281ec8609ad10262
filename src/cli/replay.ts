/**
 * `retie replay [--last | SESSION] [--markdown | --json | --html] [--out FILE]`
 *
 * Shows the whole session: every prompt, model answer, action (id, class, decision, who decided,
 * outcome, output excerpt, findings, diff), refusal, undo and event. `--last` (the default) is the
 * last agent session, never the small session a `retie undo` records itself in.
 *
 * Verifies the whole chain before printing anything; an invalid ledger prints the verify error and
 * exits 1, so a replay is checkable rather than merely plausible.
 *
 * @module
 */
import type { Command } from "commander";
import { errorMessage, RetieError } from "../core/errors.ts";
import { defaultLedgerPath } from "../core/dirs.ts";
import type { Register } from "./commands.ts";
import type { ReplayModel } from "../ui/replay_model.ts";

interface ReplayOptions {
  last?: boolean;
  markdown?: boolean;
  json?: boolean;
  html?: boolean;
  out?: string;
  ledger?: string;
  list?: boolean;
  maxChars?: string;
}

export const register: Register = (program) => {
  program
    .command("replay")
    .description(
      "verify the ledger, then show what a session did (text, --markdown, --json, --html)",
    )
    .argument("[session]", "session id (ses_…); default: the last agent session")
    .option("--last", "the most recent agent session (the default; undo-only sessions are skipped)")
    .option("--markdown", "markdown, for a pull request")
    .option("--json", "JSON, for tools")
    .option("--html", "one self-contained HTML page")
    .option("-o, --out <file>", "write to a file instead of stdout")
    .option(
      "--max-chars <n>",
      "markdown: stay within N characters (a pull request body takes 65536), leaving out whole details blocks, then rows",
    )
    .option("--list", "list the agent sessions (id, start, objective), one per line")
    .action(async (session: string | undefined, _opts: ReplayOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<ReplayOptions>();
      const formats = [opts.markdown, opts.json, opts.html].filter(Boolean).length;
      if (formats > 1) {
        throw new RetieError("replay: choose one of --markdown, --json, --html", { exitCode: 2 });
      }
      const maxChars = opts.maxChars === undefined ? undefined : Number(opts.maxChars);
      if (maxChars !== undefined && (!Number.isInteger(maxChars) || maxChars < 1000)) {
        throw new RetieError(
          `replay: --max-chars takes a whole number of at least 1000 (got "${opts.maxChars}")`,
          { exitCode: 2 },
        );
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
      const { buildReplay, childSessions } = await import("../ui/replay_model.ts");
      const ledger = openLedger(path);
      try {
        const sessions = ledger.sessions();
        if (sessions.length === 0) {
          throw new RetieError(`replay: the ledger ${path} has no sessions yet`, {
            hint: "run `retie run` (or `deno task demo`) first",
          });
        }
        if (opts.list) {
          const { safeText } = await import("../ui/safe_text.ts");
          for (const s of sessions.filter((s) => s.provider !== "none")) {
            const objective = safeText(s.objective.split("\n")[0].slice(0, 100), { tabs: "show" });
            console.log(`${s.id}\t${s.started}\t${objective}`);
          }
          return;
        }
        // The last agent session: a `retie undo` records its undos in a small session of its own
        // (provider "none"), which is not what a reviewer means by "the last session".
        // Nor is a sub-agent's session: it is shown nested in its caller's.
        const subs = new Set(
          ledger.entries({ kinds: ["genesis"] }).filter((e) => e.payload.parentSession)
            .map((e) => e.session),
        );
        const agents = sessions.filter((s) => s.provider !== "none" && !subs.has(s.id));
        const id = session ?? (agents.at(-1) ?? sessions.at(-1)!).id;
        if (!sessions.some((s) => s.id === id)) {
          throw new RetieError(`replay: no session ${id} in ${path}`, {
            hint: `sessions here: ${sessions.slice(-5).map((s) => s.id).join(", ")}`,
            exitCode: 2,
          });
        }
        const entries = ledger.entries({ session: id });
        const ids = new Set(entries.map((e) => e.actionId).filter(Boolean));
        // Undos recorded later, by `retie undo` in its own session, mark this session's actions.
        const undos = ledger.entries({ kinds: ["undo"] }).filter((e) =>
          e.session !== id && ids.has(e.actionId)
        );
        const head = { seq: report.headSeq, hash: report.headHash };
        const model = buildReplay(entries, head, undos);
        // Sub-agents' sessions, nested under the session that called them.
        const geneses = ledger.entries({ kinds: ["genesis"] });
        const nest = (m: ReplayModel, depth: number): ReplayModel => {
          if (depth > 8) return m;
          const subs = childSessions(geneses, m.session).map((c) =>
            nest(buildReplay(ledger.entries({ session: c }), head), depth + 1)
          );
          return subs.length ? { ...m, subagents: subs } : m;
        };
        const full = nest(model, 0);
        let text: string;
        if (opts.json) text = JSON.stringify(full, null, 2);
        else if (opts.html) text = (await import("../ui/replay_html.ts")).renderHtml(full);
        else if (opts.markdown) {
          text = (await import("../ui/replay_markdown.ts")).renderMarkdown(full, { maxChars });
        } else {
          // A file gets plain text, whatever the terminal is.
          if (opts.out) (await import("../ui/color.ts")).forceColor(false);
          text = (await import("../ui/replay_text.ts")).renderText(full);
        }
        if (opts.out) {
          try {
            await Deno.writeTextFile(opts.out, text.endsWith("\n") ? text : `${text}\n`);
          } catch (e) {
            throw new RetieError(`replay: cannot write ${opts.out}: ${errorMessage(e)}`, {
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
