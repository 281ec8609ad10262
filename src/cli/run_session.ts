/**
 * The body of `retie run`: build the provider (the ladder for Ollama), start the session, then run
 * headless to completion or hand over to the REPL.
 *
 * @module
 */
import { RetieError } from "../core/errors.ts";
import type { SandboxSettings } from "../core/tool.ts";
import { newSessionId } from "../ledger/mod.ts";
import { checkSandbox } from "../sandbox/check.ts";
import { type AgentSession, resolveWorkspace, startSession } from "../agent/session.ts";
import type { Provider } from "../providers/types.ts";
import { c } from "../ui/color.ts";
import { SessionView } from "../ui/session_view.ts";
import { askApproval, SessionApprovals } from "../ui/approval.ts";
import { summaryLine } from "../ui/session_lists.ts";
import { say, untrusted, warn } from "../ui/term.ts";
import { TerminalInput } from "../ui/terminal_input.ts";
import { INTERACTIVE_OBJECTIVE } from "../ui/replay_model.ts";
import { loadHistory, readRequest, runRepl, saveHistory } from "./repl.ts";
import type { SlashContext } from "./slash.ts";

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
}

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

function stdinIsTerminal(): boolean {
  try {
    return Deno.stdin.isTerminal();
  } catch {
    return false;
  }
}

async function readStdin(): Promise<string> {
  let text = "";
  for await (const ch of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) text += ch;
  return text.trim();
}

/** Start-up banners: a control that is bypassed, or a wall that is open, says so. */
export function banners(o: { yes: boolean; network: boolean; sandbox: SandboxSettings }): string[] {
  const out: string[] = [];
  if (o.yes) {
    out.push(c.bold(c.yellow(
      "warning: --yes approves every action the policy would ask about. The gate still denies what " +
        "it denies, but nobody reviews what it would have asked.",
    )));
  }
  if (o.network) {
    out.push(c.bold(c.yellow(
      "warning: --network gives sandboxed commands the network. Anything a command can read can now " +
        "leave this machine, and no snapshot undoes that; shell commands are irreversible and ask.",
    )));
  }
  if (!o.sandbox.available) {
    out.push(c.bold(c.red(
      `sandbox unavailable: ${o.sandbox.unavailableReason}. Shell commands are irreversible and need ` +
        "approval every time; retie never runs them unsandboxed silently.",
    )));
  }
  return out;
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

  const view = new SessionView({ workspace });

  const sessionId = newSessionId();
  const pending: Record<string, unknown>[] = [];
  let record = (e: Record<string, unknown>): void => void pending.push(e);
  let reportFailure: (reason: string) => void = () => {};
  /** Builds the provider for a model (the ladder for Ollama; `--model` or /model pins one). */
  const makeProvider = async (model: string | undefined): Promise<Provider> => {
    if (o.provider === "ollama") {
      const { openSessionLadder, UsageStore } = await import("../models/mod.ts");
      const apiKey = env("OLLAMA_API_KEY") ?? (o.baseUrl && isLocal(o.baseUrl) ? "ollama" : "");
      const ladder = await openSessionLadder({
        baseUrl: o.baseUrl ?? "https://ollama.com/v1",
        apiKey,
        session: sessionId,
        model,
        maxTier: o.maxTier,
        usage: new UsageStore(),
        onEvent: (e) => {
          record({ ...e, type: "model", event: e.type });
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
    return createProvider({ provider: o.provider, model: model ?? "", baseUrl: o.baseUrl, env });
  };
  let provider = await makeProvider(o.model);

  let session: AgentSession | null = null;
  const input = o.headless ? null : new TerminalInput({ history: loadHistory() });
  const remembered = new SessionApprovals((rule) =>
    session?.writer.append("event", { type: "approval-rule", ...rule })
  );
  const ctx: SlashContext = {
    session: null,
    view,
    workspace,
    settings: { model: provider.model, mode: o.mode },
    print: (t) => say(t),
    switchModel: async (name) => {
      const next = await makeProvider(name);
      if (session) session.setProvider(next);
      provider = next;
      return next.model;
    },
  };

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

    session = await startSession({
      workspace,
      ledgerPath: o.ledgerPath,
      objective: objective || INTERACTIVE_OBJECTIVE,
      provider,
      providerName: o.provider,
      mode: ctx.settings.mode,
      headless: o.headless,
      yes: o.yes,
      sandbox,
      approve: input
        ? async (req) => {
          view.hold();
          const answer = await askApproval(req, {
            input,
            remembered,
            workspace,
            write: (t) => input.say(t),
          });
          // Approved: the snapshot and the run that follow show as running again.
          if (answer.approved) view.resume();
          return answer;
        }
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
      budgets: { maxStepsPerTurn: o.maxSteps, maxTotalSteps: o.maxSteps * 5, maxRepeats: 3 },
      sessionId,
    });
    ctx.session = session;
    session.subscribe((e) => {
      view.handle(e);
      if (e.type === "failure") reportFailure(e.reason);
    });
    if (session.policy.sources.length > 1) {
      // Project rules change what the gate does; a person should know before anything runs.
      warn(c.yellow(
        `project policy in force: ${
          untrusted(session.policy.sources.slice(1).join(", "))
        } adds rules ` +
          `(effective policy ${session.policy.identity}; review with \`retie policy\`)`,
      ));
    }
    for (const e of pending) session.writer.append("event", e);
    record = (e) => void session?.writer.append("event", e);

    warn(c.dim(
      `${session.id} · ${untrusted(provider.model)} · ${session.policy.identity} · ${
        sandbox.available ? (o.network ? "bwrap (network)" : "bwrap (no network)") : "no sandbox"
      } · ledger ${o.ledgerPath}`,
    ));
    let code: number;
    if (!input) {
      const summary = await session.turn(objective);
      if (summary.status !== "done" && !view.shown(summary.text)) {
        warn(c.red(`retie: ${untrusted(summary.text)}`));
      }
      code = summary.status === "done" ? 0 : 1;
    } else {
      code = await runRepl(session, {
        firstInput: objective,
        input,
        ctx,
        shown: (t) => view.shown(t),
      });
    }
    view.hold();
    warn(c.dim(summaryLine({
      id: session.id,
      actions: view.totals.actions,
      filesChanged: view.changes().size,
      inputTokens: view.totals.inputTokens,
      outputTokens: view.totals.outputTokens,
      ms: view.elapsedMs(),
      ledgerPath: o.ledgerPath,
      units: o.provider === "ollama" ? await sessionUnits(session.id) : undefined,
    })));
    return code;
  } finally {
    view.hold();
    if (input) {
      saveHistory(input.history());
      input.close();
    }
    if (session) {
      session.close();
      if (input) warn(c.dim(`session ${session.id} closed with a checkpoint`));
    }
  }
}

/** The quota units the usage store metered for a session (undefined when it cannot tell). */
async function sessionUnits(id: string): Promise<number | undefined> {
  try {
    const { UsageStore } = await import("../models/mod.ts");
    const store = new UsageStore();
    try {
      return store.summary().bySession.find((r) => r.key === id)?.units ?? 0;
    } finally {
      store.close();
    }
  } catch {
    return undefined;
  }
}

function isLocal(url: string): boolean {
  try {
    const h = new URL(url).hostname;
    return h === "localhost" || h === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(h);
  } catch {
    return false;
  }
}

function describeLadderEvent(e: { type: string } & Record<string, unknown>): string {
  const parts = [e.from && e.to ? `${e.from} → ${e.to}` : e.model, e.reason, e.detail].filter(
    Boolean,
  );
  return parts.join(": ");
}
