/**
 * Lists a person reads in the REPL: the session's actions from its ledger (ids, times, what,
 * how it ended), and the closing summary line.
 *
 * @module
 */
import type { LedgerEntry } from "../ledger/mod.ts";
import { c } from "./color.ts";
import { safeText } from "./safe_text.ts";

const one = (s: string) => safeText(s, { newlines: "show", tabs: "show" });

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/**
 * The last `n` actions and refusals of a session, one readable line each, with the action id
 * `/undo` and `/show` take.
 *
 * @example
 * ```ts ignore
 * ledgerLines(session.ledger.entries({ session: session.id }), 10);
 * // ["  act_9b1c22aa07fe  09:34:48  ok       edit  edit calc.py", ...]
 * ```
 */
export function ledgerLines(entries: LedgerEntry[], n: number): string[] {
  const rows: { id: string; time: string; status: string; tool: string; what: string }[] = [];
  const byId = new Map<string, (typeof rows)[number]>();
  for (const e of entries) {
    const p = e.payload;
    if (e.kind === "intent" && e.actionId) {
      const effect = (p.effect ?? {}) as Record<string, unknown>;
      const row = {
        id: e.actionId,
        time: e.time.slice(11, 19),
        status: "started",
        tool: str(p.tool),
        what: str(effect.summary) || str(p.tool),
      };
      byId.set(e.actionId, row);
      rows.push(row);
    } else if (e.kind === "outcome" && e.actionId && byId.has(e.actionId)) {
      byId.get(e.actionId)!.status = str(p.status) || "done";
    } else if (e.kind === "undo" && e.actionId && byId.has(e.actionId)) {
      const s = str(p.status);
      byId.get(e.actionId)!.status = s === "undone" || s === "" ? "undone" : `undo ${s}`;
    } else if (e.kind === "refusal") {
      rows.push({
        id: "—",
        time: e.time.slice(11, 19),
        status: "refused",
        tool: str(p.tool),
        what: str(p.reason),
      });
    }
  }
  const color = (s: string) =>
    s === "ok"
      ? c.green(s.padEnd(8))
      : s === "refused"
      ? c.red(s.padEnd(8))
      : s === "undone"
      ? c.cyan(s.padEnd(8))
      : c.yellow(s.padEnd(8));
  return rows.slice(-n).map((r) =>
    `  ${r.id.padEnd(16)}  ${r.time}  ${color(r.status)} ${one(r.tool).padEnd(6)} ${
      one(r.what).slice(0, 200)
    }`
  );
}

/** What the closing line of a session says. */
export interface SessionTotals {
  id: string;
  actions: number;
  filesChanged: number;
  inputTokens: number;
  outputTokens: number;
  ms: number;
  ledgerPath: string;
  /** Ollama quota units this session used (the ladder meters them), when known. */
  units?: number;
  /** The estimated money cost, as written (`~$0.42 est.`, `cost unknown`); absent for Ollama. */
  cost?: string;
}

/**
 * The closing line: actions, files changed, tokens, the estimated cost (or quota units),
 * duration, and a replay command that works exactly as printed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { summaryLine } from "./session_lists.ts";
 * const s = summaryLine({ id: "s1", actions: 2, filesChanged: 1, inputTokens: 1200, outputTokens: 80, ms: 61000, ledgerPath: "/tmp/l.db" });
 * assert.equal(s, "session s1 · 2 actions · 1 file changed · 1,200 tokens in, 80 out · 1m 01s · replay: retie --ledger /tmp/l.db replay s1");
 * const t = summaryLine({ id: "s1", actions: 0, filesChanged: 0, inputTokens: 5, outputTokens: 1, ms: 0, ledgerPath: "/l", cost: "cost unknown" });
 * assert.equal(t, "session s1 · 0 actions · 0 files changed · 5 tokens in, 1 out · cost unknown · 0s · replay: retie --ledger /l replay s1");
 * ```
 */
export function summaryLine(t: SessionTotals): string {
  const secs = Math.round(t.ms / 1000);
  const dur = secs >= 60
    ? `${Math.floor(secs / 60)}m ${String(secs % 60).padStart(2, "0")}s`
    : `${secs}s`;
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? "" : "s"}`;
  return [
    `session ${t.id}`,
    plural(t.actions, "action"),
    `${plural(t.filesChanged, "file")} changed`,
    `${t.inputTokens.toLocaleString("en-US")} tokens in, ${
      t.outputTokens.toLocaleString("en-US")
    } out${t.units !== undefined ? ` (${t.units.toLocaleString("en-US")} quota units)` : ""}`,
    ...(t.cost !== undefined ? [safeText(t.cost)] : []),
    dur,
    `replay: retie --ledger ${shellQuote(t.ledgerPath)} replay ${t.id}`,
  ].join(" · ");
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}
