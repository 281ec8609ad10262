/**
 * The interactive loop of `retie run`: the request prompt (`›`, or `plan ›` in plan mode), slash
 * commands (src/cli/slash.ts), turns that Ctrl-C or Esc interrupt cleanly without ending the
 * session, and Ctrl-D ending it with a checkpoint and a summary line. Input comes from the one
 * reader of stdin (src/ui/terminal_input.ts), so nothing typed during a turn or at an approval
 * reaches another prompt.
 *
 * @module
 */
import { dirname, join } from "node:path";
import type { AgentSession } from "../agent/session.ts";
import { stateDir } from "../core/dirs.ts";
import { describeError } from "../core/errors.ts";
import { c } from "../ui/color.ts";
import { untrusted, warn } from "../ui/term.ts";
import type { TerminalInput } from "../ui/terminal_input.ts";
import { expandMentions, runOwnCommand } from "./mentions.ts";
import { runSlash, type SlashContext } from "./slash.ts";
import { initRequest } from "./repl_context.ts";

const HISTORY_MAX = 500;

/** Where the request history is kept between sessions. */
export function historyPath(): string {
  return join(stateDir(), "history");
}

/** Earlier requests, newest first (a missing file is an empty history). */
export function loadHistory(path = historyPath()): string[] {
  try {
    const text = Deno.readTextFileSync(path);
    // One request per line: a JSON string (multi-line requests), or plain text (older files).
    return text.split("\n").filter(Boolean).map((l) => {
      if (!l.startsWith('"')) return l;
      try {
        return String(JSON.parse(l));
      } catch {
        return l;
      }
    }).reverse().slice(0, HISTORY_MAX);
  } catch {
    return [];
  }
}

/** Saves the history (newest first in memory, oldest first on disk). */
export function saveHistory(entries: string[], path = historyPath()): void {
  try {
    Deno.mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // Plain text when it is one line and cannot be read as JSON; a JSON string otherwise.
    const lines = [...entries].slice(0, HISTORY_MAX).reverse().map((e) =>
      e.includes("\n") || e.startsWith('"') ? JSON.stringify(e) : e
    );
    Deno.writeTextFileSync(path, lines.join("\n") + "\n", { mode: 0o600 });
  } catch { /* history is a convenience; never fail the session for it */ }
}

/** The prompt for a mode. */
export function promptFor(mode: "default" | "plan"): { plain: string; styled: string } {
  return mode === "plan"
    ? { plain: "plan › ", styled: c.bold(c.cyan("plan ›")) + " " }
    : { plain: "› ", styled: c.bold("› ") };
}

/**
 * Reads one request, running the slash commands typed before it. Null at end of input or /quit.
 *
 * @example
 * ```ts ignore
 * const text = await readRequest(input, ctx);
 * ```
 */
export async function readRequest(
  input: TerminalInput,
  ctx: SlashContext,
): Promise<string | null> {
  while (true) {
    const p = promptFor(ctx.settings.mode);
    const text = await input.readRequest(p.plain, p.styled);
    if (text === null) return null;
    const t = text.trim();
    if (!t) continue;
    // /init is a request: the model drafts AGENTS.md with the write tool (gated like any write).
    if (/^\/init(\s|$)/.test(t) && !t.includes("\n")) return initRequest(t.slice(5).trim());
    if (t.startsWith("/") && !t.includes("\n")) {
      try {
        if (await runSlash(t, ctx)) return null;
      } catch (e) {
        // A bad argument (an unknown action id, …) is reported; the session goes on.
        warn(c.red(`retie: ${untrusted(describeError(e))}`));
      }
      continue;
    }
    return t;
  }
}

/**
 * Runs one turn that Ctrl-C, Esc or SIGINT interrupt; the interruption is said once.
 *
 * @example
 * ```ts ignore
 * await interruptibleTurn(session, "fix the test", input, ctx);
 * ```
 */
export async function interruptibleTurn(
  session: AgentSession,
  text: string,
  input: TerminalInput,
  ctx: SlashContext,
  shown?: (text: string) => boolean,
): Promise<void> {
  const ac = new AbortController();
  const interrupt = () => {
    if (ac.signal.aborted) return;
    ac.abort();
    ctx.view.hold();
    warn(
      c.yellow("⏹ interrupted: the turn stopped (the session goes on; Ctrl-D ends it)"),
    );
  };
  input.onInterrupt = interrupt;
  let listening = false;
  try {
    Deno.addSignalListener("SIGINT", interrupt);
    listening = true;
  } catch { /* no signals here */ }
  try {
    if (text.startsWith("!")) {
      // The person's own command: run, shown, recorded; no model turn.
      await runOwnCommand(text.slice(1).trim(), session, ctx.view, ac.signal);
      return;
    }
    const full = await expandMentions(text, session, ac.signal);
    if (ac.signal.aborted) return;
    const summary = await session.turn(full, ac.signal);
    if (summary.status !== "done" && summary.status !== "cancelled" && !shown?.(summary.text)) {
      warn(c.red(untrusted(summary.text)));
    }
  } catch (e) {
    warn(c.red(`retie: ${untrusted(describeError(e))}`));
  } finally {
    input.onInterrupt = null;
    if (listening) Deno.removeSignalListener("SIGINT", interrupt);
  }
}

/**
 * Runs the REPL until /quit or end of input; returns the exit code.
 *
 * @example
 * ```ts ignore
 * await runRepl(session, { input, ctx, firstInput: objective });
 * ```
 */
export async function runRepl(
  session: AgentSession,
  opts: {
    firstInput?: string;
    input: TerminalInput;
    ctx: SlashContext;
    shown?: (text: string) => boolean;
  },
): Promise<number> {
  const { input, ctx } = opts;
  if (!opts.firstInput) {
    warn(c.dim("type your request; /help for commands and keys"));
  }
  let pending = opts.firstInput;
  while (true) {
    const text = pending ?? await readRequest(input, ctx);
    pending = undefined;
    if (text === null) break;
    await interruptibleTurn(session, text, input, ctx, opts.shown);
  }
  return 0;
}
