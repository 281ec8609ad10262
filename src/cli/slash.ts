/**
 * The REPL's slash commands, as a table: one entry per command (name, arguments, help, run).
 * Every command works from the first prompt; those that need a session say what they would do
 * once there is one (the session, and its record, start with the first request).
 *
 * @module
 */
import type { AgentSession } from "../agent/session.ts";
import { c } from "../ui/color.ts";
import type { SessionView } from "../ui/session_view.ts";
import { safeText } from "../ui/safe_text.ts";
import { ledgerLines } from "../ui/session_lists.ts";
import { sessionDiff } from "../ui/session_diff.ts";
import { sessionChanges } from "./session_diff.ts";
import { contextCommand } from "./repl_context.ts";

/** What a command can reach. */
export interface SlashContext {
  /** Null before the first request. */
  session: AgentSession | null;
  view: SessionView;
  workspace: string;
  /** The model and mode for the session (before it starts, what it will start with). */
  settings: { model: string; mode: "default" | "plan"; provider?: string };
  /** Switches the model (recorded when a session runs); returns the model now in use. */
  switchModel(name: string): Promise<string>;
  print(text: string): void;
}

/** One slash command. */
export interface SlashCommand {
  name: string;
  aliases?: string[];
  /** How its arguments are written, for /help. */
  args?: string;
  help: string;
  /** Returns true to end the session. */
  run(arg: string, ctx: SlashContext): Promise<boolean | void> | boolean | void;
}

const one = (s: string) => safeText(s, { newlines: "show", tabs: "show" });

function needsSession(ctx: SlashContext, what: string): AgentSession | null {
  if (ctx.session) return ctx.session;
  ctx.print(`${what}: nothing yet — the session starts with your first request`);
  return null;
}

/** The commands, in the order /help lists them. Adding a command is adding one entry. */
export const SLASH_COMMANDS: SlashCommand[] = [
  {
    name: "/help",
    help: "this list, and the keys",
    run: (_a, ctx) => ctx.print(helpText()),
  },
  {
    name: "/model",
    args: "[NAME]",
    help: "the model in use; with NAME, switch to it (recorded)",
    async run(arg, ctx) {
      const before = ctx.session?.model() ?? ctx.settings.model;
      if (!arg) return ctx.print(`model: ${one(before)}`);
      const now = await ctx.switchModel(arg);
      ctx.settings.model = now;
      ctx.print(`model: ${one(before)} → ${one(now)}`);
    },
  },
  {
    name: "/mode",
    args: "plan|default",
    help: "plan = read-only (no write or edit; commands sandboxed, their changes rolled back)",
    run(arg, ctx) {
      if (arg !== "plan" && arg !== "default") {
        return ctx.print(`usage: /mode plan|default (now: ${ctx.settings.mode})`);
      }
      ctx.settings.mode = arg;
      ctx.session?.setMode(arg);
      ctx.print(
        `mode: ${arg}${
          arg === "plan"
            ? " (read-only: no write or edit; commands run sandboxed and are rolled back)"
            : ""
        }`,
      );
    },
  },
  {
    name: "/ledger",
    args: "[n]",
    help: "the last n actions of this session, with their ids (default 10)",
    run(arg, ctx) {
      const n = Number(arg || "10");
      if (!Number.isInteger(n) || n < 1) {
        return ctx.print(`usage: /ledger [n] (n a whole number of entries, got "${one(arg)}")`);
      }
      const s = needsSession(ctx, "ledger");
      if (!s) return;
      const lines = ledgerLines(s.ledger.entries({ session: s.id }), n);
      ctx.print(lines.length ? lines.join("\n") : "no actions yet");
    },
  },
  {
    name: "/show",
    args: "[ID]",
    help: "the whole result of an action (default: the latest)",
    run(arg, ctx) {
      const a = ctx.view.action(arg || undefined);
      if (!a) return ctx.print(arg ? `no action ${one(arg)} in this session` : "no action yet");
      ctx.print(`${c.bold(one(a.id))} ${one(a.tool)} ${one(a.summary)} · ${a.status}`);
      ctx.print(safeText(a.output));
    },
  },
  {
    name: "/thinking",
    help: "the model's latest reasoning, in full",
    run(_a, ctx) {
      const r = ctx.view.lastReasoning;
      ctx.print(
        r ? `${c.bold("thinking")}\n${c.dim(safeText(r.replace(/\n+$/, "")))}` : "no reasoning yet",
      );
    },
  },
  {
    name: "/diff",
    help: "what this session changed (write, edit and commands): one diff per file, from before",
    run(_a, ctx) {
      const s = needsSession(ctx, "diff");
      if (!s) return;
      const { changes, notes } = sessionChanges(s);
      ctx.print(
        sessionDiff(changes, ctx.workspace, notes) || "no file changed in this session yet",
      );
    },
  },
  {
    name: "/usage",
    help: "tokens in and out, the context used, the estimated cost; Ollama quota units",
    async run(_a, ctx) {
      const s = needsSession(ctx, "usage");
      if (s) await contextCommand("/usage", "", s, ctx.print, ctx.settings.provider);
    },
  },
  {
    name: "/compact",
    args: "[FOCUS]",
    help: "summarise the older turns now (recorded); FOCUS says what the summary keeps",
    async run(arg, ctx) {
      const s = needsSession(ctx, "compact");
      if (s) await contextCommand("/compact", arg, s, ctx.print);
    },
  },
  {
    name: "/clear",
    help: "start a fresh conversation in the same session (recorded; the ledger is kept)",
    async run(_a, ctx) {
      const s = needsSession(ctx, "clear");
      if (s) await contextCommand("/clear", "", s, ctx.print);
    },
  },
  {
    name: "/init",
    args: "[NOTES]",
    help: "ask the model to draft an AGENTS.md for this project (a gated, undoable write)",
    // Sent as a request by the prompt reader (readRequest); listed here for /help.
    run: () => {},
  },
  {
    name: "/mcp",
    help: "MCP servers, their tools and the policy rule that classifies each",
    async run(_a, ctx) {
      const { listMcp, formatMcpList } = await import("../mcp/mod.ts");
      const { mcpClassifier } = await import("../agent/extensions.ts");
      const s = ctx.session;
      ctx.print(formatMcpList(s?.mcp ? listMcp(s.mcp, mcpClassifier(s.policy)) : []));
    },
  },
  {
    name: "/undo",
    args: "[ID]",
    help: "undo one action (default: the last one that can be undone)",
    async run(arg, ctx) {
      const s = needsSession(ctx, "undo");
      if (!s) return;
      printUndo([await s.undo(arg || null)], ctx);
    },
  },
  {
    name: "/undo-all",
    help: "undo everything this session did, newest first",
    async run(_a, ctx) {
      const s = needsSession(ctx, "undo-all");
      if (!s) return;
      printUndo(await s.undoAll(), ctx);
    },
  },
  {
    name: "/quit",
    aliases: ["/exit"],
    help: "end the session (Ctrl-D does the same)",
    run: () => true,
  },
];

function printUndo(
  reports: Awaited<ReturnType<AgentSession["undoAll"]>>,
  ctx: SlashContext,
): void {
  for (const r of reports) {
    const status = r.status === "undone"
      ? c.green("undone")
      : r.status === "skipped"
      ? c.yellow("skipped")
      : c.red("refused");
    ctx.print(`  ${status} ${one(r.target)} ${one(r.summary ?? "")}: ${one(r.reason)}`);
    for (const d of r.differs) ctx.print(`      differs: ${one(d)}`);
  }
  if (reports.length === 0) ctx.print("nothing to undo");
}

/** /help's text: the commands from the table, then the keys. */
export function helpText(): string {
  const rows = SLASH_COMMANDS.map((s) => [`${s.name}${s.args ? ` ${s.args}` : ""}`, s.help]);
  const w = Math.max(...rows.map((r) => r[0].length)) + 2;
  return [
    "commands:",
    ...rows.map(([a, b]) => `  ${a.padEnd(w)}${b}`),
    "keys:",
    "  Enter           send          Ctrl-J or Alt-Enter  new line (or end a line with \\)",
    "  ↑ ↓             history       Ctrl-A/E, Home/End   start/end of line",
    "  Ctrl-U / Ctrl-K delete to start/end of line          Ctrl-W  delete a word",
    "  Ctrl-C or Esc   interrupt the running turn (at the prompt: clear the line)",
    "  Ctrl-D          end the session (with a signed checkpoint)",
    "  pasting several lines sends them as one request, shown as [pasted N lines]",
    "also:",
    "  !cmd            run a command yourself, in the sandbox (recorded; no model turn)",
    "  @path           in a request: inline a workspace file (read like the read tool; recorded)",
  ].join("\n");
}

/**
 * Runs a slash command line; returns true to end the session.
 *
 * @example
 * ```ts ignore
 * if (await runSlash("/model", ctx)) break;
 * ```
 */
export async function runSlash(text: string, ctx: SlashContext): Promise<boolean> {
  const [cmd, ...rest] = text.trim().split(/\s+/);
  const arg = rest.join(" ");
  const command = SLASH_COMMANDS.find((s) => s.name === cmd || s.aliases?.includes(cmd));
  if (!command) {
    ctx.print(`unknown command ${one(cmd)}; /help lists them`);
    return false;
  }
  return (await command.run(arg, ctx)) === true;
}
