/**
 * The body of `retie run`: build the provider (the ladder for Ollama), start the session, then run
 * headless to completion or hand over to the REPL.
 *
 * @module
 */
import { RetieError } from "../core/errors.ts";
import type { SandboxSettings } from "../core/tool.ts";
import { eventPayload, ledgerHead, newSessionId } from "../ledger/mod.ts";
import { checkSandbox } from "../sandbox/check.ts";
import { resolveWorkspace, startSession } from "../agent/session.ts";
import { loadExtensionConfig, startSessionServers } from "./extensions_start.ts";
import type { AgentEvents } from "../agent/loop.ts";
import type { Provider } from "../providers/types.ts";
import { c } from "../ui/color.ts";
import { renderOutcome, type Sink, Spinner, stdoutSink } from "../ui/live.ts";
import { askApprovalChoice } from "../ui/approval.ts";
import { rememberingApprover } from "../agent/remembered_approvals.ts";
import { safeText } from "../ui/safe_text.ts";
import { INTERACTIVE_OBJECTIVE } from "../ui/replay_model.ts";
import { ReplInput, runRepl } from "./repl.ts";
import { initRequest } from "./repl_context.ts";
import type { SessionBudget } from "../agent/budget.ts";
import { formatUsage } from "../agent/usage_meter.ts";
import { buildRunResult, emitJsonLine, type OutputFormat, resumeHint } from "./run_output.ts";
import { chooseResume, type ResumeRequest } from "./run_resume.ts";
import {
  banners,
  describeLadderEvent,
  detectContextWindow,
  env,
  isLocal,
  readStdin,
  stderrSink,
  stdinIsTerminal,
} from "./run_support.ts";
import { outerLayerNote } from "./outer_note.ts";

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
  const otlp = o.otlp ? { endpoint: o.otlp, headers: {} } : readOtlpConfig();
  const format = o.outputFormat ?? "text";
  const json = format !== "text";
  const stream = format === "stream-json";
  // In the JSON modes stdout carries JSON only: what people read goes to stderr.
  const human: Sink = json ? stderrSink : stdoutSink;
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
  for (const b of banners({ yes: o.yes, network: o.network, sandbox })) console.error(b);

  let objective = o.prompt?.trim() ?? "";
  if (o.headless && !objective) {
    if (stdinIsTerminal()) {
      console.error(c.dim("reading the objective from stdin; end it with Ctrl-D"));
    }
    objective = await readStdin();
  }
  if (o.headless && !objective) {
    throw new RetieError("no objective for a headless run", {
      hint: 'pass -p "what to do" or pipe it on stdin',
      exitCode: 2,
    });
  }

  const spinner = new Spinner(human);
  let streaming = false;
  let reasoning = false;
  /** Ends a line of streamed text (a stream that failed midway left it open) before a notice. */
  const endLine = (): void => {
    spinner.stop();
    if (streaming || reasoning) human.write("\n");
    streaming = false;
    reasoning = false;
  };

  const sessionId = newSessionId();
  const pending: Record<string, unknown>[] = [];
  let record = (e: Record<string, unknown>): void => void pending.push(e);
  let reportFailure: (reason: string) => void = () => {};
  let unitsUsed: () => number | null = () => null;
  /** The ladder moved to another model: its window, once known (set when the session exists). */
  let onModelWindow: (tokens: Promise<number | null>) => void = () => {};
  let provider: Provider;
  let apiKeyForShow: string | undefined;
  if (o.provider === "ollama") {
    const { openSessionLadder } = await import("../models/mod.ts");
    const { UsageStore } = await import("../models/mod.ts");
    const apiKey = env("OLLAMA_API_KEY") ?? (o.baseUrl && isLocal(o.baseUrl) ? "ollama" : "");
    apiKeyForShow = apiKey;
    const usage = new UsageStore();
    unitsUsed = () => usage.summary({ session: sessionId }).total.units;
    const ladder = await openSessionLadder({
      baseUrl: o.baseUrl ?? "https://ollama.com/v1",
      apiKey,
      session: sessionId,
      model: o.model,
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
          endLine();
          console.error(c.yellow(`model ${e.type}: ${describeLadderEvent(e)}`));
        }
      },
    });
    provider = ladder.provider;
    reportFailure = (reason) => void ladder.ladder.reportFailure(reason);
  } else {
    const { createProvider } = await import("../providers/factory.ts");
    provider = createProvider({
      provider: o.provider,
      model: o.model ?? "",
      baseUrl: o.baseUrl,
      env,
    });
    apiKeyForShow = env(o.provider === "openai" ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY");
  }
  const contextWindow = o.contextWindow ?? await detectContextWindow(o, provider, apiKeyForShow);

  /** The last notice shown, so a turn's end is not said twice. */
  let lastNotice = "";
  const shown = (text: string): boolean => text === lastNotice;
  const events: AgentEvents = {
    onModelStart: (model) => {
      lastNotice = "";
      spinner.start(`waiting for ${model}`);
    },
    onText: (d) => {
      spinner.stop();
      if (reasoning) human.write("\n");
      reasoning = false;
      streaming = true;
      human.write(d);
      if (stream) emitJsonLine({ type: "text", delta: d });
    },
    onReasoning: (d) => {
      spinner.stop();
      reasoning = true;
      human.write(c.dim(d));
    },
    onModelDone: () => endLine(),
    onAction: (r) => {
      const out = r.outcome;
      if (stream) {
        emitJsonLine({
          type: "action",
          id: out?.actionId ?? null,
          tool: r.name,
          status: out?.status ?? "refused",
          class: out?.effect?.class ?? null,
          summary: out?.effect?.summary ?? `call ${r.name}`,
        });
      }
      human.write(renderOutcome({
        status: out?.status ?? "refused",
        tool: r.name,
        summary: out?.effect?.summary ?? `call ${r.name}`,
        reason: out?.status === "ok" ? undefined : r.content.split("\n")[0].slice(0, 300),
        findings: out?.findings ?? [],
        changes: out?.changes ?? [],
      }, workspace));
    },
    onNotice: (m) => {
      endLine();
      lastNotice = m;
      console.error(c.yellow(m));
      if (stream) emitJsonLine({ type: "notice", message: m });
    },
    onTurnEnd: () => endLine(),
    onFailure: (reason) => reportFailure(reason),
  };

  // Interactive without -p: the first request is the objective genesis records, in the user's
  // own words, so it is read before the session starts (with the reader the REPL goes on using).
  let input: ReplInput | undefined;
  if (!o.headless && !objective) {
    input = new ReplInput();
    console.error(c.dim("what should retie do? (your first request opens the session's record)"));
    while (!objective) {
      const first = await input.read();
      if (first === null) {
        input.close();
        console.error(c.dim("no request; nothing was started or recorded"));
        return 0;
      }
      if (/^\/init(\s|$)/.test(first.trim())) {
        objective = initRequest(first.trim().slice(5).trim());
        continue;
      }
      if (first.trim().startsWith("/")) {
        if (/^\/(quit|exit)\b/.test(first.trim())) {
          input.close();
          return 0;
        }
        console.error(
          c.dim("slash commands work once the session has started; type a request first"),
        );
        continue;
      }
      objective = first.trim();
    }
  }

  // Extensions from the user's config: MCP servers (started now, in the sandbox) and agent types.
  const ext = loadExtensionConfig();
  const mcp = await startSessionServers(ext, workspace, o.ledgerPath, sandbox);
  const { createProvider } = await import("../providers/factory.ts");
  const session = await startSession({
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
    mode: o.mode,
    headless: o.headless,
    yes: o.yes,
    sandbox,
    // Interactive: a remembered "don't ask again" (user config, this workspace) answers instead.
    approve: o.headless ? () => Promise.resolve(false) : rememberingApprover({
      workspace,
      ask: askApprovalChoice,
      record: (e) => record(e),
    }),
    ask: o.headless ? undefined : async (q) => {
      // Piped input has nobody behind it: no answer rather than a prompt that waits forever.
      if (!stdinIsTerminal()) return null;
      const { input } = await import("@inquirer/prompts");
      return await input({ message: q });
    },
    // No session cap: --max-steps bounds a turn; --budget (off by default) bounds the session.
    budgets: { maxStepsPerTurn: o.maxSteps, maxRepeats: 3 },
    events,
    sessionId,
    contextWindow,
    budget: o.budget,
    unitsUsed,
    resume,
  });
  onModelWindow = (n) => session.setContextWindow(n);
  if (resume) {
    console.error(c.dim(
      `continuing ${resume.parts.at(-1)} (${resume.conversation.messages.length} messages${
        resume.conversation.summary ? " and a summary" : ""
      }) as ${session.id}`,
    ));
  }
  if (session.policy.sources.length > 1) {
    // Project rules change what the gate does; a person should know before anything runs.
    console.error(c.yellow(
      `project policy in force: ${session.policy.sources.slice(1).join(", ")} adds rules ` +
        `(effective policy ${session.policy.identity}; review with \`retie policy\`)`,
    ));
  }
  for (const i of session.prompts.inputs) {
    if (i.refused === undefined) continue;
    // A hostile instruction file (a link out of the workspace, a FIFO): not given to the model.
    console.error(c.yellow(safeText(
      `instruction file not used: ${i.refused} (recorded in the session's genesis entry)`,
    )));
  }
  const asEvent = (e: Record<string, unknown>) => eventPayload(String(e.type ?? "event"), e);
  for (const e of pending) session.writer.append("event", asEvent(e));
  record = (e) => void session.writer.append("event", asEvent(e));
  const outer = outerLayerNote();
  if (outer) session.writer.append("event", outer);

  console.error(c.dim(
    `${session.id} · ${provider.model} · ${session.policy.identity} · ${
      sandbox.available ? (o.network ? "bwrap (network)" : "bwrap (no network)") : "no sandbox"
    } · context window ${contextWindow ?? "unknown"} · ledger ${o.ledgerPath}`,
  ));
  console.error(c.bold(`workspace ${workspace}`));
  if (stream) {
    emitJsonLine({
      type: "start",
      session: session.id,
      parts: session.parts,
      model: provider.model,
      workspace,
      contextWindow: contextWindow ?? null,
    });
  }
  let closed = false;
  const close = () => {
    if (!closed) session.close();
    closed = true;
  };
  try {
    if (o.headless) {
      const summary = await session.turn(objective);
      if (summary.status !== "done" && !shown(summary.text)) {
        console.error(c.red(`retie: ${summary.text}`));
      }
      spinner.stop();
      close();
      const units = o.provider === "ollama" ? unitsUsed() : null;
      const result = buildRunResult(session, summary, o.ledgerPath, {
        failOnRefusal: o.failOnRefusal === true,
        quotaUnits: units,
      });
      console.error(c.dim(
        `${summary.actions} actions in ${summary.steps} model calls · replay: retie replay ${session.id}`,
      ));
      console.error(c.dim(
        `usage: ${formatUsage(result.usage)}${units !== null ? ` · ${units} quota units` : ""}`,
      ));
      if (result.refused.length) {
        console.error(c.yellow(`${result.refused.length} call(s) refused by the gate`));
      }
      console.error(c.dim(`resume: ${resumeHint(session.id)}`));
      if (format === "json") console.log(JSON.stringify(result));
      if (stream) emitJsonLine({ ...result });
      return result.exitCode;
    }
    const code = await runRepl(session, {
      firstInput: objective || undefined,
      workspace,
      shown,
      input,
    });
    const usage = formatUsage(session.usage());
    spinner.stop();
    close();
    // Said only once the final checkpoint is written (a terminal closed right after loses nothing).
    console.error(
      c.dim(`session ${session.id} closed with a checkpoint · retie replay ${session.id}`),
    );
    console.error(c.dim(`${usage} · resume: ${resumeHint(session.id)}`));
    return code;
  } finally {
    spinner.stop();
    close();
    printLedgerHead(o.ledgerPath);
    await mcp?.close();
    if (otlp) await exportAtEnd(o.ledgerPath, session.id, otlp);
  }
}
/** The head to pin outside the machine (a CI job output, a commit trailer). */
function printLedgerHead(path: string): void {
  try {
    const { pin } = ledgerHead(path);
    console.error(c.dim(`ledger head ${pin} (pin it: retie verify --expect-head ${pin})`));
  } catch { /* the session's own error says why the ledger is not usable */ }
}
