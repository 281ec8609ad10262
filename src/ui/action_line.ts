/**
 * One action as one line, in the replay style — used live in the REPL and in `retie replay`:
 *
 * ```
 *   09:34:48  ok        edit     edit calc.py
 *               ⚑ high: auth-check-removed (1 → 0)
 * ```
 *
 * @module
 */
import { c } from "./color.ts";
import { safeText } from "./safe_text.ts";

const one = (s: string) => safeText(s, { newlines: "show", tabs: "show" });

/** What a line needs. */
export interface LineInput {
  time: string;
  status: string;
  tool: string;
  summary: string;
  reason?: string;
  findings: { rule: string; severity: string; before?: number; after?: number }[];
  /** The action's id (shown so `/undo ID` and `/show ID` can name it). */
  id?: string | null;
}

function hhmmss(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "--:--:--";
  return d.toISOString().slice(11, 19);
}

const STATUS_COLOR: Record<string, (s: string) => string> = {
  ok: c.green,
  error: c.yellow,
  refused: (s) => c.bold(c.red(s)),
  started: c.magenta,
  undone: c.cyan,
  "undo-refused": c.red,
  "undo-skipped": c.yellow,
  event: c.gray,
};

/** `⚑ high: auth-check-removed (1 → 0)`. */
export function findingText(f: LineInput["findings"][number]): string {
  const counts = f.before !== undefined && f.after !== undefined
    ? ` (${f.before} → ${f.after})`
    : "";
  return `⚑ ${one(f.severity)}: ${one(f.rule)}${counts}`;
}

/**
 * Renders an action and its findings as lines of text.
 *
 * @example
 * ```ts
 * import { actionLines } from "./action_line.ts";
 * actionLines({ time: "2026-01-01T09:34:48Z", status: "ok", tool: "read", summary: "read calc.py", findings: [] });
 * // ["  09:34:48  ok        read     read calc.py"]
 * ```
 */
export function actionLines(a: LineInput): string[] {
  const status = (STATUS_COLOR[a.status] ?? ((s: string) => s))(a.status.padEnd(9));
  const id = a.id ? `  ${c.dim(one(a.id))}` : "";
  const lines = [`  ${hhmmss(a.time)}  ${status} ${one(a.tool).padEnd(8)} ${one(a.summary)}${id}`];
  if (a.reason && a.status !== "ok") lines.push(`              ${c.dim(one(a.reason))}`);
  for (const f of a.findings) {
    const text = findingText(f);
    lines.push(`              ${f.severity === "high" ? c.red(text) : c.yellow(text)}`);
  }
  return lines;
}
