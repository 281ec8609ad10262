/**
 * Reading ledger payloads into replay timeline items. Payloads are read defensively: a field of an
 * unexpected type is treated as absent, never trusted, and an entry of a kind nobody knows is still
 * shown (generically), so a newer ledger never loses lines in an older replay.
 *
 * @module
 */
import { longSessionEvent } from "./replay_long.ts";
import type { LedgerEntry } from "../ledger/mod.ts";
import type {
  ReplayDiff,
  ReplayFinding,
  ReplayHunk,
  ReplayItem,
  ReplayKind,
  ReplayOutput,
} from "./replay_model.ts";

/**
 * The value if it is a string, else the default.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { str } from "./replay_items.ts";
 * assert.deepEqual(str(3, "-"), "-");
 * ```
 */
export const str = (v: unknown, d = ""): string => (typeof v === "string" ? v : d);
const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? v as Record<string, unknown> : {};
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];

/**
 * The findings a payload carries.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findingsOf } from "./replay_items.ts";
 * assert.deepEqual(findingsOf({ findings: [{ rule: "auth-check-removed", severity: "high" }] })[0].rule, "auth-check-removed");
 * ```
 */
export function findingsOf(p: Record<string, unknown>): ReplayFinding[] {
  const f = p.findings;
  if (!Array.isArray(f)) return [];
  return f.filter((x) => x && typeof x === "object").map((x) => {
    const o = x as Record<string, unknown>;
    return {
      rule: str(o.rule, str(o.category, "finding")),
      severity: str(o.severity, "low"),
      before: num(o.before),
      after: num(o.after),
      message: str(o.message, str(o.excerpt)) || undefined,
      line: num(o.line),
      path: str(o.path) || undefined,
      detail: str(o.detail) || undefined,
    };
  });
}

function recordedDiffs(v: unknown): ReplayDiff[] {
  if (!Array.isArray(v)) return [];
  return v.map(obj).map((d) => ({
    path: str(d.path, "?"),
    change: d.change === "create" || d.change === "delete" ? d.change : "modify",
    hunks: (Array.isArray(d.hunks) ? d.hunks : []).map(obj).map((h) => ({
      oldStart: num(h.oldStart) ?? 0,
      newStart: num(h.newStart) ?? 0,
      lines: strings(h.lines),
    })),
    omitted: num(d.omitted) ?? 0,
    recorded: true,
  }));
}

const prefixed = (sign: string, text: string): string[] =>
  text === "" ? [] : text.replace(/\n$/, "").split("\n").map((l) => sign + l);

/**
 * A diff rebuilt from a call's arguments (for ledgers written before diffs were recorded): the
 * edited fragment at the line the outcome names, or a written file's content.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { diffsOf } from "./replay_items.ts";
 * assert.deepEqual(diffsOf("edit", { path: "a.py", old_text: "a - b", new_text: "a + b" }, { detail: { line: 2 } })[0].hunks[0], { oldStart: 2, newStart: 2, lines: ["-a - b", "+a + b"] });
 * ```
 */
export function diffsOf(
  tool: string,
  args: unknown,
  outcome: Record<string, unknown> = {},
): ReplayDiff[] {
  const a = obj(args);
  const line = num(obj(outcome.detail).line) ?? 1;
  let hunk: ReplayHunk | null = null;
  let change: ReplayDiff["change"] = "modify";
  if (tool === "edit" && typeof a.old_text === "string" && typeof a.new_text === "string") {
    hunk = {
      oldStart: line,
      newStart: line,
      lines: [...prefixed("-", a.old_text), ...prefixed("+", a.new_text)],
    };
  } else if (tool === "write" && typeof a.content === "string") {
    change = obj(outcome.detail).created === false ? "modify" : "create";
    hunk = { oldStart: 0, newStart: 1, lines: prefixed("+", a.content) };
  }
  if (!hunk) return [];
  const omitted = Math.max(0, hunk.lines.length - 400);
  hunk.lines = hunk.lines.slice(0, 400);
  return [{ path: str(a.path, "?"), change, hunks: [hunk], omitted, recorded: false }];
}

/**
 * The output excerpt an outcome carries, with the command's exit code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { excerptOf } from "./replay_items.ts";
 * assert.deepEqual(excerptOf({ excerpt: { head: ["ok"], tail: [], omitted: 0, lines: 1 }, detail: { code: 0 } })?.exitCode, 0);
 * ```
 */
export function excerptOf(p: Record<string, unknown>): ReplayOutput | undefined {
  const x = obj(p.excerpt);
  const detail = obj(p.detail);
  const code = typeof detail.code === "number" || detail.code === null ? detail.code : undefined;
  if (!Array.isArray(x.head)) {
    return code === undefined
      ? undefined
      : { head: [], tail: [], omitted: 0, lines: 0, exitCode: code };
  }
  return {
    head: strings(x.head),
    tail: strings(x.tail),
    omitted: num(x.omitted) ?? 0,
    lines: num(x.lines) ?? 0,
    ...(code !== undefined ? { exitCode: code } : {}),
  };
}

/** Who decided, in words, from an intent's decision, rule and approver. */
function decidedBy(p: Record<string, unknown>): string {
  const rule = str(p.rule);
  const by = str(p.approvedBy);
  const ruleText = rule ? `rule ${rule}` : "the default";
  if (by === "user") return `the person (asked by ${ruleText})`;
  if (by === "--yes") return `--yes (${ruleText} asks; nobody was asked)`;
  if (by === "policy" || by === "") return `policy ${ruleText}`;
  return `${by} (${ruleText})`;
}

function itemBase(e: LedgerEntry, kind: ReplayKind) {
  return {
    seq: e.seq,
    hash: e.hash,
    time: e.time,
    kind,
    actionId: e.actionId,
    findings: findingsOf(e.payload),
    diffs: [] as ReplayDiff[],
  };
}

/**
 * An intent entry as an action (status `started` until its outcome is read).
 *
 * @example
 * ```ts ignore
 * actionItem(intentEntry).decidedBy; // "policy rule allow-workspace-edit"
 * ```
 */
export function actionItem(e: LedgerEntry): ReplayItem {
  const p = e.payload;
  const tool = str(p.tool, "?");
  const diffs = recordedDiffs(p.diff);
  return {
    ...itemBase(e, "action"),
    status: "started",
    tool,
    summary: str(obj(p.effect).summary, argsSummary(tool, p.args)),
    class: str(p.class, "unknown"),
    decision: str(p.decision, "?"),
    decidedBy: decidedBy(p),
    diffs: diffs.length ? diffs : diffsOf(tool, p.args),
  };
}

/** A refusal recorded before classification carries no effect: say what it was from its arguments. */
function argsSummary(tool: string, args: unknown): string {
  const a = obj(args);
  if (typeof a.command === "string") return `${tool}: ${a.command.split("\n")[0].slice(0, 120)}`;
  if (typeof a.path === "string") return `${tool} ${a.path}`;
  if (typeof a.url === "string") return `${tool} ${a.url}`;
  return `call ${tool}`;
}

/**
 * A refusal entry: a call that never became an action, and who refused it.
 *
 * @example
 * ```ts ignore
 * refusalItem(entry).reason; // "gate: writes outside the workspace"
 * ```
 */
export function refusalItem(e: LedgerEntry): ReplayItem {
  const p = e.payload;
  const tool = str(p.tool, "?");
  const stage = str(p.stage, "refused");
  const rule = str(p.rule);
  const who = stage === "gate"
    ? `policy ${rule ? `rule ${rule}` : "default deny"}`
    : stage === "approval"
    ? "the person (declined, or nobody to ask)"
    : stage === "scope"
    ? "the delegation"
    : `retie (${stage})`;
  return {
    ...itemBase(e, "refusal"),
    actionId: null,
    status: "refused",
    tool,
    summary: str(obj(p.effect).summary, argsSummary(tool, p.args)),
    class: str(p.class, "unknown"),
    decision: "deny",
    decidedBy: who,
    reason: `${stage}: ${str(p.reason)}`,
  };
}

/** What a session event says, in words: a model switch, a mode, a question, a compaction. */
function eventSummary(p: Record<string, unknown>, what: string): string {
  if (p.type === "model") {
    const models = typeof p.from === "string" && typeof p.to === "string"
      ? `${p.from} → ${p.to}`
      : str(p.model);
    const head = [str(p.event), models].filter(Boolean).join(" ");
    const why = [str(p.reason), str(p.detail)].filter(Boolean).join(": ");
    return [head, why].filter(Boolean).join(": ") || what;
  }
  const long = longSessionEvent(p);
  if (long) return long;
  if (p.type === "mode") return `mode ${str(p.mode)}`;
  if (p.type === "ask") {
    return `asked: ${str(p.question)}${typeof p.answer === "string" ? "" : " (no answer)"}`;
  }
  return str(p.message, str(p.summary, str(p.reason, generic(p, what))));
}

/** Any payload in one line: its scalar fields, `key=value`. */
function generic(p: Record<string, unknown>, what: string): string {
  const parts = Object.entries(p)
    .filter(([k, v]) => k !== "type" && (typeof v !== "object" || v === null))
    .slice(0, 6)
    .map(([k, v]) => `${k}=${String(v).slice(0, 80)}`);
  return parts.length ? parts.join(" ") : what;
}

/**
 * A session event or a finding not tied to one action.
 *
 * @example
 * ```ts ignore
 * eventItem(entry).summary; // "escalate gpt-oss:20b → gpt-oss:120b: session_limit"
 * ```
 */
export function eventItem(e: LedgerEntry): ReplayItem {
  const p = e.payload;
  const what = str(p.type, e.kind);
  const text = typeof p.text === "string" && p.type !== "model" ? p.text : undefined;
  return {
    ...itemBase(e, "event"),
    status: "event",
    tool: what,
    summary: eventSummary(p, what),
    class: "-",
    decision: "-",
    ...(text ? { text } : {}),
  };
}

/**
 * An entry of a kind this version does not know: shown with its kind and scalar fields.
 *
 * @example
 * ```ts ignore
 * entryItem(entry).tool; // "compaction"
 * ```
 */
export function entryItem(e: LedgerEntry): ReplayItem {
  return { ...eventItem(e), kind: "entry", tool: String(e.kind) };
}
