/**
 * Machine-readable output of `retie run --headless`: `--output-format json` prints one object at
 * the end, `stream-json` one event per line as it happens (the same object closes the stream as a
 * `result` event). In both, stdout carries only JSON; everything meant for people goes to stderr.
 *
 * Exit codes: 0 done, 1 failed (provider, budget, step limit, loop), 2 bad input, 3 done but the
 * gate refused something and `--fail-on-refusal` was given.
 *
 * @module
 */
import type { TurnSummary } from "../agent/loop.ts";
import type { AgentSession } from "../agent/session.ts";
import { sessionActions, sessionRefusals } from "../agent/session_record.ts";
import type { UsageReport } from "../agent/usage_meter.ts";
import { openLedger } from "../ledger/mod.ts";

/** The output formats. */
export type OutputFormat = "text" | "json" | "stream-json";

/** The object `--output-format json` prints. */
export interface RunResult {
  type: "result";
  session: string;
  /** Every ledger session this run continues, then its own. */
  parts: string[];
  status: TurnSummary["status"];
  /** The model's final text (or what stopped the run). */
  result: string;
  actions: {
    id: string;
    session: string;
    tool: string;
    class: string;
    summary: string;
    outcome: string;
    undone: boolean;
  }[];
  refused: { session: string; tool: string; stage: string; reason: string }[];
  usage: UsageReport & { quotaUnits: number | null };
  /** The ledger's last entry after the session closed (its final checkpoint). */
  ledgerHead: { seq: number; hash: string };
  /** How to continue this session. */
  resume: string;
  exitCode: number;
}

/**
 * The exit code of a finished run.
 *
 * @example
 * ```ts
 * import { exitCodeFor } from "./run_output.ts";
 * exitCodeFor("done", 1, true); // 3
 * exitCodeFor("done", 1, false); // 0
 * exitCodeFor("budget", 0, false); // 1
 * ```
 */
export function exitCodeFor(
  status: TurnSummary["status"],
  refusals: number,
  failOnRefusal: boolean,
): number {
  if (status !== "done") return 1;
  return failOnRefusal && refusals > 0 ? 3 : 0;
}

/**
 * Builds the result object. Call after the session is closed: the ledger head is then the final
 * checkpoint.
 *
 * @example
 * ```ts ignore
 * const r = buildRunResult(session, summary, ledgerPath, { failOnRefusal: false, quotaUnits: null });
 * ```
 */
export function buildRunResult(
  session: AgentSession,
  summary: TurnSummary,
  ledgerPath: string,
  o: { failOnRefusal: boolean; quotaUnits: number | null },
): RunResult {
  const ledger = openLedger(ledgerPath);
  try {
    const actions = sessionActions(ledger, session.parts).map((a) => ({
      id: a.id,
      session: a.session,
      tool: a.tool,
      class: a.class,
      summary: a.summary,
      outcome: a.outcome,
      undone: a.undone,
    }));
    // Refusals of this run only: earlier parts were reported by their own runs.
    const refused = sessionRefusals(ledger, [session.id]);
    return {
      type: "result",
      session: session.id,
      parts: session.parts,
      status: summary.status,
      result: summary.text,
      actions,
      refused,
      usage: { ...session.usage(), quotaUnits: o.quotaUnits },
      ledgerHead: ledger.head(),
      resume: resumeHint(session.id),
      exitCode: exitCodeFor(summary.status, refused.length, o.failOnRefusal),
    };
  } finally {
    ledger.close();
  }
}

/**
 * How to continue a session, as printed at its end.
 *
 * @example
 * ```ts
 * import { resumeHint } from "./run_output.ts";
 * resumeHint("ses_0123456789ab"); // "retie run --resume ses_0123456789ab"
 * ```
 */
export function resumeHint(session: string): string {
  return `retie run --resume ${session}`;
}

/**
 * Writes one JSON line to stdout.
 *
 * @example
 * ```ts ignore
 * emitJsonLine({ type: "text", delta: "hi" });
 * ```
 */
export function emitJsonLine(event: Record<string, unknown>): void {
  Deno.stdout.writeSync(new TextEncoder().encode(JSON.stringify(event) + "\n"));
}
