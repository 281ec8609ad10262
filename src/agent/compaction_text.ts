/**
 * The pure parts of compaction: estimating tokens, choosing where to cut the conversation (never
 * between a tool call and its result), rendering the older part for the summariser within a
 * budget, and the messages sent after a compaction (summary first, recent turns verbatim).
 *
 * @module
 */
import type { ChatMessage } from "../providers/types.ts";

/** Characters per token assumed before the service has reported any count. */
export const CHARS_PER_TOKEN = 4;

/** What the summariser is told. */
export const COMPACT_SYSTEM =
  "You compact the conversation of a coding agent so that it can continue the work with a " +
  "smaller context. Write a faithful, dense summary in plain text with these headings: " +
  "Objective; Decisions; Files changed; Open problems; Next steps. Keep exact file paths, " +
  "identifiers, error messages, action ids (act_…) and result refs (res_…). Do not invent " +
  "anything and do not call tools.";

/** The text a summary is sent to the model under. */
export const SUMMARY_HEADER =
  "[Summary of the earlier conversation, written by retie when it was compacted. The recent " +
  "turns follow verbatim.]";

/** Characters of one message (content, tool calls and their arguments). */
export function messageChars(m: ChatMessage): number {
  if (m.role === "assistant") {
    return m.content.length +
      m.toolCalls.reduce((a, c) => a + c.name.length + c.argumentsJson.length + 16, 0) + 8;
  }
  return m.content.length + 8;
}

/**
 * Rough token count of messages, at `charsPerToken`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { estimateTokens } from "./compaction_text.ts";
 * assert.deepEqual(estimateTokens([{ role: "user", content: "x".repeat(392) }], 4), 100);
 * ```
 */
export function estimateTokens(messages: ChatMessage[], charsPerToken = CHARS_PER_TOKEN): number {
  return Math.ceil(messages.reduce((a, m) => a + messageChars(m), 0) / charsPerToken);
}

/**
 * Indices where the conversation may be cut so that the part kept starts cleanly: a user message,
 * or an assistant message (whose earlier tool calls all have their results before it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cutPoints } from "./compaction_text.ts";
 * assert.deepEqual(cutPoints([{ role: "user", content: "a" }, { role: "assistant", content: "b", toolCalls: [] }]), [0, 1]);
 * ```
 */
export function cutPoints(messages: ChatMessage[]): number[] {
  const out: number[] = [];
  messages.forEach((m, i) => {
    if (m.role === "user" || m.role === "assistant") out.push(i);
  });
  return out;
}

/**
 * Where to cut: the earliest cut point whose suffix fits `keepTokens`, but never 0 (something is
 * always compacted when anything can be). Returns null when nothing can be compacted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chooseCut } from "./compaction_text.ts";
 * const m = [{ role: "user", content: "x".repeat(400) }, { role: "user", content: "y" }] as const;
 * assert.deepEqual(chooseCut([...m], 10, 4), 1);
 * ```
 */
export function chooseCut(
  messages: ChatMessage[],
  keepTokens: number,
  charsPerToken = CHARS_PER_TOKEN,
): number | null {
  const points = cutPoints(messages).filter((i) => i > 0);
  if (points.length === 0) return null;
  for (const i of points) {
    if (estimateTokens(messages.slice(i), charsPerToken) <= keepTokens) return i;
  }
  return points[points.length - 1];
}

function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  const head = Math.floor(max * 0.7);
  return `${s.slice(0, head)}\n…[${s.length - max} characters left out]…\n${
    s.slice(s.length - (max - head))
  }`;
}

function render(m: ChatMessage, cap: number): string {
  if (m.role === "user") return `USER: ${clip(m.content, cap)}`;
  if (m.role === "tool") {
    return `TOOL RESULT (${m.name}${m.isError ? ", error" : ""}): ${clip(m.content, cap)}`;
  }
  const calls = m.toolCalls.map((c) => `  → ${c.name} ${clip(c.argumentsJson, 400)}`).join("\n");
  return `ASSISTANT: ${clip(m.content, cap)}${calls ? `\n${calls}` : ""}`;
}

/**
 * Renders the part to summarise (and the previous summary) within `maxChars`: each message is
 * clipped, harder and harder, and if that is not enough the oldest messages are left out (their
 * gist is in the previous summary, or lost — which the output says).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderForSummary } from "./compaction_text.ts";
 * assert.deepEqual(renderForSummary(null, [{ role: "user", content: "fix add" }], 1000).includes("USER: fix add"), true);
 * ```
 */
export function renderForSummary(
  previous: string | null,
  older: ChatMessage[],
  maxChars: number,
): string {
  const prev = previous ? `PREVIOUS SUMMARY:\n${clip(previous, Math.floor(maxChars / 3))}\n\n` : "";
  const room = Math.max(200, maxChars - prev.length);
  for (let cap = 4000; cap >= 100; cap = Math.floor(cap / 2)) {
    const text = older.map((m) => render(m, cap)).join("\n");
    if (text.length <= room) return prev + text;
  }
  // Still too large: keep the newest messages that fit at the smallest cap.
  const lines = older.map((m) => render(m, 100));
  const kept: string[] = [];
  let size = 0;
  for (let i = lines.length - 1; i >= 0 && size + lines[i].length + 1 <= room - 80; i--) {
    kept.unshift(lines[i]);
    size += lines[i].length + 1;
  }
  return `${prev}[${lines.length - kept.length} older messages left out to fit]\n${
    kept.join("\n")
  }`;
}

/**
 * The messages sent to the model: the summary (when there is one) as the first user message,
 * then the recent messages verbatim; roles keep alternating.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { contextMessages } from "./compaction_text.ts";
 * assert.deepEqual(contextMessages(null, [{ role: "user", content: "hi" }]).length, 1);
 * assert.deepEqual(contextMessages("s", [{ role: "user", content: "hi" }]).length, 3);
 * ```
 */
export function contextMessages(summary: string | null, messages: ChatMessage[]): ChatMessage[] {
  if (!summary) return messages;
  const head: ChatMessage = { role: "user", content: `${SUMMARY_HEADER}\n\n${summary}` };
  if (messages.length === 0 || messages[0].role === "user") {
    return [
      head,
      { role: "assistant", content: "Understood. Continuing from the summary.", toolCalls: [] },
      ...messages,
    ];
  }
  return [head, ...messages];
}

/** Result refs (`res_…`) mentioned in messages: they stay recallable after compaction. */
export function refsIn(messages: ChatMessage[]): string[] {
  const out = new Set<string>();
  for (const m of messages) {
    for (const r of m.content.matchAll(/\bres_[0-9a-f]{16}\b/g)) out.add(r[0]);
  }
  return [...out];
}

/** The instruction that ends the summariser's input. */
export function summaryRequest(transcript: string, focus: string | undefined): string {
  return `${transcript}\n\n---\nSummarise the conversation above for the agent that continues it.${
    focus ? ` Focus especially on: ${focus}.` : ""
  }`;
}
