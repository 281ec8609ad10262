/**
 * The REPL's context commands: `/compact [focus]`, `/clear` and `/usage` (tokens for every
 * provider, the context used of the window, and Ollama quota units when the ladder metered them).
 *
 * @module
 */
import type { AgentSession } from "../agent/session.ts";
import { formatUsage } from "../agent/usage_meter.ts";
import { costText } from "./session_cost.ts";

/**
 * Runs `/compact`, `/clear` or `/usage`; returns false for any other command.
 *
 * @example
 * ```ts ignore
 * await contextCommand("/compact", "the failing test", session); // true
 * ```
 */
export async function contextCommand(
  cmd: string,
  arg: string,
  session: AgentSession,
  print: (text: string) => void = (t) => console.log(t),
  provider?: string,
): Promise<boolean> {
  switch (cmd) {
    case "/compact": {
      const rec = await session.compact(arg || undefined);
      print(
        rec
          ? `compacted: ${rec.compactedMessages} messages became a summary (digest ${
            rec.summaryDigest.slice(0, 12)
          }); about ${rec.tokensBefore} → ${rec.tokensAfter} tokens; the summary cost ${
            rec.cost.inputTokens + rec.cost.outputTokens
          } tokens${rec.fallback ? ` (${rec.fallback})` : ""}`
          : "nothing to compact yet",
      );
      return true;
    }
    case "/clear":
      session.clear();
      print("cleared: the next request starts a fresh conversation (the ledger is kept)");
      return true;
    case "/usage": {
      const r = session.usage();
      print(`this session: ${formatUsage(r)}`);
      for (const m of r.byModel) {
        print(`  ${m.model}: ${m.inputTokens} in, ${m.outputTokens} out, ${m.calls} calls`);
      }
      const cost = provider ? costText(provider, r.byModel) : undefined;
      if (cost) {
        print(
          cost === "cost unknown"
            ? "  cost: unknown (no known price for a model used; add it under `prices` in the config)"
            : `  cost: ${cost} (tokens × list prices; see docs/terminal.md)`,
        );
      }
      const { UsageStore } = await import("../models/mod.ts");
      const store = new UsageStore();
      try {
        const mine = store.summary({ session: session.id }).total;
        if (mine.calls > 0) print(`  Ollama quota units: ${mine.units}`);
      } finally {
        store.close();
      }
      return true;
    }
    default:
      return false;
  }
}

/**
 * The request `/init [notes]` sends: draft an AGENTS.md for the project. The model writes it with
 * the write tool, so it is gated, recorded and undoable like any other write.
 *
 * @example
 * ```ts
 * import { initRequest } from "./repl_context.ts";
 * initRequest("").includes("AGENTS.md"); // true
 * ```
 */
export function initRequest(notes: string): string {
  return [
    "Draft an AGENTS.md at the root of this workspace: the instructions a coding agent should",
    "follow in this project. Look at the layout, the build and test commands (package files,",
    "Makefile, CI config), the languages and the conventions the code already follows. Keep it",
    "short (under 60 lines): project overview, how to build and test, code style, what not to",
    "touch. If an AGENTS.md already exists, read it and improve it with edit instead of replacing",
    "it. Write the file with the write tool.",
    notes ? `The person adds: ${notes}` : "",
  ].filter(Boolean).join(" ");
}
