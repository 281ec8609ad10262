/**
 * The replay of a session as data: one timeline built from its ledger entries, in order — each
 * prompt, each model answer, each action (with its id, class, decision, who decided, outcome,
 * output excerpt, findings and diff), each refusal, undo, model switch, compaction, and any entry
 * kind this version does not know (shown generically, never dropped). The renderers (text,
 * markdown, json, html) only format this model, so they cannot disagree about what happened.
 *
 * @module
 */
import { type LedgerEntry, readOutcome } from "../ledger/mod.ts";
import {
  actionItem,
  diffsOf,
  entryItem,
  eventItem,
  excerptOf,
  findingsOf,
  refusalItem,
  str,
} from "./replay_items.ts";

/** One finding as shown under its action. */
export interface ReplayFinding {
  rule: string;
  severity: string;
  before?: number;
  after?: number;
  message?: string;
  /** Line in the file, when the finding names one. */
  line?: number;
  /** The file it is in. */
  path?: string;
  /** The construct, when the inspector names it (e.g. `check_permissions() call removed`). */
  detail?: string;
}

/** One hunk: lines start with ' ', '+' or '-'. */
export interface ReplayHunk {
  oldStart: number;
  newStart: number;
  lines: string[];
}

/** The diff of one file an action changed. */
export interface ReplayDiff {
  path: string;
  change: "create" | "delete" | "modify";
  hunks: ReplayHunk[];
  /** Lines left out when it was recorded. */
  omitted: number;
  /** False when rebuilt from the call's arguments (a ledger from before diffs were recorded). */
  recorded: boolean;
}

/** A bounded view of what a command printed. */
export interface ReplayOutput {
  head: string[];
  tail: string[];
  omitted: number;
  lines: number;
  /** Exit code of a command, when there was one. */
  exitCode?: number | null;
}

/** What kind of thing a timeline item is. */
export type ReplayKind = "prompt" | "answer" | "action" | "refusal" | "undo" | "event" | "entry";

/** One item of the timeline. */
export interface ReplayItem {
  seq: number;
  /** Hash of the ledger entry the item starts at (intent, refusal, event…). */
  hash: string;
  time: string;
  kind: ReplayKind;
  actionId: string | null;
  status:
    | "prompt"
    | "answer"
    | "ok"
    | "error"
    | "refused"
    | "started"
    | "undone"
    | "undo-refused"
    | "undo-skipped"
    | "event";
  /** The tool, or the event's type (`model`, `compaction`, `turn-end`, …). */
  tool: string;
  summary: string;
  class: string;
  decision: string;
  /** Who decided: `policy rule X`, `the person`, `--yes`, a remembered approval, `retie (stage)`. */
  decidedBy?: string;
  /** Why it was refused / what happened, in words. */
  reason?: string;
  /** A prompt's or answer's text, whole as recorded. */
  text?: string;
  findings: ReplayFinding[];
  diffs: ReplayDiff[];
  output?: ReplayOutput;
  durationMs?: number;
  /** Set when a later undo targeted this action. */
  undo?: { seq: number; session: string; status: string; reason: string };
}

/** A whole session. */
export interface ReplayModel {
  session: string;
  objective: string;
  provider: string;
  model: string;
  policy: string;
  sandbox: string;
  workspace: string;
  started: string;
  ended: string;
  timeline: ReplayItem[];
  totals: {
    actions: number;
    refused: number;
    failed: number;
    undone: number;
    notReversible: number;
    flagged: number;
    turns: number;
    answers: number;
    durationMs: number;
  };
  /** Head of the verified chain (seq and hash) at the time of the replay. */
  head: { seq: number; hash: string };
  /** Hash of the session's genesis entry (it names the session's trace in an OTLP export). */
  genesisHash: string;
  /** A sub-agent's session: its agent type (genesis `agentType`) and the session that called it. */
  agentType?: string;
  parentSession?: string;
  /** The sessions of the sub-agents this session started (the `task` tool), in order. */
  subagents?: ReplayModel[];
}

/**
 * The sessions a session's sub-agents ran in (genesis `parentSession` names it), depth first, in
 * the order they started.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { childSessions } from "./replay_model.ts";
 * const g = (session: string, parentSession: string | null) =>
 *   ({ session, kind: "genesis", payload: { parentSession } }) as never;
 * assert.deepEqual(childSessions([g("a", null), g("b", "a"), g("c", "b"), g("d", "a")], "a"), [
 *   "b",
 *   "d",
 * ]);
 * ```
 */
export function childSessions(geneses: readonly LedgerEntry[], session: string): string[] {
  return geneses.filter((e) => e.kind === "genesis" && e.payload.parentSession === session)
    .map((e) => e.session);
}

/**
 * Builds the replay model of one session from its entries (in seq order). `related` are entries
 * of other sessions that concern this one's actions (the undos a later `retie undo` recorded).
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
  related: LedgerEntry[] = [],
): ReplayModel {
  const genesis = entries.find((e) => e.kind === "genesis");
  const g = genesis?.payload ?? {};
  const timeline: ReplayItem[] = [];
  const byAction = new Map<string, ReplayItem>();
  const intents = new Map<string, unknown>();
  for (const e of entries) {
    const p = e.payload;
    if (e.kind === "genesis" || e.kind === "checkpoint" || e.kind === "delegation") continue;
    if (e.kind === "intent") {
      const a = actionItem(e);
      timeline.push(a);
      if (e.actionId) byAction.set(e.actionId, a);
      if (e.actionId) intents.set(e.actionId, p.args);
    } else if (e.kind === "outcome" && e.actionId && byAction.has(e.actionId)) {
      const a = byAction.get(e.actionId)!;
      const read = readOutcome(p);
      a.status = read.ok && read.value.status === "ok" ? "ok" : "error";
      a.durationMs = typeof p.durationMs === "number" ? p.durationMs : undefined;
      a.output = excerptOf(p);
      if (a.status === "ok" && !a.diffs.some((d) => d.recorded)) {
        // An older ledger: the diff comes from the call's arguments, placed at the line the
        // outcome names.
        a.diffs = diffsOf(a.tool, intents.get(e.actionId), p);
      }
      if (a.status === "error") {
        // A failed call changed nothing it meant to: no diff is drawn, the reason is.
        a.diffs = [];
        a.reason = failureReason(a.output);
      }
    } else if (e.kind === "refusal") {
      timeline.push(refusalItem(e));
    } else if (e.kind === "undo") {
      timeline.push(undoItem(e));
      markUndone(byAction, e);
    } else if (e.kind === "event" && p.type === "turn") {
      timeline.push({
        ...base(e, "prompt"),
        status: "prompt",
        tool: "prompt",
        summary: firstLine(str(p.text)),
        text: str(p.text),
      });
    } else if (e.kind === "event" && p.type === "answer") {
      timeline.push({
        ...base(e, "answer"),
        status: "answer",
        tool: "answer",
        summary: firstLine(str(p.text)),
        text: str(p.text),
        reason: str(p.model) || undefined,
      });
    } else if (e.kind === "event" && p.type === "conversation") {
      // Bookkeeping (the stored conversation's digest after a turn), not a step of the timeline.
    } else if (e.kind === "event" || e.kind === "finding") {
      timeline.push(eventItem(e));
    } else {
      timeline.push(entryItem(e));
    }
  }
  for (const e of related) if (e.kind === "undo") markUndone(byAction, e);
  // Findings name real paths; inside the workspace, the relative one is what a reviewer knows.
  const ws = str(g.workspace);
  for (const a of timeline) {
    for (const f of a.findings) {
      if (ws && f.path?.startsWith(`${ws}/`)) f.path = f.path.slice(ws.length + 1);
    }
  }
  return {
    session: genesis?.session ?? entries[0]?.session ?? "",
    objective: objectiveOf(str(g.objective), entries),
    provider: str(g.provider),
    model: str(g.model),
    policy: str(g.policy),
    sandbox: str(g.sandbox),
    workspace: str(g.workspace),
    started: entries[0]?.time ?? "",
    ended: entries.at(-1)?.time ?? entries[0]?.time ?? "",
    timeline,
    totals: totalsOf(timeline, entries, genesis !== undefined),
    genesisHash: genesis?.hash ?? entries[0]?.hash ?? "",
    ...(typeof g.agentType === "string" ? { agentType: g.agentType } : {}),
    ...(typeof g.parentSession === "string" ? { parentSession: g.parentSession } : {}),
    head,
  };
}

function base(e: LedgerEntry, kind: ReplayKind) {
  return {
    seq: e.seq,
    hash: e.hash,
    time: e.time,
    kind,
    actionId: e.actionId,
    class: "-",
    decision: "-",
    findings: findingsOf(e.payload),
    diffs: [] as ReplayDiff[],
  };
}

function undoItem(e: LedgerEntry): ReplayItem {
  const p = e.payload;
  const target = str(p.target);
  const restored = Array.isArray(p.restored) ? p.restored.length : 0;
  return {
    ...base(e, "undo"),
    actionId: target || e.actionId,
    status: p.status === "undone"
      ? "undone"
      : p.status === "skipped"
      ? "undo-skipped"
      : "undo-refused",
    tool: "undo",
    summary: `undo ${target}${restored ? ` (${restored} file${restored > 1 ? "s" : ""})` : ""}`,
    reason: str(p.reason),
  };
}

function markUndone(byAction: Map<string, ReplayItem>, e: LedgerEntry): void {
  const target = str(e.payload.target, e.actionId ?? "");
  const a = byAction.get(target);
  if (!a) return;
  // The strongest mark wins: an action once undone stays marked even if a later attempt skipped.
  if (a.undo?.status === "undone") return;
  a.undo = {
    seq: e.seq,
    session: e.session,
    status: str(e.payload.status),
    reason: str(e.payload.reason),
  };
}

function totalsOf(t: ReplayItem[], entries: LedgerEntry[], hasGenesis: boolean) {
  const acts = t.filter((a) => a.kind === "action");
  const started = entries[0]?.time ?? "";
  const ended = entries.at(-1)?.time ?? started;
  return {
    actions: acts.length,
    refused: t.filter((a) => a.kind === "refusal").length,
    failed: acts.filter((a) => a.status === "error").length,
    undone: acts.filter((a) => a.undo?.status === "undone").length,
    notReversible: acts.filter((a) => a.class === "irreversible" || a.class === "unknown").length,
    flagged: t.filter((a) => (a.kind === "action" || a.kind === "refusal") && a.findings.length)
      .length,
    turns: Math.max(t.filter((a) => a.kind === "prompt").length, hasGenesis ? 1 : 0),
    answers: t.filter((a) => a.kind === "answer").length,
    durationMs: started && ended ? Date.parse(ended) - Date.parse(started) : 0,
  };
}

/** Why an action failed, in one line: its exit code, or the first line of what it said. */
function failureReason(o: ReplayOutput | undefined): string {
  if (o?.exitCode !== undefined) {
    return o.exitCode === null ? "killed (no exit code)" : `exit code ${o.exitCode}`;
  }
  const line = o?.head.find((l) => l.trim() && !/^(stdout|stderr):$/.test(l.trim()));
  return line?.trim() ?? "failed";
}

function firstLine(s: string): string {
  const l = s.trim().split("\n")[0] ?? "";
  return l.length > 160 ? `${l.slice(0, 160)}…` : l;
}

/** What `retie run` writes in genesis when the session starts before anything was typed. */
export const INTERACTIVE_OBJECTIVE = "(interactive session)";

/** The objective: genesis's, or for an interactive session the person's first request. */
function objectiveOf(genesis: string, entries: LedgerEntry[]): string {
  if (genesis !== INTERACTIVE_OBJECTIVE) return genesis;
  const first = entries.find((e) => e.kind === "event" && e.payload.type === "turn");
  return typeof first?.payload.text === "string" ? first.payload.text : genesis;
}

/**
 * `1s`, `2m05s`, `1h02m`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatDuration } from "./replay_model.ts";
 * assert.deepEqual(formatDuration(125_000), "2m05s");
 * ```
 */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/**
 * The totals line shared by the renderers.
 *
 * @example
 * ```ts ignore
 * totalsLine(model); // "2 actions · 2 refused · 0 failed · 0 undone · …"
 * ```
 */
export function totalsLine(m: ReplayModel): string {
  const t = m.totals;
  return `${t.actions} actions · ${t.refused} refused · ${t.failed} failed · ${t.undone} undone · ` +
    `${t.notReversible} not reversible · ${t.flagged} flagged · ${t.turns} turns · ` +
    formatDuration(t.durationMs);
}

/**
 * The `session · model · policy · sandbox` line.
 *
 * @example
 * ```ts ignore
 * headerLine(model); // "ses_0123456789ab · gpt-oss:20b · retie-default@… · bwrap (no network)"
 * ```
 */
export function headerLine(m: ReplayModel): string {
  return `${m.session} · ${m.model} · ${m.policy} · ${m.sandbox}`;
}

/**
 * The label of an item's status as a reviewer reads it (`failed` rather than `error`).
 *
 * @example
 * ```ts ignore
 * statusLabel(item); // "failed"
 * ```
 */
export function statusLabel(a: ReplayItem): string {
  if (a.status === "error") return "failed";
  return a.status;
}
