/**
 * The replay of a session as data: a timeline built from its ledger entries. The renderers (text,
 * markdown, json, html) only format this model, so they cannot disagree about what happened.
 *
 * Refusals are actions in the timeline like any other, so they are shown as prominently as
 * successes.
 *
 * @module
 */
import { type LedgerEntry, readIntent, readOutcome, readRefusal, readUndo } from "../ledger/mod.ts";

/** One finding as shown under its action. */
export interface ReplayFinding {
  rule: string;
  severity: string;
  before?: number;
  after?: number;
  message?: string;
}

/** One line of the timeline. */
export interface ReplayAction {
  seq: number;
  time: string;
  actionId: string | null;
  /** ok, error, refused, started (intent without outcome), undone, skipped (undo skipped). */
  status:
    | "ok"
    | "error"
    | "refused"
    | "started"
    | "undone"
    | "undo-refused"
    | "undo-skipped"
    | "event";
  tool: string;
  summary: string;
  class: string;
  decision: string;
  /** Why it was refused / what happened, in words. */
  reason?: string;
  findings: ReplayFinding[];
  /** Before/after text for a diff, when the arguments carry it (edit, write). */
  diff?: { path: string; before: string; after: string };
  durationMs?: number;
}

/** A whole session. */
export interface ReplayModel {
  session: string;
  objective: string;
  provider: string;
  model: string;
  policy: string;
  sandbox: string;
  started: string;
  ended: string;
  actions: ReplayAction[];
  totals: {
    actions: number;
    refused: number;
    notReversible: number;
    flagged: number;
    turns: number;
    durationMs: number;
  };
  /** Head of the verified chain (seq and hash) at the time of the replay. */
  head: { seq: number; hash: string };
}

const str = (v: unknown, d = ""): string => (typeof v === "string" ? v : d);

function findingsOf(p: Record<string, unknown>): ReplayFinding[] {
  const f = p.findings;
  if (!Array.isArray(f)) return [];
  return f.filter((x) => x && typeof x === "object").map((x) => {
    const o = x as Record<string, unknown>;
    return {
      rule: str(o.rule, str(o.category, "finding")),
      severity: str(o.severity, "low"),
      before: typeof o.before === "number" ? o.before : undefined,
      after: typeof o.after === "number" ? o.after : undefined,
      message: str(o.message, str(o.excerpt)),
    };
  });
}

function diffOf(tool: string, args: unknown): ReplayAction["diff"] {
  if (!args || typeof args !== "object") return undefined;
  const a = args as Record<string, unknown>;
  if (tool === "edit" && typeof a.old_text === "string" && typeof a.new_text === "string") {
    return { path: str(a.path), before: a.old_text, after: a.new_text };
  }
  if (tool === "write" && typeof a.content === "string") {
    return { path: str(a.path), before: "", after: a.content };
  }
  return undefined;
}

/** A refusal recorded before classification carries no effect: say what it was from its arguments. */
function argsSummary(tool: string, args: unknown): string {
  const a = args && typeof args === "object" ? args as Record<string, unknown> : {};
  if (typeof a.command === "string") return `${tool}: ${a.command.split("\n")[0].slice(0, 120)}`;
  if (typeof a.path === "string") return `${tool} ${a.path}`;
  if (typeof a.url === "string") return `${tool} ${a.url}`;
  return `call ${tool}`;
}

/** What a session event says, in words: which model the ladder moved from and to, and why. */
function eventSummary(p: Record<string, unknown>, what: string): string {
  if (p.type === "model") {
    const models = typeof p.from === "string" && typeof p.to === "string"
      ? `${p.from} → ${p.to}`
      : str(p.model);
    const head = [str(p.event), models].filter(Boolean).join(" ");
    const why = [str(p.reason), str(p.detail)].filter(Boolean).join(": ");
    return [head, why].filter(Boolean).join(": ") || what;
  }
  if (p.type === "mode") return `mode ${str(p.mode)}`;
  if (p.type === "ask") {
    return `asked: ${str(p.question)}${typeof p.answer === "string" ? "" : " (no answer)"}`;
  }
  return str(p.message, str(p.reason, what));
}

/**
 * Builds the replay model of one session from its entries (in seq order).
 *
 * @example
 * ```ts ignore
 * const model = buildReplay(ledger.entries({ session }), { seq: 10, hash: "ab…" });
 * model.totals.refused; // 1
 * ```
 */
export function buildReplay(
  entries: LedgerEntry[],
  head: { seq: number; hash: string },
): ReplayModel {
  const genesis = entries.find((e) => e.kind === "genesis");
  const g = genesis?.payload ?? {};
  const actions: ReplayAction[] = [];
  const byAction = new Map<string, ReplayAction>();
  let turns = 0;
  for (const e of entries) {
    const p = e.payload;
    if (e.kind === "intent") {
      const read = readIntent(p);
      const tool = read.ok ? read.value.tool : str(p.tool, "?");
      const effect: Record<string, unknown> = read.ok ? read.value.effect : {};
      const a: ReplayAction = {
        seq: e.seq,
        time: e.time,
        actionId: e.actionId,
        status: "started",
        tool,
        summary: str(effect.summary, tool),
        class: read.ok ? read.value.class : "unknown",
        decision: str(p.decision),
        findings: findingsOf(p),
        diff: diffOf(tool, p.args),
      };
      actions.push(a);
      if (e.actionId) byAction.set(e.actionId, a);
    } else if (e.kind === "outcome" && e.actionId && byAction.has(e.actionId)) {
      const a = byAction.get(e.actionId)!;
      const read = readOutcome(p);
      a.status = read.ok && read.value.status === "ok" ? "ok" : "error";
      a.durationMs = typeof p.durationMs === "number" ? p.durationMs : undefined;
    } else if (e.kind === "refusal") {
      const read = readRefusal(p);
      const tool = read.ok ? read.value.tool : str(p.tool, "?");
      // Arguments too deep or malformed to record are kept as a preview of their text.
      const args = read.ok && read.value.argsOmitted
        ? { command: read.value.argsOmitted.preview }
        : p.args;
      actions.push({
        seq: e.seq,
        time: e.time,
        actionId: null,
        status: "refused",
        tool,
        summary: str(
          ((p.effect ?? {}) as Record<string, unknown>).summary,
          argsSummary(tool, args),
        ),
        class: str(p.class, "unknown"),
        decision: "deny",
        reason: `${str(p.stage, "refused")}: ${str(p.reason)}`,
        findings: findingsOf(p),
      });
    } else if (e.kind === "undo") {
      const read = readUndo(p);
      const target = read.ok ? read.value.target : str(p.target);
      const undoStatus = read.ok ? read.value.status : "refused";
      const status = undoStatus === "undone"
        ? "undone"
        : undoStatus === "skipped"
        ? "undo-skipped"
        : "undo-refused";
      actions.push({
        seq: e.seq,
        time: e.time,
        actionId: target || null,
        status,
        tool: "undo",
        summary: `undo ${target}`,
        class: "-",
        decision: "-",
        reason: str(p.reason),
        findings: [],
      });
    } else if (e.kind === "event" && p.type === "turn") {
      turns++;
    } else if (e.kind === "event" || e.kind === "finding") {
      const what = str(p.type, e.kind);
      actions.push({
        seq: e.seq,
        time: e.time,
        actionId: e.actionId,
        status: "event",
        tool: what,
        summary: eventSummary(p, what),
        class: "-",
        decision: "-",
        findings: findingsOf(p),
      });
    }
  }
  const real = actions.filter((a) => a.status !== "event" && !a.status.startsWith("undo"));
  const started = entries[0]?.time ?? "";
  const ended = entries.at(-1)?.time ?? started;
  return {
    session: genesis?.session ?? entries[0]?.session ?? "",
    objective: objectiveOf(str(g.objective), entries),
    provider: str(g.provider),
    model: str(g.model),
    policy: str(g.policy),
    sandbox: str(g.sandbox),
    started,
    ended,
    actions,
    totals: {
      actions: real.filter((a) => a.status !== "refused").length,
      refused: real.filter((a) => a.status === "refused").length,
      notReversible:
        real.filter((a) =>
          a.status !== "refused" && (a.class === "irreversible" || a.class === "unknown")
        ).length,
      flagged: real.filter((a) => a.findings.length > 0).length,
      turns: Math.max(turns, genesis ? 1 : 0),
      durationMs: started && ended ? Date.parse(ended) - Date.parse(started) : 0,
    },
    head,
  };
}

/** What `retie run` writes in genesis when the session starts before anything was typed. */
export const INTERACTIVE_OBJECTIVE = "(interactive session)";

/** The objective: genesis's, or for an interactive session the person's first request. */
function objectiveOf(genesis: string, entries: LedgerEntry[]): string {
  if (genesis !== INTERACTIVE_OBJECTIVE) return genesis;
  const first = entries.find((e) => e.kind === "event" && e.payload.type === "turn");
  return typeof first?.payload.text === "string" ? first.payload.text : genesis;
}

/** `1s`, `2m05s`, `1h02m`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/** The totals line shared by the text and markdown renderers. */
export function totalsLine(m: ReplayModel): string {
  const t = m.totals;
  return `${t.actions} actions · ${t.refused} refused · ${t.notReversible} not reversible · ` +
    `${t.flagged} flagged · ${t.turns} turns · ${formatDuration(t.durationMs)}`;
}

/** The `session · model · policy · sandbox` line. */
export function headerLine(m: ReplayModel): string {
  return `${m.session} · ${m.model} · ${m.policy} · ${m.sandbox}`;
}
