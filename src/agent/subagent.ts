/**
 * Sub-agents: a piece of the work run in-process, on the same workspace, as its own ledger session
 * under a sub-delegation that the caller's agent key signs. Its scope is the caller's narrowed by
 * the agent type's carve (the ledger refuses a widening one), its expiry no later than the
 * caller's, its tools only those the carve keeps (a tool it names but lacks does not exist for it,
 * and the delegation refuses it even if it did). `ask` inside it is denied, or answered by the
 * caller's model when the type says `ask: "lead"`; either way the answer is recorded.
 *
 * @module
 */
import type { BlobStore } from "../core/blob_store.ts";
import type { SnapshotStore } from "../core/snapshot.ts";
import type { AnyTool, ToolContext } from "../core/tool.ts";
import {
  type Delegation,
  generateKeyPair,
  issueDelegation,
  type KeyPair,
  type Ledger,
} from "../ledger/mod.ts";
import { type ApprovalRequest, createGuard } from "../plane/guard.ts";
import type { CompiledPolicy } from "../plane/policy.ts";
import type { Provider } from "../providers/types.ts";
import { VERSION } from "../version.ts";
import { type AgentType, carve } from "./agent_types.ts";
import { dispatch } from "./dispatch.ts";
import { Conversation, runTurn } from "./loop.ts";
import type { ResultStore } from "./result_store.ts";
import { toolDefinitions } from "../tools/registry.ts";
import { sha256Hex } from "../core/hash.ts";

/** What a sub-agent inherits from the session that starts it. */
export interface SubAgentParent {
  ledger: Ledger;
  userKey: KeyPair;
  agentKey: KeyPair;
  delegation: Delegation;
  sessionId: string;
  policy: CompiledPolicy;
  blobs: BlobStore;
  snapshots: SnapshotStore | null;
  tools: ReadonlyMap<string, AnyTool>;
  results: ResultStore;
  provider: Provider;
  /** A provider for another model of the same service (an agent type's `model`). */
  providerFor?: (model: string) => Provider;
  providerName: string;
  system: string;
  sandboxLabel: string;
  mode: "default" | "plan";
  ctx: (signal: AbortSignal, sessionId: string) => ToolContext;
  untrustedInput: () => boolean;
  markUntrusted: () => void;
}

/** How a sub-agent's task ended. */
export interface SubAgentResult {
  ok: boolean;
  /** Its final answer (or why it stopped). */
  text: string;
  session: string;
  /** The model it used. */
  model: string;
  steps: number;
  actions: number;
  /** Tokens it used, counted into the caller's usage. */
  usage: { inputTokens: number; outputTokens: number };
}

const LEAD_QUESTION = (r: ApprovalRequest, agent: string) =>
  `Your sub-agent "${agent}" asks to run: ${r.summary}\nConsequence: ${r.consequence}\n` +
  `Class: ${r.class}; policy rule ${r.rule}: ${r.justification}\n` +
  "Answer with exactly one word: yes or no.";

/**
 * Runs one task with agent type `type` to completion and returns its final answer.
 *
 * @example
 * ```ts ignore
 * const r = await runSubAgent(parent, "reviewer", types.reviewer, "Check calc.py", signal);
 * r.text; // the sub-agent's answer, returned to the caller as the task tool's result
 * ```
 */
export async function runSubAgent(
  parent: SubAgentParent,
  name: string,
  type: AgentType,
  prompt: string,
  signal: AbortSignal,
): Promise<SubAgentResult> {
  // "*" in the caller's delegation means every tool the caller has.
  const callerTools = parent.delegation.tools.includes("*")
    ? [...parent.tools.keys()]
    : parent.delegation.tools;
  const scope = carve({ tools: callerTools, classes: parent.delegation.classes }, type);
  const agentKey = generateKeyPair();
  const now = new Date();
  // issueDelegation refuses anything that would widen the parent's scope.
  const delegation = issueDelegation(parent.agentKey, agentKey.publicKey, {
    workspace: parent.delegation.workspace,
    classes: scope.classes,
    tools: scope.tools,
    notBefore: new Date(Math.max(now.getTime() - 1000, Date.parse(parent.delegation.notBefore))),
    expires: new Date(Date.parse(parent.delegation.expires)),
  }, parent.delegation);
  const provider = type.model && parent.providerFor
    ? parent.providerFor(type.model)
    : parent.provider;
  const system = `${parent.system}\n\nYou are the sub-agent "${name}" working on one task for ` +
    `another agent. Do the task, then answer with a short report of what you did and found.` +
    (type.instructions ? `\n\nInstructions for ${name}:\n${type.instructions}` : "");
  const writer = parent.ledger.startSession({
    genesis: {
      objective: prompt,
      provider: parent.providerName,
      model: provider.model,
      policy: parent.policy.identity,
      systemPromptDigest: sha256Hex(system),
      instructionsDigest: type.instructions ? sha256Hex(type.instructions) : null,
      sandbox: parent.sandboxLabel,
      version: VERSION,
      workspace: parent.delegation.workspace,
      mode: parent.mode,
      headless: type.ask !== "lead",
      agentType: name,
    },
    userKey: parent.userKey,
    agentKey,
    delegation,
    parentSession: parent.sessionId,
  });
  const tools = new Map([...parent.tools].filter(([t]) => scope.tools.includes(t)));
  const usage = { inputTokens: 0, outputTokens: 0 };
  const lead = async (r: ApprovalRequest): Promise<boolean> => {
    const turn = await parent.provider.complete({
      system: "You supervise a sub-agent. Answer its approval request with yes or no.",
      messages: [{ role: "user", content: LEAD_QUESTION(r, name) }],
      tools: [],
      signal,
    });
    usage.inputTokens += turn.usage.inputTokens;
    usage.outputTokens += turn.usage.outputTokens;
    const yes = /^\s*yes\b/i.test(turn.text);
    writer.append("event", {
      type: "lead-approval",
      tool: r.tool,
      summary: r.summary,
      answer: yes ? "yes" : "no",
      model: turn.model,
      text: turn.text.slice(0, 500),
    });
    return yes;
  };
  const guard = createGuard({
    sink: writer,
    policy: parent.policy,
    blobs: parent.blobs,
    snapshots: parent.snapshots,
    approve: lead,
    mode: parent.mode,
    // Nobody at a terminal answers a sub-agent: `ask` is denied unless its lead answers.
    headless: type.ask !== "lead",
    yes: false,
    untrustedInput: parent.untrustedInput,
  });
  const counted: Provider = {
    name: provider.name,
    model: provider.model,
    async complete(req, on) {
      const t = await provider.complete(req, on);
      usage.inputTokens += t.usage.inputTokens;
      usage.outputTokens += t.usage.outputTokens;
      return t;
    },
  };
  const baseCtx = parent.ctx(signal, writer.sessionId);
  const ctx: ToolContext = {
    ...baseCtx,
    sessionId: writer.sessionId,
    headless: type.ask !== "lead",
    services: {
      ...baseCtx.services,
      subagent: undefined,
      ask: type.ask === "lead"
        ? async (q) => {
          const t = await parent.provider.complete({
            system: "Your sub-agent asks you a question. Answer it briefly.",
            messages: [{ role: "user", content: q }],
            tools: [],
            signal,
          });
          writer.append("event", { type: "ask", question: q, answer: t.text, answeredBy: "lead" });
          return t.text;
        }
        : (q) => {
          writer.append("event", { type: "ask", question: q, answer: null, answeredBy: "nobody" });
          return Promise.resolve(null);
        },
    },
  };
  writer.append("event", { type: "turn", text: prompt });
  try {
    const summary = await runTurn(new Conversation(), prompt, {
      provider: counted,
      system,
      tools: toolDefinitions([...tools.values()]),
      budgets: { maxStepsPerTurn: type.maxSteps, maxTotalSteps: type.maxSteps, maxRepeats: 3 },
      signal,
      dispatch: (call) =>
        dispatch(call, {
          guard,
          tools,
          ctx,
          sink: writer,
          results: parent.results,
          onUntrusted: () => parent.markUntrusted(),
        }),
    });
    writer.append("event", {
      type: "turn-end",
      status: summary.status,
      message: `${summary.status}: ${summary.text.split("\n")[0]}`,
      text: summary.text,
      steps: summary.steps,
      actions: summary.actions,
      usage,
    });
    return {
      ok: summary.status === "done",
      text: summary.text,
      session: writer.sessionId,
      model: provider.model,
      steps: summary.steps,
      actions: summary.actions,
      usage,
    };
  } finally {
    writer.close();
  }
}
