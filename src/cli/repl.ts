/**
 * The interactive loop of `retie run`: a line prompt with multi-line input (end a line with `\`),
 * slash commands, Ctrl-C cancelling the current turn (sandboxed processes killed) without ending
 * the session, and Ctrl-D ending it with a checkpoint.
 *
 * @module
 */
import process from "node:process";
import readline from "node:readline";
import { dirname, join } from "node:path";
import type { AgentSession } from "../agent/session.ts";
import { stateDir } from "../core/dirs.ts";
import { describeError } from "../core/errors.ts";
import { c } from "../ui/color.ts";
import { contextCommand, initRequest } from "./repl_context.ts";

const HELP = `commands:
  /undo [id]      undo one action (default: the last one that can be undone)
  /undo-all       undo everything this session did, newest first
  /ledger [n]     the last n ledger entries of this session (default 10)
  /usage          tokens used (every provider), context used, quota units (Ollama)
  /compact [focus]  summarise the older turns now (recent ones stay verbatim)
  /clear          start a fresh conversation in this session (recorded)
  /init [notes]   draft an AGENTS.md for this project (a write, gated like any other)
  /model          the model in use
  /mcp            MCP servers, their tools and the rule that classifies each
  /mode plan|default  plan = read-only (no write, edit or bash)
  /help           this list
  /quit           end the session (Ctrl-D does the same)
Ctrl-C cancels the current turn; end a line with \\ to continue on the next.`;

/** Reads lines with node:readline: line editing and history (↑/↓) on a terminal. */
class LineReader {
  #rl: readline.Interface;
  #queue: string[] = [];
  #waiting: ((line: string | null) => void) | null = null;
  #closed = false;

  constructor(history: string[], onSigint: () => void) {
    this.#rl = readline.createInterface({
      input: process.stdin,
      output: process.stdout,
      terminal: process.stdin.isTTY === true,
      history,
      historySize: 500,
    });
    this.#rl.on("line", (line) => this.#push(line));
    this.#rl.on("close", () => {
      this.#closed = true;
      this.#push(null);
    });
    this.#rl.on("SIGINT", onSigint);
  }

  #push(line: string | null): void {
    if (this.#waiting) {
      const w = this.#waiting;
      this.#waiting = null;
      w(line);
    } else if (line !== null) this.#queue.push(line);
  }

  /** Shows the prompt and resolves the next line, or null at end of input (Ctrl-D). */
  next(prompt: string): Promise<string | null> {
    if (this.#queue.length) return Promise.resolve(this.#queue.shift()!);
    if (this.#closed) return Promise.resolve(null);
    this.#rl.setPrompt(prompt);
    this.#rl.prompt();
    return new Promise((resolve) => (this.#waiting = resolve));
  }

  /** Stops reading while something else owns the terminal (the approval prompt). */
  pause(): void {
    // Input piped in may end while a turn runs: a closed readline throws on pause/resume.
    if (this.#closed) return;
    this.#rl.pause();
    // Cooked mode while a turn runs: Ctrl-C is then a real SIGINT, which cancels the turn.
    if (process.stdin.isTTY) process.stdin.setRawMode(false);
  }

  resume(): void {
    if (this.#closed) return;
    // The approval prompt leaves the terminal in cooked mode; readline expects raw mode back.
    if (process.stdin.isTTY) process.stdin.setRawMode(true);
    this.#rl.resume();
  }

  /** The lines entered, newest first (readline keeps them). */
  history(): string[] {
    return (this.#rl as unknown as { history?: string[] }).history ?? [];
  }

  close(): void {
    this.#rl.close();
  }
}

const HISTORY_MAX = 500;

function loadHistory(path: string): string[] {
  try {
    return Deno.readTextFileSync(path).split("\n").filter(Boolean).reverse().slice(0, HISTORY_MAX);
  } catch {
    return [];
  }
}

function saveHistory(path: string, entries: string[]): void {
  try {
    Deno.mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    Deno.writeTextFileSync(path, [...entries].reverse().slice(-HISTORY_MAX).join("\n") + "\n", {
      mode: 0o600,
    });
  } catch { /* history is a convenience; never fail the session for it */ }
}

/**
 * The terminal input of a session: a readline with history, and the SIGINT handling that cancels
 * the running turn. Created before the session so the first request — the objective recorded in
 * genesis — is read with the same reader as every later one (a piped script loses no line).
 */
export class ReplInput {
  readonly lines: LineReader;
  /** The running turn, cancelled by Ctrl-C. */
  current: AbortController | null = null;
  #historyPath = join(stateDir(), "history");
  #signalListening = false;
  #onSigint = () => {
    if (this.current) {
      this.current.abort();
      console.error(c.yellow("\ncancelled the current turn (the session goes on; Ctrl-D ends it)"));
    } else console.error(c.dim("\n(Ctrl-D or /quit ends the session)"));
  };

  constructor() {
    this.lines = new LineReader(loadHistory(this.#historyPath), this.#onSigint);
    // While a turn runs, Ctrl-C reaches the process (readline is paused) and cancels the turn.
    try {
      Deno.addSignalListener("SIGINT", this.#onSigint);
      this.#signalListening = true;
    } catch { /* not on this platform */ }
  }

  /** The next request (multi-line with a trailing backslash), or null at end of input. */
  read(): Promise<string | null> {
    return readInput(this.lines);
  }

  close(): void {
    if (this.#signalListening) Deno.removeSignalListener("SIGINT", this.#onSigint);
    this.#signalListening = false;
    saveHistory(this.#historyPath, this.lines.history());
    this.lines.close();
  }
}

/**
 * Runs the REPL until /quit or end of input; returns the exit code.
 *
 * @example
 * ```ts ignore
 * await runRepl(session, { workspace, input: new ReplInput() });
 * ```
 */
export async function runRepl(
  session: AgentSession,
  opts: {
    firstInput?: string;
    workspace: string;
    /** Whether a turn's closing text was already shown (as a notice): then it is not repeated. */
    shown?: (text: string) => boolean;
    /** The input already opened (to read the first request); a new one otherwise. */
    input?: ReplInput;
  },
): Promise<number> {
  const input = opts.input ?? new ReplInput();
  const lines = input.lines;
  console.error(c.dim("type your request; /help for commands; end a line with \\ to continue it"));
  let pendingFirst = opts.firstInput;
  try {
    while (true) {
      let text: string | null;
      if (pendingFirst) {
        text = pendingFirst;
        pendingFirst = undefined;
      } else {
        text = await input.read();
      }
      if (text === null) break;
      text = text.trim();
      if (!text) continue;
      // `/init [notes]`: a request like any other, so the AGENTS.md it writes is gated.
      if (/^\/init(\s|$)/.test(text)) text = initRequest(text.slice(5).trim());
      if (text.startsWith("/")) {
        try {
          if (await slash(text, session)) break;
        } catch (e) {
          // A bad argument (an unknown action id, …) is reported; the session goes on.
          console.error(c.red(`retie: ${describeError(e)}`));
        }
        continue;
      }
      input.current = new AbortController();
      lines.pause();
      try {
        const summary = await session.turn(text, input.current.signal);
        if (
          summary.status !== "done" && summary.status !== "cancelled" &&
          !opts.shown?.(summary.text)
        ) {
          console.error(c.red(summary.text));
        }
      } catch (e) {
        console.error(c.red(`retie: ${describeError(e)}`));
      } finally {
        input.current = null;
        lines.resume();
      }
    }
  } finally {
    input.close();
  }
  // The caller closes the session (final checkpoint) and then says so.
  return 0;
}

async function readInput(lines: LineReader): Promise<string | null> {
  const parts: string[] = [];
  let prompt = c.bold("› ");
  while (true) {
    const line = await lines.next(prompt);
    if (line === null) return parts.length ? parts.join("\n") : null;
    if (line.endsWith("\\")) {
      parts.push(line.slice(0, -1));
      prompt = c.dim("… ");
      continue;
    }
    parts.push(line);
    return parts.join("\n");
  }
}

/** Runs a slash command; returns true to end the session. */
export async function slash(text: string, session: AgentSession): Promise<boolean> {
  const [cmd, ...rest] = text.split(/\s+/);
  const arg = rest.join(" ");
  switch (cmd) {
    case "/quit":
    case "/exit":
      return true;
    case "/help":
      console.log(HELP);
      return false;
    case "/model":
      console.log(`model: ${session.model()}`);
      return false;
    case "/mcp": {
      const { listMcp, formatMcpList } = await import("../mcp/mod.ts");
      const { mcpClassifier } = await import("../agent/extensions.ts");
      console.log(
        formatMcpList(session.mcp ? listMcp(session.mcp, mcpClassifier(session.policy)) : []),
      );
      return false;
    }
    case "/mode":
      if (arg !== "plan" && arg !== "default") console.log("usage: /mode plan|default");
      else {
        session.setMode(arg);
        console.log(
          `mode: ${arg}${arg === "plan" ? " (read-only: write, edit and bash are denied)" : ""}`,
        );
      }
      return false;
    case "/ledger": {
      const n = Number(arg || "10");
      if (!Number.isInteger(n) || n < 1) {
        console.log(`usage: /ledger [n] (n a whole number of entries, got "${arg}")`);
        return false;
      }
      const entries = session.ledger.entries({ session: session.id });
      for (const e of entries.slice(-n)) {
        console.log(
          `  #${e.seq} ${e.time.slice(11, 19)} ${e.kind.padEnd(10)} ${e.actionId ?? ""} ${
            e.hash.slice(0, 12)
          }`,
        );
      }
      return false;
    }
    case "/usage":
    case "/compact":
    case "/clear":
      await contextCommand(cmd, arg, session);
      return false;
    case "/undo":
    case "/undo-all": {
      const reports = cmd === "/undo" ? [await session.undo(arg || null)] : await session.undoAll();
      for (const r of reports) {
        const status = r.status === "undone"
          ? c.green("undone")
          : r.status === "skipped"
          ? c.yellow("skipped")
          : c.red("refused");
        console.log(`  ${status} ${r.target} ${r.summary ?? ""}: ${r.reason}`);
        for (const d of r.differs) console.log(`      differs: ${d}`);
      }
      if (reports.length === 0) console.log("nothing to undo");
      return false;
    }
    default:
      console.log(`unknown command ${cmd}; /help lists them`);
      return false;
  }
}
