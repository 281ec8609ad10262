/**
 * Sets up and runs one agent session: keys and delegation, the ledger session (genesis), the
 * stores for undo, the policy, the guard, the tools, the prompts — then turns.
 *
 * @module
 */
import { BlobStore } from "../core/blob_store.ts";
import { configDir, storePaths } from "../core/dirs.ts";
import { errorMessage } from "../core/errors.ts";
import type { AnyTool, ToolContext } from "../core/tool.ts";
import {
  eventPayload,
  findingPayload,
  generateKeyPair,
  issueDelegation,
  loadOrCreateUserKey,
  openLedger,
  readIntent,
} from "../ledger/mod.ts";
import { loadEffectivePolicy } from "../plane/policy.ts";
import { createGuard } from "../plane/guard.ts";
import { undoAction, undoAll, type UndoReport } from "../plane/undo.ts";
import { DirSnapshotStore, OverlayStaging } from "../snapshot/mod.ts";
import { probeOverlay } from "../sandbox/overlay_run.ts";
import { recoverStages } from "../plane/staged.ts";
import { loadRetention, pruneUndoData, retentionSchema } from "../plane/retention.ts";
import { builtinTools, toolDefinitions } from "../tools/registry.ts";
import { FENCE_SYSTEM_PROMPT } from "../net/fence.ts";
import type { ToolCall } from "../providers/types.ts";
import { VERSION } from "../version.ts";
import { dispatch, type DispatchResult } from "./dispatch.ts";
import { EventHub, fromCallbacks } from "./events.ts";
import { Conversation, runTurn } from "./loop.ts";
import { type SessionContext, sessionContext } from "./session_context.ts";
import { buildPrompts } from "./prompts.ts";
import { ResultStore } from "./result_store.ts";
import { describeGitRevert } from "../tools/bash.ts";
import { revertGitControl } from "../sandbox/git_guard.ts";
import { extensionTools } from "./extensions.ts";
import { runSubAgent } from "./subagent.ts";
export type { AgentSession, SessionOptions } from "./session_types.ts";
import type { AgentSession, SessionOptions } from "./session_types.ts";
export { ANSWER_CHARS, protectedPaths, resolveWorkspace, sandboxLabel } from "./session_support.ts";
import {
  protectedPaths,
  recordAnswers,
  refuseInvalidLedger,
  sandboxLabel,
} from "./session_support.ts";

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
  const guarded = protectedPaths(opts.ledgerPath, cfg, opts.workspace);
  const policy = loadEffectivePolicy(opts.workspace);
  const extra = [
    ...(opts.extraTools ?? []),
    ...extensionTools(opts.mcp, opts.agents, policy, opts.workspace),
  ];
  for (const t of [...builtinTools(), ...extra]) tools.set(t.name, t);
  const prompts = buildPrompts(opts.workspace, FENCE_SYSTEM_PROMPT, {
    protectedPaths: guarded,
    configDir: cfg,
    dir: opts.workdir,
  });
  const now = new Date();
  const delegation = issueDelegation(userKey, agentKey.publicKey, {
    workspace: opts.workspace,
    classes: ["none", "reversible", "irreversible", "unknown"],
    tools: ["*"],
    notBefore: new Date(now.getTime() - 60_000),
    expires: new Date(now.getTime() + (opts.delegationHours ?? 12) * 3600_000),
    // A resumed session's delegation names the one it continues (signed by the user key).
    ...(opts.resume?.fromDelegation ? { continues: opts.resume.fromDelegation } : {}),
  });
  refuseInvalidLedger(opts.ledgerPath, userKey);
  const ledger = openLedger(opts.ledgerPath);
  const writer = ledger.startSession({
    genesis: {
      objective: opts.objective,
      provider: opts.providerName,
      model: opts.provider.model,
      policy: policy.identity,
      systemPromptDigest: prompts.systemDigest,
      instructionsDigest: prompts.instructionsDigest,
      inputs: [
        ...prompts.inputs.map((i) => ({ kind: `instructions:${i.scope}`, ...i })),
        ...(policy.inputs ?? []),
      ],
      sandbox: sandboxLabel(opts.sandbox),
      version: VERSION,
      workspace: opts.workspace,
      mode: opts.mode,
      headless: opts.headless,
      ...(opts.mcp ? { mcp: opts.mcp.summary } : {}),
    },
    userKey,
    agentKey,
    delegation,
    sessionId: opts.sessionId,
  });
  for (const f of opts.mcp?.failures ?? []) {
    writer.append("event", {
      type: "mcp-server",
      server: f.server,
      status: "failed",
      message: f.message,
    });
  }
  const stores = storePaths(opts.ledgerPath);
  const blobs = new BlobStore(stores.blobs);
  // Watched: a capture before a command looks only at what changed since the last one.
  // Capped by the retention setting undoMaxMiB: contents past it are not kept (and said so).
  let undoMaxMiB = 0;
  try {
    undoMaxMiB = loadRetention(cfg).undoMaxMiB;
  } catch (e) {
    undoMaxMiB = retentionSchema.parse({}).undoMaxMiB;
    opts.events?.onNotice?.(`${errorMessage(e)}; the snapshot store is capped at the default`);
  }
  const snapshots = new DirSnapshotStore(stores.snapshots, {
    watch: true,
    maxBytes: undoMaxMiB * 1024 * 1024,
  });
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
      // A staged command's changes reach the workspace after it ran: check git's files then.
      afterStagedApply: (effect, touched) => {
        if (!effect.confinement) return null;
        try {
          const g = revertGitControl(
            opts.workspace,
            effect.confinement.gitIdentity,
            touched ? { changedOnly: touched } : {},
          );
          const note = describeGitRevert(opts.workspace, g);
          return note ? { note, removed: g.removed } : null;
        } catch (e) {
          const why = errorMessage(e);
          return {
            note: `git control files could not be checked after the command: ${why}`,
            removed: [],
          };
        }
      },
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
    // An inverse that is another tool call runs through the guard: gated and recorded.
    callTool: async (name: string, args: Record<string, unknown>) => {
      const o = await guard.run({ name, tool: tools.get(name), args, ctx: ctx(ac.signal) });
      return { ok: o.status === "ok", output: o.result.output };
    },
  });
  const ac = { signal: new AbortController().signal };
  const ctx = (signal: AbortSignal, call?: ToolCall): ToolContext => ({
    workspace: opts.workspace,
    protectedPaths: protectedPaths(opts.ledgerPath, cfg, opts.workspace),
    signal,
    sandbox: opts.sandbox,
    ...(staging ? { commandsStaged: () => staging.probe().then((r) => r.ok) } : {}),
    headless: opts.headless,
    sessionId: writer.sessionId,
    onOutput: call
      ? (stream, text) => hub.emit({ type: "tool_output", call, stream, text })
      : undefined,
    services: {
      ask: async (q) => {
        const answer = opts.headless || !opts.ask ? null : await opts.ask(q);
        writer.append("event", eventPayload("ask", { question: q, answer }));
        return answer;
      },
      recall: (ref, offset, length) => Promise.resolve(results.recall(ref, offset, length)),
      subagent: opts.agents ? (agent, prompt, sig) => subagent(agent, prompt, sig) : undefined,
    },
  });
  const subagent = async (agent: string, prompt: string, sig: AbortSignal) => {
    const r = await runSubAgent(
      {
        ledger,
        userKey,
        agentKey,
        delegation,
        sessionId: writer.sessionId,
        policy,
        blobs,
        snapshots: opts.sandbox.available ? snapshots : null,
        tools,
        results,
        provider: opts.provider,
        providerFor: opts.providerFor,
        providerName: opts.providerName,
        system: prompts.system,
        sandboxLabel: sandboxLabel(opts.sandbox),
        mode,
        ctx: (signal) => ctx(signal),
        untrustedInput: () => untrusted,
        markUntrusted: () => {
          untrusted = true;
        },
      },
      agent,
      opts.agents![agent],
      prompt,
      sig,
    );
    // Its tokens are the caller's too (usage, budget); its context is its own.
    context.meter.addOutside(`${r.model} (sub-agent ${agent})`, r.usage, r.steps);
    return {
      ok: r.ok,
      text: r.text,
      detail: { subSession: r.session, agent, steps: r.steps, actions: r.actions, usage: r.usage },
    };
  };
  /**
   * Plan mode lets a command run only in the sandbox, and then rolls back whatever it changed
   * (the snapshot taken before it): the command and the roll-back are both recorded, and the
   * model and the person are told what was rolled back.
   */
  const planRollback = async (r: DispatchResult): Promise<DispatchResult> => {
    const out = r.outcome;
    if (mode !== "plan" || !out?.actionId || !out.effect?.sandboxed) return r;
    // A command that only reads ran with the workspace read-only: there is nothing to roll back.
    if (out.effect.class === "none") {
      const note = "plan mode: the command changed nothing (it ran with the workspace read-only)";
      return {
        ...r,
        content: `${r.content}\n${note}`,
        outcome: { ...out, result: { ...out.result, output: `${out.result.output}\n${note}` } },
      };
    }
    const rep = await undoAction(out.actionId, undoDeps(false));
    const note = rep.status === "skipped" && /changed nothing/.test(rep.reason)
      ? "plan mode: the command changed nothing"
      : rep.status !== "undone"
      ? `plan mode: rolling the command back failed (${rep.reason}); /undo ${out.actionId} may help`
      : rep.restored.length > 0
      ? `plan mode: the command changed ${rep.restored.join(", ")}; retie rolled that back`
      : "plan mode: the command changed nothing";
    const output = `${out.result.output}\n${note}`;
    return {
      ...r,
      content: `${r.content}\n${note}`,
      outcome: { ...out, result: { ...out.result, output } },
    };
  };
  const conversation = new Conversation();
  let provider = opts.provider;
  const hub = new EventHub();
  if (opts.events) hub.subscribe(fromCallbacks(opts.events));
  hub.subscribe(recordAnswers(writer, () => provider.model));
  const definitions = toolDefinitions([...tools.values()]);
  const parts = [...(opts.resume?.parts ?? []), writer.sessionId];
  const context: SessionContext = sessionContext({
    opts,
    ledger,
    writer,
    conversation,
    parts,
    system: prompts.system,
    toolsChars: JSON.stringify(definitions).length,
    notice: (message) => hub.emit({ type: "notice", message }),
  });

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
    mcp: opts.mcp,
    conversation,
    blobs,
    snapshots,
    get untrusted() {
      return untrusted;
    },
    model: () => provider.model,
    async runOwn(name, args, signal = ac.signal) {
      const outcome = await guard.run({ name, tool: tools.get(name), args, ctx: ctx(signal) });
      writer.append("event", {
        type: "user-action",
        tool: name,
        args,
        actionId: outcome.actionId,
        status: outcome.status,
      });
      return outcome;
    },
    setProvider(next) {
      writer.append("event", {
        type: "model",
        event: "switch",
        from: provider.model,
        to: next.model,
        by: "user",
      });
      provider = next;
    },
    subscribe: (listener) => hub.subscribe(listener),
    setMode(next) {
      mode = next;
      guard = makeGuard();
      writer.append("event", eventPayload("mode", { mode: next }));
    },
    parts,
    usage: () => context.meter.report(),
    compact: (focus) => context.compact(focus),
    clear: () => context.clear(),
    setContextWindow: (tokens) => context.setWindow(tokens),
    undo(actionId, force = false) {
      let target = actionId;
      if (!target) {
        // Every part of a resumed session: the newest reversible action not undone yet.
        const undone = new Set(ledger.entries({ kinds: ["undo"] }).map((e) => e.actionId));
        const intents = parts.flatMap((p) => ledger.entries({ session: p, kinds: ["intent"] }))
          .filter((e) =>
            !undone.has(e.actionId) && (() => {
              const r = readIntent(e.payload);
              return r.ok && r.value.class === "reversible";
            })()
          );
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
    async undoAll(force = false) {
      // Newest part first, each part newest action first.
      const reports: UndoReport[] = [];
      for (const p of [...parts].reverse()) reports.push(...await undoAll(p, undoDeps(force)));
      return reports;
    },
    async turn(text: string, signal: AbortSignal = ac.signal) {
      writer.append("event", eventPayload("turn", { text }));
      const summary = await runTurn(conversation, text, {
        provider,
        system: prompts.system,
        tools: definitions,
        budgets: opts.budgets,
        emit: (e) => hub.emit(e),
        signal,
        context: context.loop,
        dispatch: async (call) =>
          planRollback(
            await dispatch(call, {
              guard: guard,
              tools,
              ctx: ctx(signal, call),
              sink: writer,
              results,
              onUntrusted: (detail) => {
                untrusted = true;
                writer.append(
                  "finding",
                  findingPayload(
                    "untrusted-input",
                    `read untrusted input: ${String(detail.url ?? "web page")}`,
                    {
                      url: detail.url ?? null,
                      findings: Array.isArray(detail.findings) ? detail.findings : [],
                    },
                  ),
                );
              },
            }),
          ),
      });
      // A turn that did not finish (provider error, budget, loop, cancel) is part of the record:
      // what the person was told is in the ledger, not only on their screen.
      if (summary.status !== "done") {
        writer.append(
          "event",
          eventPayload("turn-end", {
            status: summary.status,
            message: `${summary.status}: ${summary.text.split("\n")[0]}`,
            text: summary.text,
            steps: summary.steps,
            actions: summary.actions,
          }),
        );
      }
      context.saveConversation();
      return summary;
    },
    close() {
      try {
        // Retention: undo data of old sessions, and above the cap, is pruned (and recorded).
        const keep = loadRetention(cfg);
        if (keep.autoPrune) pruneUndoData({ ledger, blobs, sink: writer, staging }, keep);
      } catch (e) {
        opts.events?.onNotice?.(`undo data retention: ${errorMessage(e)}`);
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
