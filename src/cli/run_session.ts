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
import { resolveWorkspace, startSession } from "../agent/session.ts";
import type { Provider } from "../providers/types.ts";
import { c } from "../ui/color.ts";
import { SessionView } from "../ui/session_view.ts";
import { askApproval } from "../ui/approval.ts";
import { INTERACTIVE_OBJECTIVE } from "../ui/replay_model.ts";
import { ReplInput, runRepl } from "./repl.ts";

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

  const view = new SessionView({ workspace });

  const sessionId = newSessionId();
  const pending: Record<string, unknown>[] = [];
  let record = (e: Record<string, unknown>): void => void pending.push(e);
  let reportFailure: (reason: string) => void = () => {};
  let provider: Provider;
  if (o.provider === "ollama") {
    const { openSessionLadder } = await import("../models/mod.ts");
    const { UsageStore } = await import("../models/mod.ts");
    const apiKey = env("OLLAMA_API_KEY") ?? (o.baseUrl && isLocal(o.baseUrl) ? "ollama" : "");
    const ladder = await openSessionLadder({
      baseUrl: o.baseUrl ?? "https://ollama.com/v1",
      apiKey,
      session: sessionId,
      model: o.model,
      maxTier: o.maxTier,
      usage: new UsageStore(),
      onEvent: (e) => {
        record({ ...e, type: "model", event: e.type });
        if (e.type !== "start") {
          view.hold();
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
  }

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

  const session = await startSession({
    workspace,
    ledgerPath: o.ledgerPath,
    objective: objective || INTERACTIVE_OBJECTIVE,
    provider,
    providerName: o.provider,
    mode: o.mode,
    headless: o.headless,
    yes: o.yes,
    sandbox,
    approve: o.headless ? () => Promise.resolve(false) : askApproval,
    ask: o.headless ? undefined : async (q) => {
      // Piped input has nobody behind it: no answer rather than a prompt that waits forever.
      if (!stdinIsTerminal()) return null;
      const { input } = await import("@inquirer/prompts");
      return await input({ message: q });
    },
    budgets: { maxStepsPerTurn: o.maxSteps, maxTotalSteps: o.maxSteps * 5, maxRepeats: 3 },
    sessionId,
  });
  session.subscribe((e) => {
    view.handle(e);
    if (e.type === "failure") reportFailure(e.reason);
  });
  if (session.policy.sources.length > 1) {
    // Project rules change what the gate does; a person should know before anything runs.
    console.error(c.yellow(
      `project policy in force: ${session.policy.sources.slice(1).join(", ")} adds rules ` +
        `(effective policy ${session.policy.identity}; review with \`retie policy\`)`,
    ));
  }
  for (const e of pending) session.writer.append("event", e);
  record = (e) => void session.writer.append("event", e);

  console.error(c.dim(
    `${session.id} · ${provider.model} · ${session.policy.identity} · ${
      sandbox.available ? (o.network ? "bwrap (network)" : "bwrap (no network)") : "no sandbox"
    } · ledger ${o.ledgerPath}`,
  ));
  try {
    if (o.headless) {
      const summary = await session.turn(objective);
      if (summary.status !== "done" && !view.shown(summary.text)) {
        console.error(c.red(`retie: ${summary.text}`));
      }
      console.error(
        c.dim(
          `${summary.actions} actions in ${summary.steps} model calls · replay: retie replay ${session.id}`,
        ),
      );
      return summary.status === "done" ? 0 : 1;
    }
    return await runRepl(session, {
      firstInput: objective || undefined,
      workspace,
      shown: (t) => view.shown(t),
      input,
    });
  } finally {
    view.hold();
    session.close();
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
