/**
 * Sets up and runs one agent session: keys and delegation, the ledger session (genesis), the
 * stores for undo, the policy, the guard, the tools, the prompts — then turns.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { BlobStore } from "../core/blob_store.ts";
import { configDir, ledgerFiles, storePaths } from "../core/dirs.ts";
import { RetieError } from "../core/errors.ts";
import type { AnyTool, SandboxSettings, ToolContext } from "../core/tool.ts";
import {
  generateKeyPair,
  issueDelegation,
  type Ledger,
  loadOrCreateUserKey,
  openLedger,
  type SessionWriter,
} from "../ledger/mod.ts";
import { loadEffectivePolicy } from "../plane/policy.ts";
import type { CompiledPolicy } from "../plane/policy.ts";
import { type Approver, createGuard, type Guard } from "../plane/guard.ts";
import { undoAction, undoAll, type UndoReport } from "../plane/undo.ts";
import { DirSnapshotStore, OverlayStaging } from "../snapshot/mod.ts";
import { probeOverlay } from "../sandbox/overlay_run.ts";
import { recoverStages } from "../plane/staged.ts";
import { loadRetention, pruneUndoData } from "../plane/retention.ts";
import { builtinTools, toolDefinitions } from "../tools/registry.ts";
import { FENCE_SYSTEM_PROMPT } from "../net/fence.ts";
import type { Provider } from "../providers/types.ts";
import { VERSION } from "../version.ts";
import { dispatch } from "./dispatch.ts";
import { type AgentEvents, type Budgets, Conversation, runTurn, type TurnSummary } from "./loop.ts";
import { buildPrompts, type Prompts } from "./prompts.ts";
import { ResultStore } from "./result_store.ts";

/** How to start a session. */
export interface SessionOptions {
  /** Absolute real path of the workspace. */
  workspace: string;
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
  events?: AgentEvents;
  /** Config dir holding the user key (default `$XDG_CONFIG_HOME/retie`). */
  configDir?: string;
  /** Extra tools (e.g. a test's unclassified tool); they still go through the guard. */
  extraTools?: AnyTool[];
  /** How long the delegation lasts (default 12 h). */
  delegationHours?: number;
  /** Session id to use (so a model ladder can account usage before genesis is written). */
  sessionId?: string;
  /** Run sandboxed commands on a copy-on-write view when possible (default true); false: always
   * the snapshot store. */
  staging?: boolean;
  /** Large-result handling: results longer than `threshold` characters become a preview of
   * `previewChars` plus a ref (defaults in preview.ts; tuned by bench/preview_bench.ts). */
  previews?: { threshold?: number; previewChars?: number };
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
  readonly conversation: Conversation;
  readonly blobs: BlobStore;
  readonly snapshots: DirSnapshotStore;
  /** The session has read untrusted input (a web page). */
  readonly untrusted: boolean;
  /** Runs one user turn. */
  turn(text: string, signal?: AbortSignal): Promise<TurnSummary>;
  /** The model in use now (the ladder may have moved). */
  model(): string;
  /** Switches between default and plan (read-only) mode; recorded. */
  setMode(mode: "default" | "plan"): void;
  /** Undoes one action of this session (default: the newest that was not undone). */
  undo(actionId: string | null, force?: boolean): Promise<UndoReport>;
  /** Undoes everything this session's delegation authorised, newest first. */
  undoAll(force?: boolean): Promise<UndoReport[]>;
  /** Final checkpoint; closes the stores. */
  close(): void;
}

/**
 * Paths no tool and no sandboxed command may reach: the ledger and its side files, the undo
 * stores, the config dir (user key) and the workspace's `.retie/` (its project policy: an agent
 * that could write it would loosen the gate of its own next session).
 */
export function protectedPaths(ledgerPath: string, cfgDir: string, workspace?: string): string[] {
  return [
    ...ledgerFiles(ledgerPath),
    resolve(cfgDir),
    ...(workspace ? [join(workspace, ".retie")] : []),
  ];
}

/** A short description of the sandbox for the record. */
export function sandboxLabel(s: SandboxSettings): string {
  if (!s.available) return `none: ${s.unavailableReason ?? "unavailable"}`;
  return s.network ? "bwrap (network)" : "bwrap (no network)";
}

/**
 * Starts a session: writes genesis (objective, provider, model, policy@digest, prompt digests,
 * sandbox, version, user key, delegation) before anything else can happen.
 *
 * @example
 * ```ts ignore
 * const s = await startSession({ workspace, ledgerPath, objective, provider, ... });
 * await s.turn(objective);
 * s.close();
 * ```
 */
export function startSession(opts: SessionOptions): Promise<AgentSession> {
  try {
    return Promise.resolve(startSessionSync(opts));
  } catch (e) {
    return Promise.reject(e);
  }
}

function startSessionSync(opts: SessionOptions): AgentSession {
  const cfg = opts.configDir ?? configDir();
  const userKey = loadOrCreateUserKey(cfg);
  const agentKey = generateKeyPair();
  const tools = new Map<string, AnyTool>();
  for (const t of [...builtinTools(), ...(opts.extraTools ?? [])]) tools.set(t.name, t);
  const policy = loadEffectivePolicy(opts.workspace);
  const prompts = buildPrompts(opts.workspace, FENCE_SYSTEM_PROMPT);
  const now = new Date();
  const delegation = issueDelegation(userKey, agentKey.publicKey, {
    workspace: opts.workspace,
    classes: ["none", "reversible", "irreversible", "unknown"],
    tools: ["*"],
    notBefore: new Date(now.getTime() - 60_000),
    expires: new Date(now.getTime() + (opts.delegationHours ?? 12) * 3600_000),
  });
  const ledger = openLedger(opts.ledgerPath);
  const writer = ledger.startSession({
    genesis: {
      objective: opts.objective,
      provider: opts.providerName,
      model: opts.provider.model,
      policy: policy.identity,
      systemPromptDigest: prompts.systemDigest,
      instructionsDigest: prompts.instructionsDigest,
      sandbox: sandboxLabel(opts.sandbox),
      version: VERSION,
      workspace: opts.workspace,
      mode: opts.mode,
      headless: opts.headless,
    },
    userKey,
    agentKey,
    delegation,
    sessionId: opts.sessionId,
  });
  const stores = storePaths(opts.ledgerPath);
  const blobs = new BlobStore(stores.blobs);
  // Watched: a capture before a command looks only at what changed since the last one.
  const snapshots = new DirSnapshotStore(stores.snapshots, { watch: true });
  // Staged commands on a copy-on-write view, when the overlay works here (probed in the
  // background; until it answers, the first command waits for it, not the start-up).
  const staging = opts.sandbox.available && opts.staging !== false
    ? new OverlayStaging(stores.staging, () => probeOverlay(stores.staging, opts.workspace))
    : null;
  if (staging) {
    // Applies a crash cut short are completed or rolled back before anything else runs.
    const left = staging.pending().length;
    if (left > 0) {
      opts.events?.onNotice?.(`finishing ${left} command(s) a crash interrupted (see the ledger)…`);
    }
    for (const r of recoverStages({ staging, blobs, sink: writer, ledger })) {
      opts.events?.onNotice?.(`interrupted command ${r.action}: ${r.outcome}`);
    }
    void staging.emptyTrash();
    void staging.probe().then((r) => {
      try {
        writer.append("event", {
          type: "undo-mode",
          mode: r.ok ? "overlay" : "snapshots",
          message: r.ok
            ? "sandboxed commands run on a copy-on-write view; undo records what they change"
            : `sandboxed commands fall back to whole-workspace snapshots: ${r.why}`,
        });
        if (!r.ok) opts.events?.onNotice?.(`undo falls back to snapshots: ${r.why}`);
      } catch { /* the session closed first */ }
    });
  }
  const results = new ResultStore(blobs, opts.previews);
  let untrusted = false;

  let mode = opts.mode;
  const makeGuard = () =>
    createGuard({
      sink: writer,
      policy,
      blobs,
      snapshots: opts.sandbox.available ? snapshots : null,
      staging,
      approve: opts.approve,
      mode,
      headless: opts.headless,
      yes: opts.yes,
      untrustedInput: () => untrusted,
    });
  let guard = makeGuard();
  const undoDeps = (force: boolean) => ({
    ledger,
    sink: writer,
    blobs,
    snapshots,
    staging: staging ?? new OverlayStaging(stores.staging, () => Promise.resolve({ ok: false })),
    force,
  });
  const ac = { signal: new AbortController().signal };
  const ctx = (signal: AbortSignal): ToolContext => ({
    workspace: opts.workspace,
    protectedPaths: protectedPaths(opts.ledgerPath, cfg, opts.workspace),
    signal,
    sandbox: opts.sandbox,
    headless: opts.headless,
    sessionId: writer.sessionId,
    services: {
      ask: async (q) => {
        const answer = opts.headless || !opts.ask ? null : await opts.ask(q);
        writer.append("event", { type: "ask", question: q, answer });
        return answer;
      },
      recall: (ref, offset, length) => Promise.resolve(results.recall(ref, offset, length)),
    },
  });
  const conversation = new Conversation();
  const definitions = toolDefinitions([...tools.values()]);

  return {
    id: writer.sessionId,
    ledger,
    writer,
    get guard() {
      return guard;
    },
    policy,
    prompts,
    tools,
    conversation,
    blobs,
    snapshots,
    get untrusted() {
      return untrusted;
    },
    model: () => opts.provider.model,
    setMode(next) {
      mode = next;
      guard = makeGuard();
      writer.append("event", { type: "mode", mode: next });
    },
    undo(actionId, force = false) {
      let target = actionId;
      if (!target) {
        const undone = new Set(
          ledger.entries({ session: writer.sessionId, kinds: ["undo"] }).map((e) => e.actionId),
        );
        const intents = ledger.entries({ session: writer.sessionId, kinds: ["intent"] })
          .filter((e) => !undone.has(e.actionId) && e.payload.class === "reversible");
        target = intents.at(-1)?.actionId ?? null;
      }
      if (!target) {
        return Promise.resolve({
          target: "-",
          status: "skipped",
          reason: "no reversible action of this session is left to undo",
          restored: [],
          differs: [],
          summary: null,
          recordedSeq: null,
        });
      }
      return undoAction(target, undoDeps(force));
    },
    undoAll(force = false) {
      return undoAll(writer.sessionId, undoDeps(force));
    },
    async turn(text: string, signal: AbortSignal = ac.signal) {
      writer.append("event", { type: "turn", text });
      const summary = await runTurn(conversation, text, {
        provider: opts.provider,
        system: prompts.system,
        tools: definitions,
        budgets: opts.budgets,
        events: opts.events,
        signal,
        dispatch: (call) =>
          dispatch(call, {
            guard: guard,
            tools,
            ctx: ctx(signal),
            sink: writer,
            results,
            onUntrusted: (detail) => {
              untrusted = true;
              writer.append("finding", {
                type: "untrusted-input",
                message: `read untrusted input: ${String(detail.url ?? "web page")}`,
                url: detail.url ?? null,
                findings: Array.isArray(detail.findings) ? detail.findings : [],
              });
            },
          }),
      });
      // A turn that did not finish (provider error, budget, loop, cancel) is part of the record:
      // what the person was told is in the ledger, not only on their screen.
      if (summary.status !== "done") {
        writer.append("event", {
          type: "turn-end",
          status: summary.status,
          message: `${summary.status}: ${summary.text.split("\n")[0]}`,
          text: summary.text,
          steps: summary.steps,
          actions: summary.actions,
        });
      }
      return summary;
    },
    close() {
      try {
        // Retention: undo data of old sessions, and above the cap, is pruned (and recorded).
        const keep = loadRetention(cfg);
        if (keep.autoPrune) pruneUndoData({ ledger, blobs, sink: writer, staging }, keep);
      } catch (e) {
        opts.events?.onNotice?.(`undo data retention: ${(e as Error).message}`);
      }
      try {
        writer.close();
      } finally {
        blobs.close();
        snapshots.close?.();
        ledger.close();
      }
    },
  };
}

/** Resolves a workspace argument to an absolute real path, with a clear error. */
export function resolveWorkspace(dir: string): string {
  try {
    const real = Deno.realPathSync(dir);
    if (!Deno.statSync(real).isDirectory) throw new Error("not a directory");
    return real;
  } catch (e) {
    throw new RetieError(`cannot use ${dir} as the workspace: ${(e as Error).message}`, {
      hint: "pass an existing project directory: retie run ./my-project",
      exitCode: 2,
    });
  }
}
