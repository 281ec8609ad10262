/**
 * Keeps a session's conversation inside the model's context window.
 *
 * Before each request the size of what would be sent is estimated (calibrated by the prompt tokens
 * the service reported for the previous request); past {@link COMPACT_AT} of the window, the older
 * turns are summarised by the model (objective, decisions, files changed, open problems) and the
 * recent turns stay verbatim. retie appends facts the model cannot get wrong: the request being
 * worked on, the actions that can still be undone and the files they touched (from the ledger),
 * and the result refs that stay recallable. A context-overflow error from the service triggers one
 * harder compaction and one retry. Each compaction is reported (the session records it with the
 * summary's digest).
 *
 * @module
 */
import { sha256Hex } from "../core/hash.ts";
import { describeError } from "../core/errors.ts";
import type { ChatMessage, ModelTurn, Provider } from "../providers/types.ts";
import {
  CHARS_PER_TOKEN,
  chooseCut,
  COMPACT_SYSTEM,
  contextMessages,
  estimateTokens,
  messageChars,
  refsIn,
  renderForSummary,
  summaryRequest,
} from "./compaction_text.ts";
import type { UsageMeter } from "./usage_meter.ts";

/** Compact when the next request would pass this share of the window. */
export const COMPACT_AT = 0.8;
/** Share of the window the recent turns may keep verbatim. */
export const KEEP_RECENT = 0.3;

/**
 * The window a context-overflow message states: Anthropic's "… > 200000 maximum", OpenAI's
 * "maximum context length is 128000 tokens", "(9000 > 8192)".
 *
 * @example
 * ```ts
 * import { statedWindow } from "./compaction.ts";
 * statedWindow("prompt is too long: 210000 tokens > 200000 maximum"); // 200000
 * ```
 */
export function statedWindow(message: string): number | null {
  const m = />\s*(\d+)\s*maximum/.exec(message) ??
    /maximum context length is (\d+)/.exec(message) ??
    /\(\d+\s*>\s*(\d+)\)/.exec(message);
  const n = m ? Number(m[1]) : NaN;
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** The part of the conversation compaction works on. */
export interface CompactableConversation {
  messages: ChatMessage[];
  summary: string | null;
}

/** What a compaction did (recorded in the ledger with the summary's digest). */
export interface CompactionRecord {
  type: "compaction";
  reason: "auto" | "manual" | "overflow";
  focus: string | null;
  summaryDigest: string;
  summaryChars: number;
  /** Messages replaced by the summary. */
  compactedMessages: number;
  keptMessages: number;
  tokensBefore: number;
  tokensAfter: number;
  /** What the summarising call used. */
  cost: { inputTokens: number; outputTokens: number };
  /** The model's summary failed and retie kept its facts only. */
  fallback: string | null;
}

/** What the manager needs. */
export interface ContextDeps {
  provider: Provider;
  system: string;
  /** Size in characters of the tool definitions sent with every request. */
  toolsChars: number;
  meter: UsageMeter;
  /** Facts from the record (undoable actions, files changed), appended to every summary. */
  facts?: () => string;
  /** Told after every compaction. */
  onCompaction?: (r: CompactionRecord, summary: string) => void;
}

/**
 * The context manager of one session.
 *
 * @example
 * ```ts ignore
 * const ctx = new ContextManager({ provider, system, toolsChars, meter: new UsageMeter(32768) });
 * const messages = await ctx.prepare(convo); // compacted first if it would not fit
 * ```
 */
export class ContextManager {
  #deps: ContextDeps;
  /** Characters per token, calibrated from what the service reports. */
  #ratio = CHARS_PER_TOKEN;
  #lastSentChars = 0;
  /** The request being worked on (the last user message seen), kept across compactions. */
  #request: string | null = null;

  constructor(deps: ContextDeps) {
    this.#deps = deps;
  }

  /** The model's context window (null: unknown, never compacts on its own). */
  get window(): number | null {
    return this.#deps.meter.contextWindow;
  }

  /** Estimated prompt tokens of sending `messages` now. */
  estimate(messages: ChatMessage[]): number {
    const fixed = this.#deps.system.length + this.#deps.toolsChars;
    return Math.ceil(fixed / this.#ratio) + estimateTokens(messages, this.#ratio);
  }

  /** The messages for the next request; compacts first when they would pass the threshold. */
  async prepare(convo: CompactableConversation, signal?: AbortSignal): Promise<ChatMessage[]> {
    const w = this.window;
    this.#noteRequest(convo.messages);
    let msgs = contextMessages(convo.summary, convo.messages);
    if (w && this.estimate(msgs) > COMPACT_AT * w) {
      await this.compact(convo, { reason: "auto", signal });
      msgs = contextMessages(convo.summary, convo.messages);
    }
    this.#lastSentChars = this.#deps.system.length + this.#deps.toolsChars +
      msgs.reduce((a, m) => a + messageChars(m), 0);
    return msgs;
  }

  /** Records a response: usage, and the calibration from the reported prompt tokens. */
  record(turn: ModelTurn, sent: ChatMessage[]): void {
    const reported = turn.usage.inputTokens;
    if (reported > 0 && this.#lastSentChars > 0) {
      // Never assume more characters per token than 4: an underestimate overflows.
      this.#ratio = Math.min(CHARS_PER_TOKEN, Math.max(1, this.#lastSentChars / reported));
    }
    const prompt = reported > 0 ? reported : this.estimate(sent);
    this.#deps.meter.add(turn.model, turn.usage, prompt);
  }

  /**
   * After a context-overflow error: learns the service's real window when its message states one
   * smaller than the declared window, then compacts hard (the recent part kept to a quarter of
   * what overflowed); true when there was something to drop.
   */
  async overflow(
    convo: CompactableConversation,
    signal?: AbortSignal,
    serviceMessage = "",
  ): Promise<boolean> {
    const stated = statedWindow(serviceMessage);
    const meter = this.#deps.meter;
    if (stated && (!meter.contextWindow || stated < meter.contextWindow)) {
      meter.contextWindow = stated;
    }
    const before = convo.messages.length;
    const w = meter.contextWindow ?? this.estimate(convo.messages);
    const size = this.estimate(contextMessages(convo.summary, convo.messages));
    const keepShare = Math.min(KEEP_RECENT / 3, (size / 4) / w);
    await this.compact(convo, { reason: "overflow", signal, keepShare });
    return convo.messages.length < before;
  }

  /** Starts a fresh conversation in the same session. */
  clear(convo: CompactableConversation): void {
    convo.messages = [];
    convo.summary = null;
    this.#forget();
    this.#deps.meter.setContext(this.estimate([]));
  }

  /**
   * Summarises the older turns and keeps the recent ones; returns the record, or null when there
   * was nothing to compact.
   */
  async compact(
    convo: CompactableConversation,
    opts: {
      reason: CompactionRecord["reason"];
      focus?: string;
      signal?: AbortSignal;
      keepShare?: number;
    },
  ): Promise<CompactionRecord | null> {
    const tokensBefore = this.estimate(contextMessages(convo.summary, convo.messages));
    // Window unknown (a manual /compact): keep 30 % of what there is now.
    const w = this.window ?? Math.max(8192, tokensBefore);
    const keep = Math.floor(w * (opts.keepShare ?? KEEP_RECENT));
    this.#noteRequest(convo.messages);
    const cut = chooseCut(convo.messages, keep, this.#ratio);
    if (cut === null) return null;
    const older = convo.messages.slice(0, cut);
    const recent = convo.messages.slice(cut);
    // The summariser's own request must fit: half the window for the transcript.
    const maxChars = Math.floor(w * 0.5 * this.#ratio);
    const transcript = renderForSummary(convo.summary, older, maxChars);
    let modelSummary = "";
    let fallback: string | null = null;
    let cost = { inputTokens: 0, outputTokens: 0 };
    try {
      const turn = await this.#deps.provider.complete({
        system: COMPACT_SYSTEM,
        messages: [{ role: "user", content: summaryRequest(transcript, opts.focus) }],
        tools: [],
        signal: opts.signal,
      });
      cost = turn.usage;
      this.#deps.meter.add(turn.model, turn.usage, turn.usage.inputTokens, true);
      modelSummary = turn.text.trim();
      if (!modelSummary) fallback = "the model returned an empty summary";
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      fallback = `the model could not summarise: ${describeError(e).split("\n")[0]}`;
    }
    const summary = this.#summaryText(
      modelSummary,
      older,
      recent,
      fallback,
      transcript,
      convo.summary,
    );
    convo.summary = summary;
    convo.messages = recent;
    const tokensAfter = this.estimate(contextMessages(summary, recent));
    this.#deps.meter.setContext(tokensAfter);
    const rec: CompactionRecord = {
      type: "compaction",
      reason: opts.reason,
      focus: opts.focus ?? null,
      summaryDigest: sha256Hex(summary),
      summaryChars: summary.length,
      compactedMessages: older.length,
      keptMessages: recent.length,
      tokensBefore,
      tokensAfter,
      cost,
      fallback,
    };
    this.#deps.onCompaction?.(rec, summary);
    return rec;
  }

  #noteRequest(messages: ChatMessage[]): void {
    const last = [...messages].reverse().find((m) => m.role === "user");
    if (last) this.#request = last.content;
  }

  /** Starts over (after `/clear`): no request is being worked on. */
  #forget(): void {
    this.#request = null;
  }

  #summaryText(
    model: string,
    older: ChatMessage[],
    recent: ChatMessage[],
    fallback: string | null,
    transcript: string,
    previous: string | null,
  ): string {
    const parts: string[] = [];
    if (model) parts.push(model);
    else {
      // No summary from the model: keep a clipped transcript so the work can go on.
      parts.push(
        `(${fallback}; retie kept a shortened transcript instead)\n${
          transcript.slice(-Math.min(transcript.length, 6000))
        }`,
      );
    }
    // The request being worked on, verbatim, when no recent message carries it.
    if (this.#request !== null && !recent.some((m) => m.role === "user")) {
      parts.push(`Request being worked on (verbatim):\n${this.#request.slice(0, 4000)}`);
    }
    const facts = this.#deps.facts?.().trim();
    if (facts) parts.push(facts);
    // Refs of this compacted part and of every earlier one (the previous summary lists them).
    const refs = [
      ...new Set([
        ...refsIn(previous ? [{ role: "user", content: previous }] : []),
        ...refsIn(older),
      ]),
    ];
    if (refs.length) {
      parts.push(
        `Stored results still recallable with recall(ref, offset, length): ${
          refs.slice(-60).join(", ")
        }`,
      );
    }
    return parts.join("\n\n");
  }
}
