/**
 * The long-session side of a session: the context manager (compaction), the usage meter, the
 * session budget, the stored conversation (resume) — and what each records in the ledger:
 *
 * - `{type: "resume", from, parts, fromDelegation, conversationDigest}` right after genesis when
 *   the session continues an earlier one;
 * - `{type: "compaction", reason, focus, summaryDigest, …}` for every compaction;
 * - `{type: "clear", messagesDropped, summaryDropped}` for `/clear`;
 * - `{type: "conversation", digest, messages}` after every turn (the stored file's digest).
 *
 * @module
 */
import { type Delegation, delegationHash, type Ledger, type SessionWriter } from "../ledger/mod.ts";
import { budgetStop } from "./budget.ts";
import { type CompactionRecord, ContextManager } from "./compaction.ts";
import { contextMessages } from "./compaction_text.ts";
import { conversationDigest, saveConversation } from "./conversation_store.ts";
import type { Conversation, LoopContext } from "./loop.ts";
import { compactionFacts } from "./session_record.ts";
import type { SessionOptions } from "./session.ts";
import { UsageMeter } from "./usage_meter.ts";
import { errorMessage } from "../core/errors.ts";

/** What the session uses of it. */
export interface SessionContext {
  meter: UsageMeter;
  manager: ContextManager;
  /** Handed to the loop. */
  loop: LoopContext;
  compact(focus?: string): Promise<CompactionRecord | null>;
  clear(): void;
  /** Stores the conversation and chains its digest into the ledger. */
  saveConversation(): void;
  /** Sets the window (recorded); a lookup under way is awaited before the next request. */
  setWindow(tokens: number | null | Promise<number | null>): void;
}

/**
 * Sets up the context side of a session (and, for a resumed one, loads its conversation and
 * records where it came from).
 *
 * @example
 * ```ts ignore
 * const ctx = sessionContext({ opts, ledger, writer, conversation, parts, system, toolsChars });
 * ```
 */
export function sessionContext(a: {
  opts: SessionOptions;
  ledger: Ledger;
  writer: SessionWriter;
  conversation: Conversation;
  parts: string[];
  system: string;
  toolsChars: number;
  /** Tells the person something (compaction, a conversation that could not be stored). */
  notice: (message: string) => void;
}): SessionContext {
  const { opts, ledger, writer, conversation, parts } = a;
  const meter = new UsageMeter(opts.contextWindow ?? null);
  const manager = new ContextManager({
    provider: opts.provider,
    system: a.system,
    toolsChars: a.toolsChars,
    meter,
    facts: () => compactionFacts(ledger, parts),
    onCompaction: (rec, summary) => {
      writer.append("event", { ...rec });
      a.notice(
        `compacted the conversation (${rec.reason}): ${rec.compactedMessages} messages became a ` +
          `summary of ${summary.length} characters; about ${rec.tokensBefore} → ${rec.tokensAfter} tokens`,
      );
    },
  });

  if (opts.resume) {
    const c = opts.resume.conversation;
    conversation.messages = c.messages;
    conversation.summary = c.summary;
    const from = opts.resume.parts.at(-1)!;
    const genesis = ledger.entries({ session: from, kinds: ["genesis"] })[0];
    const d = genesis?.payload.delegation as Delegation | undefined;
    writer.append("event", {
      type: "resume",
      from,
      parts: opts.resume.parts,
      fromDelegation: d ? delegationHash(d) : null,
      conversationDigest: conversationDigest(c),
      messages: c.messages.length,
    });
    meter.setContext(manager.estimate(contextMessages(c.summary, c.messages)));
  }

  let pendingWindow: Promise<void> | null = null;
  const setWindow = (tokens: number | null): void => {
    if (tokens === null || tokens === meter.contextWindow) return;
    meter.contextWindow = tokens;
    writer.append("event", { type: "context-window", tokens });
  };
  const loop: LoopContext = {
    prepare: async (convo, signal) => {
      if (pendingWindow) await pendingWindow;
      return manager.prepare(convo, signal);
    },
    record: (turn, sent) => manager.record(turn, sent),
    overflow: (convo, signal, message) => manager.overflow(convo, signal, message),
    stopReason: () => budgetStop(opts.budget, meter, opts.unitsUsed),
  };

  const save = (): void => {
    try {
      const digest = saveConversation(opts.ledgerPath, {
        format: 1,
        session: writer.sessionId,
        workspace: opts.workspace,
        summary: conversation.summary,
        messages: conversation.messages,
      });
      writer.append("event", {
        type: "conversation",
        digest,
        messages: conversation.messages.length,
        summarised: conversation.summary !== null,
      });
    } catch (e) {
      a.notice(
        `the conversation could not be stored for resuming: ${errorMessage(e)}`,
      );
    }
  };

  return {
    meter,
    manager,
    loop,
    compact: async (focus) => {
      const rec = await manager.compact(conversation, { reason: "manual", focus });
      if (rec) save();
      return rec;
    },
    clear: () => {
      const dropped = conversation.messages.length;
      const hadSummary = conversation.summary !== null;
      manager.clear(conversation);
      writer.append("event", {
        type: "clear",
        messagesDropped: dropped,
        summaryDropped: hadSummary,
      });
      save();
    },
    saveConversation: save,
    setWindow: (tokens) => {
      if (!(tokens instanceof Promise)) return setWindow(tokens);
      const p: Promise<void> = tokens.then(setWindow, () => {}).finally(() => {
        if (pendingWindow === p) pendingWindow = null;
      });
      pendingWindow = p;
    },
  };
}
