/**
 * How replay words the events of long sessions: compaction, /clear, resume, the stored
 * conversation's digest, remembered approvals.
 *
 * @module
 */

const s = (v: unknown): string => (typeof v === "string" ? v : v == null ? "" : String(v));

/**
 * The words for a long-session event, or null when `p` is not one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { longSessionEvent } from "./replay_long.ts";
 * assert.deepEqual(longSessionEvent({ type: "clear", messagesDropped: 4 }), "cleared the conversation (4 messages dropped)");
 * ```
 */
export function longSessionEvent(p: Record<string, unknown>): string | null {
  switch (p.type) {
    case "compaction":
      return `compacted (${s(p.reason)}${p.focus ? `, focus: ${s(p.focus)}` : ""}): ${
        s(p.compactedMessages)
      } messages → summary ${s(p.summaryDigest).slice(0, 12)}, ~${s(p.tokensBefore)} → ~${
        s(p.tokensAfter)
      } tokens${p.fallback ? ` (${s(p.fallback)})` : ""}`;
    case "clear":
      return `cleared the conversation (${s(p.messagesDropped)} messages dropped)`;
    case "resume":
      return `continues ${s(p.from)} (conversation ${s(p.conversationDigest).slice(0, 12)}, ${
        s(p.messages)
      } messages)`;
    case "context-window":
      return `context window now ${s(p.tokens)} tokens`;
    case "conversation":
      return `conversation stored: ${s(p.messages)} messages, digest ${s(p.digest).slice(0, 12)}`;
    case "approval-remembered": {
      if (p.added && typeof p.added === "object") {
        const r = p.added as Record<string, unknown>;
        return `remembered approval added: ${s(r.tool)} ${JSON.stringify(s(r.pattern))}`;
      }
      if (p.rule && typeof p.rule === "object") {
        const r = p.rule as Record<string, unknown>;
        return `allowed by a remembered approval: ${s(r.tool)} ${JSON.stringify(s(r.pattern))}`;
      }
      return `remembered approvals: ${s(p.error)}`;
    }
    default:
      return null;
  }
}
