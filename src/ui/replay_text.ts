/**
 * The terminal rendering of a verified replay: the whole session in order — prompts, answers,
 * actions with their ids, decisions, output excerpts, findings, numbered diffs and undo marks.
 * Everything recorded passes through {@link safeText} before it reaches the terminal: a ledger may
 * hold text a model, a command or a web page wrote.
 *
 * @module
 */
import { c } from "./color.ts";
import {
  cutLines,
  decisionLine,
  findingLine,
  hunkHeader,
  numberHunk,
  outputLines,
  undoMark,
} from "./replay_diff.ts";
import {
  headerLine,
  type ReplayItem,
  type ReplayModel,
  statusLabel,
  totalsLine,
} from "./replay_model.ts";
import { safeText } from "./safe_text.ts";

export { renderMarkdown } from "./replay_markdown.ts";

/** Lines of a prompt or answer shown before "… more". */
export const TEXT_LINES = 12;

const one = (s: string) => safeText(s, { newlines: "show", tabs: "show" });
const many = (s: string) => safeText(s, { tabs: "keep" });
const INDENT = "              ";

const STATUS_COLOR: Record<string, (s: string) => string> = {
  ok: c.green,
  failed: c.yellow,
  refused: (s) => c.bold(c.red(s)),
  started: c.magenta,
  undone: c.blue,
  "undo-refused": c.red,
  "undo-skipped": c.yellow,
  prompt: (s) => c.bold(c.cyan(s)),
  answer: c.cyan,
  event: c.gray,
};

function hhmmss(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "--:--:--" : d.toISOString().slice(11, 19);
}

function block(text: string, max: number): string[] {
  const { shown, more } = cutLines(many(text), max);
  const lines = shown.split("\n").map((l) => `${INDENT}${l}`);
  if (more) lines.push(c.dim(`${INDENT}… ${more} more lines (all of it: retie replay --json)`));
  return lines;
}

function itemLines(a: ReplayItem): string[] {
  const label = statusLabel(a);
  const status = (STATUS_COLOR[label] ?? ((s: string) => s))(label.padEnd(9));
  const undone = a.undo?.status === "undone";
  const summary = undone ? `${c.strike(one(a.summary))} ${c.blue("(undone)")}` : one(a.summary);
  const id = a.actionId && a.kind === "action" ? `  ${c.dim(a.actionId)}` : "";
  if (a.kind === "prompt" || a.kind === "answer") {
    const who = a.kind === "answer" && a.reason ? c.dim(` (${one(a.reason)})`) : "";
    const [first, ...rest] = (a.text ?? "").replace(/^\n+/, "").split("\n");
    const head = `  ${hhmmss(a.time)}  ${status}${who} ${one(first ?? "")}`;
    return rest.length ? [head, ...block(rest.join("\n"), TEXT_LINES - 1)] : [head];
  }
  const out = [`  ${hhmmss(a.time)}  ${status} ${one(a.tool).padEnd(8)} ${summary}${id}`];
  if (a.kind === "action" || a.kind === "refusal") out.push(INDENT + c.dim(one(decisionLine(a))));
  if (a.reason && a.status !== "ok" && a.reason !== a.output?.head[0]) {
    out.push(INDENT + (a.status === "refused" ? c.red : c.dim)(one(a.reason)));
  }
  for (const f of a.findings) {
    const text = one(findingLine(f));
    out.push(INDENT + (f.severity === "high" ? c.red(text) : c.yellow(text)));
  }
  if (a.kind === "event" && a.text && a.text.trim() !== a.summary.trim()) {
    out.push(...block(a.text, 4));
  }
  for (const d of a.diffs) {
    out.push(INDENT + c.bold(`--- ${one(d.path)} (${d.change})`));
    for (const h of d.hunks) {
      out.push(INDENT + c.cyan(hunkHeader(h)));
      for (const l of numberHunk(h)) {
        const nums = `${String(l.old ?? "").padStart(4)} ${String(l.new ?? "").padStart(4)} `;
        const text = `${l.sign} ${one(l.text)}`;
        out.push(
          INDENT + c.dim(nums) +
            (l.sign === "+" ? c.green(text) : l.sign === "-" ? c.red(text) : text),
        );
      }
    }
    if (d.omitted) out.push(INDENT + c.dim(`… ${d.omitted} more diff lines not recorded`));
    if (!d.recorded) out.push(INDENT + c.dim("(from the call's arguments: no context recorded)"));
  }
  if (a.output && (a.output.head.length || a.output.exitCode !== undefined)) {
    for (const l of outputLines(a.output)) out.push(INDENT + c.dim("│ ") + one(l));
  }
  const mark = undoMark(a);
  if (mark) out.push(INDENT + (undone ? c.blue : c.yellow)(one(mark)));
  return out;
}

/**
 * The terminal replay: objective, header, every item of the timeline, totals, verified head.
 *
 * @example
 * ```ts ignore
 * console.log(renderText(buildReplay(entries, head)));
 * ```
 */
export function renderText(m: ReplayModel): string {
  const out = [
    c.bold(one(m.objective || "(no objective recorded)")),
    c.dim(one(headerLine(m))),
  ];
  if (m.workspace) out.push(c.dim(`workspace ${one(m.workspace)}`));
  out.push("");
  for (const a of m.timeline) out.push(...itemLines(a));
  out.push(
    "",
    `  ${totalsLine(m)}`,
    c.dim(`  verified · head #${m.head.seq} ${m.head.hash.slice(0, 16)}`),
  );
  for (const sub of m.subagents ?? []) {
    // A sub-agent's session, indented under its caller's.
    out.push("", c.bold(`  ── sub-agent ${one(sub.agentType ?? "?")} · ${sub.session} ──`));
    out.push(...renderText(sub).split("\n").map((l) => (l ? `    ${l}` : l)));
  }
  return out.join("\n");
}
