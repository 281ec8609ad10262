/**
 * Markdown of a verified replay for a pull request or a CI job summary: a summary table first,
 * then each item's details (prompt and answer text, diffs with line numbers, output excerpts) in
 * collapsible `<details>` blocks.
 *
 * Nothing a model, a command or a file wrote can break the document: inline text has every ASCII
 * punctuation character backslash-escaped and `& < >` written as entities (so no raw HTML, no
 * `</details>`, no comment, no link, image, emphasis, code span or table cell break), bare URLs
 * lose their autolink, and block text goes in code fences longer than any backtick run inside.
 *
 * @module
 */
import { findingText } from "./action_line.ts";
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

/** Lines of a prompt or answer shown in a details block before "… more". */
export const MD_TEXT_LINES = 60;

const ENTITY: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/** Control and invisible format characters that could hide or reorder text. */
const HIDDEN =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

/**
 * Escapes text for inline markdown (a table cell, a heading, a list item): one line, every ASCII
 * punctuation backslash-escaped, `& < >` as entities, autolinks broken.
 *
 * @example
 * ```ts
 * import { mdInline } from "./replay_markdown.ts";
 * mdInline("a | b [x](http://e.vil) </details>");
 * ```
 */
export function mdInline(s: string): string {
  return s
    .replace(
      HIDDEN,
      (ch) => `<U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}>`,
    )
    .replace(/\r?\n/g, " ⏎ ")
    .replace(/[!"#$%'()*+,\-./:;=?@[\\\]^_`{|}~]/g, (ch) => `\\${ch}`)
    .replace(/[&<>]/g, (ch) => ENTITY[ch])
    // GFM autolinks bare `www.` and `scheme://`: a zero-width space keeps them text.
    .replace(/(\w)\\:\\\/\\\//g, "$1\\:\u200b\\/\\/")
    .replace(/\bwww\\\./gi, (m) => `${m.slice(0, 3)}\u200b${m.slice(3)}`);
}

/**
 * Escapes text for the inside of an HTML element in markdown (`<summary>`): entities only, one
 * line (a blank line would end the HTML block).
 *
 * @example
 * ```ts
 * import { mdHtml } from "./replay_markdown.ts";
 * mdHtml("<b>x</b>"); // "&lt;b&gt;x&lt;/b&gt;"
 * ```
 */
export function mdHtml(s: string): string {
  // Markdown is not parsed inside an HTML block, but the characters it would act on are written
  // as character references anyway, so no renderer that does parse it finds a link or a code span.
  return s.replace(HIDDEN, "").replace(/\s*\n\s*/g, " ").replace(
    /[&<>"'[\]()`|*_~!\\]/g,
    (ch) => ENTITY[ch] ?? `&#${ch.charCodeAt(0)};`,
  ).replace(/(\w):\/\//g, "$1:\u200b//");
}

/**
 * A fenced code block that its content cannot close: the fence is longer than any run of
 * backticks inside.
 *
 * @example
 * ```ts
 * import { mdFence } from "./replay_markdown.ts";
 * mdFence("x").split("\n").length; // 3: the opening fence, the text, the closing fence
 * ```
 */
export function mdFence(text: string, lang = "text"): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${
    text.replace(HIDDEN, (ch) => `<U+${ch.codePointAt(0)!.toString(16).toUpperCase()}>`)
  }\n${fence}`;
}

function row(a: ReplayItem, n: number): string {
  const undone = a.undo?.status === "undone";
  let what = mdInline(a.summary);
  if (undone) what = `~~${what}~~ (undone, #${a.undo!.seq})`;
  if (a.reason && a.status !== "ok" && a.kind !== "answer") what += ` — ${mdInline(a.reason)}`;
  const status = a.status === "refused"
    ? "**refused**"
    : a.status === "error"
    ? "**failed**"
    : statusLabel(a);
  const id = a.actionId && a.kind === "action" ? `\`${a.actionId.replace(/[^\w]/g, "")}\`` : "";
  const findings = a.findings.map((f) =>
    findingText(f) + (f.path && f.line ? ` ${f.path}:${f.line}` : f.line ? ` line ${f.line}` : "")
  );
  const cells = [
    String(n),
    a.time.slice(11, 19),
    status,
    mdInline(a.tool),
    what,
    id,
    a.kind === "action" || a.kind === "refusal" ? mdInline(`${a.class} · ${a.decision}`) : "",
    a.decidedBy ? mdInline(a.decidedBy) : "",
    mdInline(findings.join("; ")),
  ];
  return `| ${cells.join(" | ")} |`;
}

function diffText(a: ReplayItem): string[] {
  const out: string[] = [];
  for (const d of a.diffs) {
    const lines = [`--- ${d.path} (${d.change})`];
    for (const h of d.hunks) {
      lines.push(hunkHeader(h));
      for (const l of numberHunk(h)) {
        lines.push(
          `${l.sign}${String(l.old ?? "").padStart(5)} ${
            String(l.new ?? "").padStart(5)
          }  ${l.text}`,
        );
      }
    }
    if (d.omitted) lines.push(`… ${d.omitted} more diff lines not recorded`);
    if (!d.recorded) lines.push("(rebuilt from the call's arguments: no context recorded)");
    out.push(mdFence(lines.join("\n"), "diff"));
  }
  return out;
}

/** The details block of one item, or null when the table row says it all. */
function details(a: ReplayItem, n: number): string | null {
  const body: string[] = [];
  if (a.text) {
    const { shown, more } = cutLines(a.text, MD_TEXT_LINES);
    body.push(mdFence(shown));
    if (more) body.push(`_… ${more} more lines (all of it: \`retie replay --json\`)_`);
  }
  if (a.kind === "action" || a.kind === "refusal") {
    body.push(`- decision: ${mdInline(decisionLine(a))}`);
    if (a.actionId) body.push(`- action id: \`${a.actionId.replace(/[^\w]/g, "")}\``);
    if (a.reason && a.status !== "ok") body.push(`- reason: ${mdInline(a.reason)}`);
    for (const f of a.findings) {
      body.push(`- ${mdInline(findingLine(f))}`);
    }
    const mark = undoMark(a);
    if (mark) {
      body.push(`- ${a.undo?.status === "undone" ? "**undone**" : "undo"}: ${mdInline(mark)}`);
    }
  }
  body.push(...diffText(a));
  if (a.output && (a.output.head.length || a.output.exitCode !== undefined)) {
    body.push("output excerpt:", mdFence(outputLines(a.output).join("\n")));
  }
  if (body.length === 0) return null;
  const label = `${n}. ${statusLabel(a)} ${a.tool}: ${a.summary}`;
  return [
    `<details><summary>${mdHtml(label.length > 140 ? `${label.slice(0, 140)}…` : label)}</summary>`,
    "",
    // List items stay together (a tight list); blocks get a blank line around them.
    ...body.flatMap((b, i) => b.startsWith("- ") && body[i + 1]?.startsWith("- ") ? [b] : [b, ""]),
    "</details>",
  ].join("\n");
}

/**
 * Markdown for a pull request or a job summary. With `maxChars`, whole parts are left out from the
 * end (details blocks first, then table rows) so the document stays within the limit and stays
 * well formed — a pull request body takes 65 536 characters, a job summary 1 MiB — with a note
 * saying what was left out.
 *
 * @example
 * ```ts ignore
 * await Deno.writeTextFile("session.md", renderMarkdown(model, { maxChars: 60_000 }));
 * ```
 */
export function renderMarkdown(m: ReplayModel, opts: { maxChars?: number } = {}): string {
  const head = [
    `### retie session: ${mdInline(m.objective || "(no objective recorded)")}`,
    "",
    `${mdInline(headerLine(m))} — ledger verified, head #${m.head.seq} \`${
      m.head.hash.replace(/[^0-9a-f]/g, "").slice(0, 16)
    }\``,
    "",
    `**${mdInline(totalsLine(m))}**`,
    "",
    "| # | time | status | tool | what | id | class · decision | decided by | findings |",
    "| --: | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  const rows = m.timeline.map((a, i) => row(a, i + 1));
  const blocks = m.timeline.map((a, i) => details(a, i + 1)).filter((b): b is string => !!b);
  const max = opts.maxChars ?? Infinity;
  // Room for the note about what was left out.
  const budget = max - 300;
  let size = head.join("\n").length + 2;
  const keptRows: string[] = [];
  for (const r of rows) {
    if (size + r.length + 1 > budget) break;
    keptRows.push(r);
    size += r.length + 1;
  }
  const keptBlocks: string[] = [];
  if (keptRows.length === rows.length) {
    size += "\n#### Details\n\n".length;
    for (const b of blocks) {
      if (size + b.length + 2 > budget) break;
      keptBlocks.push(b);
      size += b.length + 2;
    }
  }
  const out = [...head, ...keptRows];
  if (keptRows.length < rows.length) {
    out.push(
      "",
      `_${rows.length - keptRows.length} more rows and all details left out to stay ` +
        `within ${max} characters: \`retie replay --markdown ${m.session}\` has all of it._`,
    );
  }
  if (keptBlocks.length) out.push("", "#### Details", "", ...keptBlocks.flatMap((b) => [b, ""]));
  if (keptRows.length === rows.length && keptBlocks.length < blocks.length) {
    out.push(
      `_${blocks.length - keptBlocks.length} more details blocks left out to stay within ` +
        `${max} characters: \`retie replay --markdown ${m.session}\` has all of it._`,
      "",
    );
  }
  for (const sub of m.subagents ?? []) {
    out.push(
      "<details><summary>sub-agent " + mdInline(sub.agentType ?? "?") + " · " + sub.session +
        "</summary>",
      "",
      renderMarkdown(sub, opts).replace(/^### retie session:/, "#### sub-agent session:"),
      "</details>",
      "",
    );
  }
  out.push("");
  return out.join("\n");
}
