/**
 * The contract of a session: how to start one ({@link SessionOptions}) and what a running one
 * offers ({@link AgentSession}).
 *
 * @module
 */
import type { BlobStore } from "../core/blob_store.ts";
import type { AnyTool, SandboxSettings } from "../core/tool.ts";
import type { Ledger, SessionWriter } from "../ledger/mod.ts";
import type { CompiledPolicy } from "../plane/policy.ts";
import type { Approver, Guard, GuardOutcome } from "../plane/guard.ts";
import type { UndoReport } from "../plane/undo.ts";
import type { DirSnapshotStore } from "../snapshot/mod.ts";
import type { Provider } from "../providers/types.ts";
import type { McpHost } from "../mcp/mod.ts";
import type { AgentEvents, AgentListener } from "./events.ts";
import type { Budgets, Conversation, TurnSummary } from "./loop.ts";
import type { SessionBudget } from "./budget.ts";
import type { CompactionRecord } from "./compaction.ts";
import type { StoredConversation } from "./conversation_store.ts";
import type { UsageReport } from "./usage_meter.ts";
import type { Prompts } from "./prompts.ts";
import type { AgentTypes } from "./agent_types.ts";

/** How to start a session. */
export interface SessionOptions {
  /** Absolute real path of the workspace. */
  workspace: string;
  /** The directory being worked on (its instruction file is read too, when below the root). */
  workdir?: string;
  ledgerPath: string;
  /** The objective in the user's words (the first message, or what `-p` gave). */
  objective: string;
  provider: Provider;
  /** Provider name for the record (`ollama`, `anthropic`, `openai`, `scripted`). */
  providerName: string;
  mode: "default" | "plan";
  headless: boolean;
  yes: boolean;
  sandbox: SandboxSettings;
  approve: Approver;
  /** Asks the person a free-form question (the `ask` tool); null when headless. */
  ask?: (question: string) => Promise<string | null>;
  budgets?: Budgets;
  /** Callbacks subscribed from the start (the same as `subscribe(fromCallbacks(events))`). */
  events?: AgentEvents;
  /** Config dir holding the user key (default `$XDG_CONFIG_HOME/retie`). */
  configDir?: string;
  /** Extra tools (e.g. a test's unclassified tool); they still go through the guard. */
  extraTools?: AnyTool[];
  /** How long the delegation lasts (default 12 h). */
  delegationHours?: number;
  /** Session id to use (so a model ladder can account usage before genesis is written). */
  sessionId?: string;
  /** MCP servers already started for this session (their tools are offered; the caller stops
   * them when the session ends). */
  mcp?: McpHost;
  /** Agent types from the user's config: with any, the session offers the `task` tool. */
  agents?: AgentTypes;
  /** A provider for another model of the same service (an agent type's `model`). */
  providerFor?: (model: string) => Provider;
  /** Run sandboxed commands on a copy-on-write view when possible (default true); false: always
   * the snapshot store. */
  staging?: boolean;
  /** Large-result handling: results longer than `threshold` characters become a preview of
   * `previewChars` plus a ref (defaults in preview.ts; tuned by bench/preview_bench.ts). */
  previews?: { threshold?: number; previewChars?: number };
  /** The model's context window in tokens (null or absent: unknown, no automatic compaction). */
  contextWindow?: number | null;
  /** The session budget the person chose (off when absent). */
  budget?: SessionBudget;
  /** Ollama quota units this session used so far (a budget in units needs it). */
  unitsUsed?: () => number | null;
  /** Continues an earlier session: its parts (oldest first) and its stored conversation. */
  resume?: { parts: string[]; conversation: StoredConversation; fromDelegation?: string | null };
}

/** A running session. */
export interface AgentSession {
  readonly id: string;
  readonly ledger: Ledger;
  readonly writer: SessionWriter;
  readonly guard: Guard;
  readonly policy: CompiledPolicy;
  readonly prompts: Prompts;
  readonly tools: ReadonlyMap<string, AnyTool>;
  /** The session's MCP servers, if any were configured. */
  readonly mcp: McpHost | undefined;
  readonly conversation: Conversation;
  readonly blobs: BlobStore;
  readonly snapshots: DirSnapshotStore;
  /** The session has read untrusted input (a web page). */
  readonly untrusted: boolean;
  /** Hears the loop's events (text, reasoning, actions, notices, turn ends); returns the
   * function that stops listening. */
  subscribe(listener: AgentListener): () => void;
  /** Runs one user turn. */
  turn(text: string, signal?: AbortSignal): Promise<TurnSummary>;
  /** The model in use now (the ladder may have moved). */
  model(): string;
  /** Runs a tool call the person asked for themselves (`!cmd`, `@path`) through the guard, like
   * any call, and records it as theirs; no model turn. */
  runOwn(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<GuardOutcome>;
  /** Switches to another provider (another model) for the next turns; recorded. */
  setProvider(provider: Provider): void;
  /** Switches between default and plan (read-only) mode; recorded. */
  setMode(mode: "default" | "plan"): void;
  /** Undoes one action of this session (default: the newest that was not undone). */
  undo(actionId: string | null, force?: boolean): Promise<UndoReport>;
  /** Undoes everything this session's delegation authorised, newest first. */
  undoAll(force?: boolean): Promise<UndoReport[]>;
  /** The ledger sessions this one continues (oldest first), then this one. */
  readonly parts: string[];
  /** Tokens used, per model, and the context used of the window. */
  usage(): UsageReport;
  /** Summarises the older turns now (`/compact [focus]`); null when there was nothing to. */
  compact(focus?: string): Promise<CompactionRecord | null>;
  /** Starts a fresh conversation in the same session (`/clear`); recorded. */
  clear(): void;
  /** The window of the model now in use (the ladder moved to another model); the next request
   * waits for a lookup still under way. */
  setContextWindow(tokens: number | null | Promise<number | null>): void;
  /** Final checkpoint; closes the stores. */
  close(): void;
}
