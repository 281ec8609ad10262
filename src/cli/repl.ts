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

const HELP = `commands:
  /undo [id]      undo one action (default: the last one that can be undone)
  /undo-all       undo everything this session did, newest first
  /ledger [n]     the last n ledger entries of this session (default 10)
  /usage          quota units used (Ollama ladder)
  /model          the model in use
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
    this.#rl.pause();
    // Cooked mode while a turn runs: Ctrl-C is then a real SIGINT, which cancels the turn.
    if (process.stdin.isTTY) process.stdin.setRawMode(false);
  }

  resume(): void {
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
 * Runs the REPL until /quit or end of input; returns the exit code.
 *
 * @example
 * ```ts ignore
 * await runRepl(session, { workspace });
 * ```
 */
export async function runRepl(
  session: AgentSession,
  opts: { firstInput?: string; workspace: string },
): Promise<number> {
  let current: AbortController | null = null;
  const onSigint = () => {
    if (current) {
      current.abort();
      console.error(c.yellow("\ncancelled the current turn (the session goes on; Ctrl-D ends it)"));
    } else console.error(c.dim("\n(Ctrl-D or /quit ends the session)"));
  };
  const historyPath = join(stateDir(), "history");
  const history = loadHistory(historyPath);
  const lines = new LineReader(history, onSigint);
  // While a turn runs, Ctrl-C reaches the process (readline is paused) and cancels the turn.
  let signalListening = false;
  try {
    Deno.addSignalListener("SIGINT", onSigint);
    signalListening = true;
  } catch { /* not on this platform */ }
  console.error(c.dim("type your request; /help for commands; end a line with \\ to continue it"));
  let pendingFirst = opts.firstInput;
  try {
    while (true) {
      let text: string | null;
      if (pendingFirst) {
        text = pendingFirst;
        pendingFirst = undefined;
      } else {
        text = await readInput(lines);
      }
      if (text === null) break;
      text = text.trim();
      if (!text) continue;
      if (text.startsWith("/")) {
        if (await slash(text, session)) break;
        continue;
      }
      current = new AbortController();
      lines.pause();
      try {
        const summary = await session.turn(text, current.signal);
        if (summary.status !== "done" && summary.status !== "cancelled") {
          console.error(c.red(summary.text));
        }
      } catch (e) {
        console.error(c.red(`retie: ${describeError(e)}`));
      } finally {
        current = null;
        lines.resume();
      }
    }
  } finally {
    if (signalListening) Deno.removeSignalListener("SIGINT", onSigint);
    saveHistory(historyPath, lines.history());
    lines.close();
  }
  console.error(
    c.dim(`session ${session.id} closed with a checkpoint · retie replay ${session.id}`),
  );
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
    case "/usage": {
      const { UsageStore } = await import("../providers/usage_store.ts");
      const store = new UsageStore();
      try {
        const summary = store.summary();
        const mine = summary.bySession.find((r) => r.key === session.id);
        console.log(
          mine
            ? `this session: ${mine.units} quota units over ${mine.calls} calls (${mine.inputTokens} in, ${mine.outputTokens} out)`
            : "this session has recorded no metered usage (usage is kept for the Ollama ladder)",
        );
        console.log(
          `all sessions: ${summary.total.units} units over ${summary.total.calls} calls · retie usage for more`,
        );
      } finally {
        store.close();
      }
      return false;
    }
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
