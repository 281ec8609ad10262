/**
 * The body of `retie run`: build the provider (the ladder for Ollama), start the session (and its
 * MCP servers), then run headless to completion or hand over to the REPL.
 *
 * @module
 */
import { RetieError } from "../core/errors.ts";
import type { LoadedConfig } from "../config/mod.ts";
import type { SandboxSettings } from "../core/tool.ts";
import { eventPayload, ledgerHead, newSessionId } from "../ledger/mod.ts";
import { checkSandbox } from "../sandbox/check.ts";
import { type AgentSession, resolveWorkspace, startSession } from "../agent/session.ts";
import { rememberingApprover } from "../agent/remembered_approvals.ts";
import type { SessionBudget } from "../agent/budget.ts";
import { formatUsage } from "../agent/usage_meter.ts";
import type { Provider } from "../providers/types.ts";
import { c } from "../ui/color.ts";
import { SessionView } from "../ui/session_view.ts";
import { approvalDialog } from "../ui/approval.ts";
import { summaryLine } from "../ui/session_lists.ts";
import { say, stderrSink, untrusted, warn } from "../ui/term.ts";
import { TerminalInput } from "../ui/terminal_input.ts";
import { INTERACTIVE_OBJECTIVE } from "../ui/replay_model.ts";
import { loadHistory, readRequest, runRepl, saveHistory } from "./repl.ts";
import type { SlashContext } from "./slash.ts";
import { loadExtensionConfig, startSessionServers } from "./extensions_start.ts";
import { buildRunResult, emitJsonLine, type OutputFormat, resumeHint } from "./run_output.ts";
import { chooseResume, type ResumeRequest } from "./run_resume.ts";
import {
  banners,
  describeLadderEvent,
  detectContextWindow,
  env,
  isLocal,
  readStdin,
  stdinIsTerminal,
} from "./run_support.ts";
import { outerLayerNote } from "./outer_note.ts";
import { costText } from "./session_cost.ts";
import { filesChangedCount } from "./session_diff.ts";

/** Everything `retie run` was given. */
export interface RunSessionOptions {
  dir: string;
  headless: boolean;
  prompt?: string;
  provider: "ollama" | "anthropic" | "openai";
  model?: string;
  baseUrl?: string;
  maxSteps: number;
  maxTier?: number;
  mode: "default" | "plan";
  network: boolean;
  /** false (`--snapshots`): undo by workspace snapshots even where a copy-on-write view works. */
  staging?: boolean;
  yes: boolean;
  ledgerPath: string;
  /** Export the session to this OTLP/HTTP collector when it ends (else config.json's `otlp`). */
  otlp?: string;
  /** The model's context window (else asked of Ollama's /api/show, or a known table). */
  contextWindow?: number;
  budget?: SessionBudget;
  /** Headless output (default text). */
  outputFormat?: OutputFormat;
  /** Exit 3 when the run finished but something was refused. */
  failOnRefusal?: boolean;
  /** `--continue` / `--resume [ID]`. */
  resume?: ResumeRequest;
  /** The user's config as `retie run` loaded it (read again when absent). */
  config?: LoadedConfig;
}

/**
 * Runs `retie run` and returns the exit code.
 *
 * @example
 * ```ts ignore
 * const code = await runSessionCli({ dir: ".", headless: true, prompt: "fix add", provider: "ollama", ... });
 * ```
 */
export async function runSessionCli(o: RunSessionOptions): Promise<number> {
  const workspace = resolveWorkspace(o.dir);
  // Read before anything starts, so a bad setting is an error now, not after the work.
  const { readOtlpConfig, exportAtEnd } = await import("./export_sessions.ts");
  const otlp = o.otlp ? { endpoint: o.otlp, headers: {} } : readOtlpConfig(undefined, o.config);
  const format = o.outputFormat ?? "text";
  const json = format !== "text";
  const stream = format === "stream-json";
  const resume = o.resume
    ? await chooseResume(
      o.ledgerPath,
      workspace,
      o.resume,
      o.headless || !stdinIsTerminal() ? undefined : async (choices) => {
        const { select } = await import("@inquirer/prompts");
        return await select({ message: "resume which session?", choices });
      },
    )
    : undefined;
  const check = await checkSandbox();
  const sandbox: SandboxSettings = {
    available: check.available,
    unavailableReason: check.reason,
    network: o.network,
  };
  for (const b of banners({ yes: o.yes, network: o.network, sandbox })) warn(b);

  let objective = o.prompt?.trim() ?? "";
  if (o.headless && !objective) {
    if (stdinIsTerminal()) {
      warn(c.dim("reading the objective from stdin; end it with Ctrl-D"));
    }
    objective = await readStdin();
  }
  if (o.headless && !objective) {
    throw new RetieError("no objective for a headless run", {
      hint: 'pass -p "what to do" or pipe it on stdin',
      exitCode: 2,
    });
  }

  // In the JSON modes stdout carries JSON only: what people read goes to stderr.
  const view = new SessionView({ workspace, ...(json ? { out: stderrSink } : {}) });

  const sessionId = newSessionId();
  const pending: Record<string, unknown>[] = [];
  let record = (e: Record<string, unknown>): void => void pending.push(e);
  let reportFailure: (reason: string) => void = () => {};
  let unitsUsed: () => number | null = () => null;
  /** The ladder moved to another model: its window, once known (set when the session exists). */
  let onModelWindow: (tokens: Promise<number | null>) => void = () => {};
  let apiKeyForShow: string | undefined;
  /** Builds the provider for a model (the ladder for Ollama; `--model` or /model pins one). */
  const makeProvider = async (model: string | undefined): Promise<Provider> => {
    if (o.provider === "ollama") {
      const { openSessionLadder, UsageStore } = await import("../models/mod.ts");
      const apiKey = env("OLLAMA_API_KEY") ?? (o.baseUrl && isLocal(o.baseUrl) ? "ollama" : "");
      apiKeyForShow = apiKey;
      const usage = new UsageStore();
      unitsUsed = () => usage.summary({ session: sessionId }).total.units;
      const ladder = await openSessionLadder({
        baseUrl: o.baseUrl ?? "https://ollama.com/v1",
        apiKey,
        session: sessionId,
        model,
        maxTier: o.maxTier,
        usage,
        onEvent: (e) => {
          record({ ...e, type: "model", event: e.type });
          if (e.type === "escalate" && o.contextWindow === undefined) {
            onModelWindow(
              import("../models/mod.ts").then((m) =>
                m.ollamaContextWindow(o.baseUrl ?? "https://ollama.com/v1", e.to, apiKey)
              ),
            );
          }
          if (e.type !== "start") {
            view.hold();
            warn(c.yellow(untrusted(`model ${e.type}: ${describeLadderEvent(e)}`)));
          }
        },
      });
      reportFailure = (reason) => void ladder.ladder.reportFailure(reason);
      return ladder.provider;
    }
    const { createProvider } = await import("../providers/factory.ts");
    apiKeyForShow = env(o.provider === "openai" ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY");
    return createProvider({ provider: o.provider, model: model ?? "", baseUrl: o.baseUrl, env });
  };
  let provider = await makeProvider(o.model);
  const contextWindow = o.contextWindow ?? await detectContextWindow(o, provider, apiKeyForShow);

  let session: AgentSession | null = null;
  let closed = false;
  /** Closes the session once: the final checkpoint, then the stores. */
  const closeSession = (): void => {
    if (!session || closed) return;
    closed = true;
    session.close();
  };
  const input = o.headless ? null : new TerminalInput({ history: loadHistory() });
  const ctx: SlashContext = {
    session: null,
    view,
    workspace,
    settings: { model: provider.model, mode: o.mode, provider: o.provider },
    print: (t) => say(t),
    switchModel: async (name) => {
      const next = await makeProvider(name);
      if (session) session.setProvider(next);
      provider = next;
      return next.model;
    },
  };

  let mcp: Awaited<ReturnType<typeof startSessionServers>> = undefined;
  try {
    // Interactive without -p: the first request is the objective genesis records, in the user's
    // own words, so it is read before the session starts (by the reader the REPL goes on using);
    // slash commands typed before it work already.
    if (input && !objective) {
      warn(c.dim("what should retie do? (your first request opens the session's record)"));
      while (!objective) {
        const first = await readRequest(input, ctx);
        if (first === null) {
          warn(c.dim("no request; nothing was started or recorded"));
          return 0;
        }
        if (first.startsWith("!")) {
          warn(c.dim("!command runs once the session has started; type a request first"));
          continue;
        }
        objective = first;
      }
    }

    // Extensions from the user's config: MCP servers (started now, in the sandbox) and agent types.
    const ext = loadExtensionConfig(undefined, o.config);
    mcp = await startSessionServers(ext, workspace, o.ledgerPath, sandbox, (l) => warn(l));
    const { createProvider } = await import("../providers/factory.ts");
    session = await startSession({
      mcp,
      agents: ext.agents,
      providerFor: (model) =>
        createProvider({ provider: o.provider, model, baseUrl: o.baseUrl, env }),
      workspace,
      // The directory retie was started in: its own AGENTS.md, when it lies below the workspace.
      workdir: Deno.cwd(),
      ledgerPath: o.ledgerPath,
      objective: objective || INTERACTIVE_OBJECTIVE,
      provider,
      providerName: o.provider,
      mode: ctx.settings.mode,
      headless: o.headless,
      yes: o.yes,
      sandbox,
      staging: o.staging,
      // Interactive: a remembered "don't ask again" (user config, this workspace) answers first.
      approve: input
        ? rememberingApprover({
          workspace,
          record: (e) => {
            record(e);
            const rule = e.rule as { tool?: string; pattern?: string } | undefined;
            if (e.decision === "allow" && rule) {
              view.hold();
              input.say(c.dim(
                `  approved: you said not to ask again for ${untrusted(String(rule.tool))} \`${
                  untrusted(String(rule.pattern))
                }\` in this project`,
              ));
            }
          },
          ask: async (req, remember) => {
            view.hold();
            const answer = await approvalDialog(req, {
              input,
              workspace,
              remember,
              write: (t) => input.say(t),
            });
            // Approved: the snapshot and the run that follow show as running again.
            if (answer.choice !== "no") view.resume();
            return answer;
          },
        })
        : () => Promise.resolve(false),
      ask: input
        ? async (q) => {
          view.hold();
          input.say(`${c.yellow("?")} ${c.bold(untrusted(q))}`);
          const answer = await input.readText("answer › ");
          if (answer === null) input.say(c.dim("  (no answer)"));
          return answer;
        }
        : undefined,
      // No session cap: --max-steps bounds a turn; --budget (off by default) bounds the session.
      budgets: { maxStepsPerTurn: o.maxSteps, maxRepeats: 3 },
      sessionId,
      contextWindow,
      budget: o.budget,
      unitsUsed: () => unitsUsed(),
      resume,
    });
    const s = session;
    ctx.session = s;
    onModelWindow = (n) => s.setContextWindow(n);
    s.subscribe((e) => {
      view.handle(e);
      if (e.type === "failure") reportFailure(e.reason);
      if (!stream) return;
      if (e.type === "text") emitJsonLine({ type: "text", delta: e.delta });
      else if (e.type === "notice") emitJsonLine({ type: "notice", message: e.message });
      else if (e.type === "action") {
        const out = e.result.outcome;
        emitJsonLine({
          type: "action",
          id: out?.actionId ?? null,
          tool: e.result.name,
          status: out?.status ?? "refused",
          class: out?.effect?.class ?? null,
          summary: out?.effect?.summary ?? `call ${e.result.name}`,
        });
      }
    });
    if (resume) {
      warn(c.dim(
        `continuing ${resume.parts.at(-1)} (${resume.conversation.messages.length} messages${
          resume.conversation.summary ? " and a summary" : ""
        }) as ${s.id}`,
      ));
    }
    if (s.policy.sources.length > 1) {
      // Project rules change what the gate does; a person should know before anything runs.
      warn(c.yellow(
        `project policy in force: ${untrusted(s.policy.sources.slice(1).join(", "))} adds rules ` +
          `(effective policy ${s.policy.identity}; review with \`retie policy\`)`,
      ));
    }
    for (const i of s.prompts.inputs) {
      if (i.refused === undefined) continue;
      // A hostile instruction file (a link out of the workspace, a FIFO): not given to the model.
      warn(c.yellow(untrusted(
        `instruction file not used: ${i.refused} (recorded in the session's genesis entry)`,
      )));
    }
    const asEvent = (e: Record<string, unknown>) => eventPayload(String(e.type ?? "event"), e);
    for (const e of pending) s.writer.append("event", asEvent(e));
    record = (e) => void s.writer.append("event", asEvent(e));
    const outer = outerLayerNote();
    if (outer) s.writer.append("event", outer);

    warn(c.dim(
      `${s.id} · ${untrusted(provider.model)} · ${s.policy.identity} · ${
        sandbox.available ? (o.network ? "bwrap (network)" : "bwrap (no network)") : "no sandbox"
      } · context window ${contextWindow ?? "unknown"} · ledger ${o.ledgerPath}`,
    ));
    warn(c.bold(`workspace ${untrusted(workspace)}`));
    if (stream) {
      emitJsonLine({
        type: "start",
        session: s.id,
        parts: s.parts,
        model: provider.model,
        workspace,
        contextWindow: contextWindow ?? null,
      });
    }
    if (!input) {
      const summary = await s.turn(objective);
      if (summary.status !== "done" && !view.shown(summary.text)) {
        warn(c.red(`retie: ${untrusted(summary.text)}`));
      }
      view.hold();
      const filesChanged = filesChangedCount(s, view.changes().size);
      closeSession();
      const units = o.provider === "ollama" ? unitsUsed() : null;
      const result = buildRunResult(s, summary, o.ledgerPath, {
        failOnRefusal: o.failOnRefusal === true,
        quotaUnits: units,
      });
      warn(c.dim(summaryLine({
        id: s.id,
        actions: view.totals.actions,
        filesChanged,
        inputTokens: result.usage.inputTokens,
        outputTokens: result.usage.outputTokens,
        ms: view.elapsedMs(),
        ledgerPath: o.ledgerPath,
        units: units ?? undefined,
        cost: costText(o.provider, s.usage().byModel),
      })));
      if (result.refused.length) {
        warn(c.yellow(`${result.refused.length} call(s) refused by the gate`));
      }
      warn(c.dim(`resume: ${resumeHint(s.id)}`));
      if (format === "json") console.log(JSON.stringify(result));
      if (stream) emitJsonLine({ ...result });
      return result.exitCode;
    }
    const code = await runRepl(s, {
      firstInput: objective,
      input,
      ctx,
      shown: (t) => view.shown(t),
    });
    view.hold();
    const usage = s.usage();
    warn(c.dim(summaryLine({
      id: s.id,
      actions: view.totals.actions,
      filesChanged: filesChangedCount(s, view.changes().size),
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      ms: view.elapsedMs(),
      ledgerPath: o.ledgerPath,
      units: o.provider === "ollama" ? unitsUsed() ?? undefined : undefined,
      cost: costText(o.provider, usage.byModel),
    })));
    warn(c.dim(`${formatUsage(usage)} · resume: ${resumeHint(s.id)}`));
    return code;
  } finally {
    view.hold();
    if (input) {
      saveHistory(input.history());
      input.close();
    }
    if (session) {
      closeSession();
      // Said only once the final checkpoint is written (a terminal closed right after loses nothing).
      if (input) warn(c.dim(`session ${session.id} closed with a checkpoint`));
      printLedgerHead(o.ledgerPath);
    }
    await mcp?.close();
    if (session && otlp) await exportAtEnd(o.ledgerPath, session.id, otlp);
  }
}

/** The head to pin outside the machine (a CI job output, a commit trailer). */
function printLedgerHead(path: string): void {
  try {
    const { pin } = ledgerHead(path);
    warn(c.dim(`ledger head ${pin} (pin it: retie verify --expect-head ${pin})`));
  } catch { /* the session's own error says why the ledger is not usable */ }
}
