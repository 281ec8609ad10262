/**
 * The approval dialog. It shows what the action will do — the consequence, and then exactly what
 * will run: the whole command (every line, control characters made visible, a warning when there
 * are any), or the diff of a write or edit with the inspector's findings — before it asks.
 *
 * Choices, one key each, nothing pre-selected: `y` yes; `a` yes, and don't ask again for this
 * exact action in this project (a narrowed rule kept in the user's config, recorded; see
 * `agent/remembered_approvals.ts`); `n` no; `t` no, and tell the model what to do instead; `e`
 * explain why retie asks. Esc and Ctrl-C are no.
 *
 * @module
 */
import type { ApprovalRequest } from "../plane/guard.ts";
import { findingText } from "./action_line.ts";
import { findingLines } from "./finding_lines.ts";
import { c } from "./color.ts";
import { diffText } from "./live.ts";
import { hasHiddenChars, safeText } from "./safe_text.ts";
import type { TerminalInput } from "./terminal_input.ts";
import { say } from "./term.ts";

const one = (s: string) => safeText(s, { newlines: "show", tabs: "show" });

function argsOf(req: ApprovalRequest): Record<string, unknown> {
  return typeof req.args === "object" && req.args !== null && !Array.isArray(req.args)
    ? req.args as Record<string, unknown>
    : {};
}

function shortPath(path: string, workspace: string): string {
  return workspace && path.startsWith(workspace + "/") ? path.slice(workspace.length + 1) : path;
}

/** The whole of what will run, as lines: a command line by line, or the arguments. */
function exactly(req: ApprovalRequest): string[] {
  const args = argsOf(req);
  const lines: string[] = [];
  let raw: string;
  if (req.tool === "bash" && typeof args.command === "string") {
    raw = args.command;
    lines.push(`  ${c.dim("command, whole, exactly as it will run:")}`);
    for (const l of raw.split("\n")) lines.push(`  ${c.dim("│")} ${safeText(l, { tabs: "show" })}`);
  } else if (req.changes?.length) {
    return [];
  } else {
    raw = JSON.stringify(req.args ?? {}, null, 2);
    lines.push(`  ${c.dim("arguments, whole:")}`);
    for (const l of raw.split("\n")) lines.push(`  ${c.dim("│")} ${safeText(l, { tabs: "show" })}`);
  }
  if (hasHiddenChars(raw)) {
    lines.push(`  ${
      c.bold(c.red(
        "⚠ it holds control or invisible characters, shown above as ␛, ^X, \\xNN or <U+…>: " +
          "what a terminal would display differs from what runs",
      ))
    }`);
  }
  return lines;
}

/**
 * The text shown above the choices (every untrusted part made safe).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { forceColor } from "./color.ts";
 * import { approvalMessage } from "./approval.ts";
 * forceColor(false);
 * const text = approvalMessage({
 *   tool: "bash", summary: "run shell command: ls", consequence: "not reversible: runs `ls`",
 *   class: "irreversible", findings: [], rule: "r", justification: "j",
 *   args: { command: "ls\x1b[2K; rm -rf ~" },
 * }, "/ws");
 * assert.match(text, /│ ls␛\[2K; rm -rf ~/);
 * assert.match(text, /⚠ it holds control or invisible characters/);
 * forceColor(null);
 * ```
 */
export function approvalMessage(req: ApprovalRequest, workspace = ""): string {
  const lines = [`${c.yellow("?")} ${c.bold(one(req.consequence))}`];
  lines.push(...exactly(req));
  for (const f of req.findings) {
    const change = req.changes?.find((ch) => ch.path === f.path);
    const at = change ? findingLines(f, change) : [];
    const where = at.length ? `:${at.map((l) => l.line).join(",")}` : "";
    const text = `${findingText(f)} in ${one(shortPath(f.path, workspace))}${where}${
      f.message ? ` — ${one(f.message)}` : ""
    }`;
    lines.push(`    ${f.severity === "high" ? c.red(text) : c.yellow(text)}`);
    for (const l of at) {
      const mark = l.side === "removed" ? c.red(`-${l.line}`) : c.green(`+${l.line}`);
      lines.push(`      ${mark} ${c.dim("│")} ${safeText(l.text, { tabs: "show" })}`);
    }
  }
  for (const ch of req.changes ?? []) lines.push(diffText(ch, workspace));
  return lines.join("\n");
}

/** Why retie asks, for the "explain" choice. */
export function explainText(req: ApprovalRequest): string {
  return [
    `retie asks because the policy rule "${one(req.rule)}" matched:`,
    `  ${one(req.justification)}`,
    `class: ${req.class}${
      req.class === "irreversible" ? " (no inverse can be prepared, so undo cannot reverse it)" : ""
    }`,
    `action: ${one(req.summary)}`,
    ...exactly(req),
  ].join("\n");
}

/** What the dialog answered: yes, yes-and-don't-ask-again, or no (perhaps with what to do). */
export interface DialogAnswer {
  choice: "yes" | "always" | "no";
  /** With `no`: what the person said the model should do instead. */
  instead?: string;
}

/**
 * The dialog itself: shows what will run, then one key per answer. `always` is offered with the
 * words of what it covers (`remember`); without them there is no `a` choice.
 *
 * @example
 * ```ts ignore
 * const { choice, instead } = await approvalDialog(req, { input, workspace, remember: "this exact command, this session" });
 * ```
 */
export async function approvalDialog(
  req: ApprovalRequest,
  o: {
    input: TerminalInput;
    workspace: string;
    remember?: string;
    write?: (text: string) => void;
  },
): Promise<DialogAnswer> {
  const write = o.write ?? ((t: string) => say(t));
  write(approvalMessage(req, o.workspace));
  if (!o.input.interactive) {
    // A prompt on piped input would wait forever, or take a line meant as a request for an
    // answer: refuse instead (the guard records why).
    throw new Error(
      "nobody can answer: standard input is not a terminal; run retie in a terminal to be " +
        "asked, or --headless (with --yes to approve every ask)",
    );
  }
  while (true) {
    write(c.bold("Allow it?"));
    const key = await o.input.choose([
      { key: "y", label: "yes" },
      ...(o.remember
        ? [{ key: "a", label: `yes, and don't ask again for ${one(o.remember)}` }]
        : []),
      { key: "n", label: "no" },
      { key: "t", label: "no, and say what to do instead" },
      { key: "e", label: "explain" },
    ], "n");
    if (key === null) throw new Error("the input ended without an answer");
    if (key === "e") {
      write(c.dim(explainText(req)));
      continue;
    }
    if (key === "y") return { choice: "yes" };
    if (key === "a") return { choice: "always" };
    if (key === "t") {
      const instead = await o.input.readText("instead: ");
      return { choice: "no", instead: instead ?? undefined };
    }
    return { choice: "no" };
  }
}
