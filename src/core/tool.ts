/**
 * The tool contract shared by tools, the plane and the agent.
 *
 * Providers see only {@link ToolDefinition} (name, description, JSON Schema). A {@link Tool} adds
 * the zod schema, `classify` and the handler; only the plane's guard ever calls the handler.
 *
 * @module
 */
import type { z } from "zod";
import type { Effect } from "./effect.ts";

/** What a provider sees of a tool: enough to describe it on the wire, nothing that runs. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema (draft 2020-12 subset) of the arguments object. */
  parameters: Record<string, unknown>;
}

/** A proposed change to one file: used by the inspector and to show diffs. */
export interface FileChange {
  /** Absolute real path. */
  path: string;
  /** Content before, or null when the file does not exist. */
  before: string | null;
  /** Content after, or null when the call deletes the file. */
  after: string | null;
}

/** What a handler returns. `output` goes back to the model. */
export interface ToolResult {
  ok: boolean;
  output: string;
  /** Structured detail for the record and the terminal (exit code, counts, …). */
  detail?: Record<string, unknown>;
}

/** Whether shell commands can be confined, decided once at start-up. */
export interface SandboxSettings {
  /** bubblewrap works here (binary present, user namespaces allowed). */
  available: boolean;
  /** When unavailable: why, in words the user can act on. */
  unavailableReason?: string;
  /** The sandbox shares the host network (`--network`). */
  network: boolean;
}

/** Services a tool may need, injected so the tools stay testable. */
export interface ToolServices {
  /** Asks the person at the terminal; resolves null when nobody can answer (headless). */
  ask?: (question: string) => Promise<string | null>;
  /** Returns bytes of a stored large result. */
  recall?: (ref: string, offset: number, length: number) => Promise<string>;
  /** Runs a sub-agent of the named type on a task (the `task` tool); absent inside sub-agents. */
  subagent?: (agent: string, prompt: string, signal: AbortSignal) => Promise<{
    ok: boolean;
    text: string;
    detail: Record<string, unknown>;
  }>;
}

/** Everything a tool needs to know about where it runs. */
export interface ToolContext {
  /** Absolute real path of the workspace. */
  workspace: string;
  /** Absolute real paths no tool may read or write (ledger, blob and snapshot stores, config). */
  protectedPaths: string[];
  /** Cancels the call (Ctrl-C): sandboxed processes are killed. */
  signal: AbortSignal;
  sandbox: SandboxSettings;
  headless: boolean;
  sessionId: string;
  services: ToolServices;
  /** Output the tool prints while it runs (a command's stdout and stderr), for a live view;
   * what the model gets back is the result, not this. */
  onOutput?: (stream: "stdout" | "stderr", text: string) => void;
  /**
   * Set by the guard for a staged sandboxed command: the stage directory whose overlay layers
   * the command runs on (`src/core/staging.ts`); the workspace itself is then not written.
   */
  stageDir?: string;
  /**
   * Resolves whether sandboxed commands of this session run staged (on a copy-on-write view).
   * Absent: they do not (the snapshot fallback), so a command's hard links are pinned read-only.
   */
  commandsStaged?: () => Promise<boolean>;
}

/** A tool: definition, schema, classification and handler. */
export interface Tool<A = Record<string, unknown>> {
  name: string;
  description: string;
  /** Validates (and strips undeclared keys from) the model's arguments. */
  schema: z.ZodType<A>;
  /** The JSON Schema providers see, when it comes from elsewhere (an MCP server's `inputSchema`);
   * otherwise it is derived from `schema`. */
  parameters?: Record<string, unknown>;
  /** The consequence of a call, computed from its arguments, before anything runs. */
  classify(args: A, ctx: ToolContext): Promise<Effect>;
  /** The file changes the call would make (writes and edits), for the inspector and diffs. */
  preview?(args: A, ctx: ToolContext): Promise<FileChange[]>;
  /**
   * Runs the call. Only the plane's guard calls this, with the effect it approved: the handler acts
   * on that decision (which outside reads were allowed, how a command is confined) and never
   * re-derives it, so what runs is what was gated and recorded.
   */
  handler(args: A, ctx: ToolContext, approved: Effect): Promise<ToolResult>;
}

/** A tool with its argument type erased, for registries. */
// deno-lint-ignore no-explicit-any
export type AnyTool = Tool<any>;
