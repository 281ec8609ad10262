/**
 * Markdown for the terminal, rendered line by line so an answer can be shown as it streams:
 * headings bold, `**strong**` bold, `*emphasis*` italic, `` `code` `` coloured, fenced code set
 * apart with a bar, list items with bullets and a hanging indent, quotes with a bar, rules drawn
 * across. Long lines wrap at words to the terminal width and keep their indent. Without colour
 * the markers are dropped where they carry only style, so the text reads cleanly either way.
 *
 * The input is untrusted (a model wrote it): every line is made safe before any style is added.
 *
 * @module
 */
import stringWidth from "fast-string-width";
import { wrapAnsi } from "fast-wrap-ansi";
import { c, colorEnabled } from "./color.ts";
import { highlightLine } from "./highlight.ts";
import { safeText } from "./safe_text.ts";

const ITALIC = (s: string) => (colorEnabled() ? `\x1b[3m${s}\x1b[23m` : s);

function inline(text: string, color: boolean): string {
  // Code spans first, so markers inside them stay literal.
  const parts = text.split(/(`[^`]+`)/);
  return parts.map((p) => {
    if (/^`[^`]+`$/.test(p)) return color ? c.cyan(p.slice(1, -1)) : p;
    return p
      .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, t, u) => (t === u ? u : `${t} (${u})`))
      .replace(/\*\*([^*]+)\*\*|__([^_]+)__/g, (_m, a, b) => c.bold(a ?? b))
      .replace(/(^|[\s(])\*([^*\s][^*]*)\*(?=[\s.,;:!?)]|$)/g, (_m, pre, t) => pre + ITALIC(t))
      .replace(/(^|[\s(])_([^_\s][^_]*)_(?=[\s.,;:!?)]|$)/g, (_m, pre, t) => pre + ITALIC(t));
  }).join("");
}

/** Whether inline markers (code, emphasis, links) all close within `text`. */
function balanced(text: string): boolean {
  const count = (re: RegExp) => (text.match(re) ?? []).length;
  return count(/`/g) % 2 === 0 && count(/\*/g) % 2 === 0 && count(/\[/g) === count(/\]/g);
}

/** Wraps one styled line to `width`, the continuation lines indented by `hang` spaces. */
function wrap(first: string, body: string, hang: string, width: number): string[] {
  const room = Math.max(10, width - hang.length);
  const lines = wrapAnsi(body, room, { hard: true, trim: true, wordWrap: true }).split("\n");
  return lines.map((l, i) => (i === 0 ? first : hang) + l);
}

/**
 * Renders markdown one line at a time; keeps the state a line cannot carry alone (inside a code
 * fence or not).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { forceColor } from "./color.ts";
 * import { MarkdownLines } from "./markdown.ts";
 * forceColor(false);
 * const md = new MarkdownLines(() => 40);
 * assert.deepEqual(md.line("## Plan"), ["Plan"]);
 * assert.deepEqual(md.line("- **fix** the `add` function"), ["  • fix the `add` function"]);
 * forceColor(null);
 * ```
 */
export class MarkdownLines {
  #fence: string | null = null;
  #lang = "";
  #width: () => number;

  constructor(width: () => number) {
    this.#width = width;
  }

  /** The terminal lines for one line of markdown (none for a fence marker). */
  line(raw: string): string[] {
    const width = this.#width();
    const color = colorEnabled();
    const text = safeText(raw.replace(/\r$/, ""), { tabs: "keep" }).replace(/\t/g, "    ");
    const fence = /^\s*(```+|~~~+)\s*([\w+-]*)/.exec(text);
    if (fence) {
      if (this.#fence === null) {
        this.#fence = fence[1];
        this.#lang = fence[2];
        return [c.dim(`  ┌─${fence[2] ? ` ${fence[2]} ` : ""}`)];
      }
      if (text.trim().startsWith(this.#fence)) {
        this.#fence = null;
        return [c.dim("  └─")];
      }
    }
    if (this.#fence !== null) {
      return wrap(
        `  ${c.dim("│")} `,
        highlightLine(text, this.#lang),
        "  " + c.dim("│") + " ",
        width,
      );
    }
    if (text.trim() === "") return [""];
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(text);
    if (heading) {
      const body = inline(heading[2], color);
      return wrap("", heading[1].length <= 2 ? c.bold(c.underline(body)) : c.bold(body), "", width);
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(text)) {
      return [c.dim("─".repeat(Math.min(width, 60)))];
    }
    const quote = /^(\s*)>\s?(.*)$/.exec(text);
    if (quote) {
      const bar = `${quote[1]}${c.dim("│")} `;
      return wrap(bar, c.dim(inline(quote[2], color)), bar, width);
    }
    const item = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(text);
    if (item) {
      const indent = "  " + item[1];
      const bullet = /^\d/.test(item[2]) ? item[2] : "•";
      const hang = " ".repeat(indent.length + bullet.length + 1);
      return wrap(`${indent}${bullet} `, inline(item[3], color), hang, width);
    }
    const lead = /^(\s*)/.exec(text)![1];
    return wrap(lead, inline(text.slice(lead.length), color), lead, width);
  }

  /**
   * The first full row of a paragraph still being streamed, when it is long enough to fill one
   * (so a long paragraph appears as it comes, not when its line ends): the row, and the source
   * text left for the next. Null for anything but a plain paragraph, or when no row is full yet.
   */
  takeRow(pending: string): { row: string; rest: string } | null {
    const width = this.#width();
    if (this.#fence !== null || stringWidth(pending) < width * 1.5) return null;
    if (/^(\s|#|>|[-*+]\s|\d+[.)]\s|\||```|~~~)/.test(pending)) return null;
    let best: string | null = null;
    for (const m of pending.matchAll(/ /g)) {
      const prefix = pending.slice(0, m.index);
      if (!balanced(prefix)) continue;
      const rows = this.line(prefix);
      if (rows.length > 1 || stringWidth(rows[0]) > width) break;
      best = prefix;
    }
    if (!best) return null;
    return { row: this.line(best)[0], rest: pending.slice(best.length + 1) };
  }

  /** Whether a code fence is open (the answer ended inside one). */
  get inFence(): boolean {
    return this.#fence !== null;
  }
}

/**
 * Renders a whole markdown text for the terminal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { forceColor } from "./color.ts";
 * import { renderMarkdown } from "./markdown.ts";
 * forceColor(false);
 * assert.equal(renderMarkdown("# Title\n\nsome *text*", 80), "Title\n\nsome text");
 * forceColor(null);
 * ```
 */
export function renderMarkdown(text: string, width: number): string {
  const md = new MarkdownLines(() => width);
  return text.split("\n").flatMap((l) => md.line(l)).join("\n");
}
