/**
 * The guard: the one path every tool call takes, and the only place a tool handler is called.
 *
 * classify → gate → plan the undo → record intent → execute → confirm outcome
 *
 * Any stage failing means the handler is never called (fail closed) and a refusal is recorded,
 * attributed to the session. The intent is appended durably *before* the handler starts. Runs are
 * serialised by a promise-chain mutex, so two concurrent calls cannot interleave the chain.
 *
 * @module
 */
import type { z } from "zod";
import { type Effect, unknownEffect } from "../core/effect.ts";
import type { FileChange, ToolResult } from "../core/tool.ts";
import type { Finding, InspectResult } from "../inspect/types.ts";
import { inspectChanges, loadParsers } from "../inspect/mod.ts";
import { checkScope, intentPayload, outcomePayload, refusalPayload } from "../ledger/mod.ts";
import { outputExcerpt, recordedDiffs } from "./evidence.ts";
import { newActionId } from "./ids.ts";
import type { Stage } from "../core/staging.ts";
import { finishStaged, stagedPlan } from "./staged.ts";
import type { GateDecision } from "./policy.ts";
import type { Guard, GuardCall, GuardDeps, GuardOutcome, RefusalStage } from "./guard_types.ts";
import {
  capturePostState,
  NO_INVERSE,
  planUndo,
  type PostState,
  postStateNote,
  type UndoPlan,
} from "./undo_plan.ts";
import { errorMessage } from "../core/errors.ts";

export type * from "./guard_types.ts";

/** The tail of each session's promise chain: guard runs on one sink never interleave. */
const chains = new WeakMap<object, Promise<unknown>>();

/** The call ran code no snapshot follows: a command outside the sandbox or in it with the
 * network (both irreversible), or a tool nobody classified. An irreversible file write (a git
 * hook) is retie's own write of a listed file. */
function ranUntrustedCode(e: Effect): boolean {
  return e.class === "unknown" || (e.class === "irreversible" && (e.sandboxed || e.network));
}

/**
 * Describes a zod failure field by field, so a model can fix its arguments.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { describeArgIssues } from "./guard.ts";
 * const r = z.object({ path: z.string() }).safeParse({});
 * if (!r.success) describeArgIssues(r.error); // "- path: Invalid input: expected string, received undefined"
 * ```
 */
export function describeArgIssues(error: z.ZodError): string {
  return error.issues.map((i) => {
    const at = i.path.length ? i.path.map(String).join(".") : "(arguments)";
    return `- ${at}: ${i.message}`;
  }).join("\n");
}

/** A handler's answer as a ToolResult; anything else is an error result, not a crash. */
function asToolResult(tool: string, r: unknown): ToolResult {
  const x = r as Partial<ToolResult> | null | undefined;
  if (x && typeof x === "object" && typeof x.ok === "boolean" && typeof x.output === "string") {
    const detail = x.detail && typeof x.detail === "object" ? x.detail : undefined;
    return detail ? { ok: x.ok, output: x.output, detail } : { ok: x.ok, output: x.output };
  }
  return { ok: false, output: `${tool} failed: its handler returned no result` };
}

/**
 * Creates the guard for one session.
 *
 * @example
 * ```ts
 * import { createGuard } from "./guard.ts";
 * // const guard = createGuard({ sink, policy, blobs, snapshots, approve, mode: "default",
 * //   headless: false, yes: false });
 * // const out = await guard.run({ name: "read", tool: readTool, args: { path: "a.txt" }, ctx });
 * ```
 */
export function createGuard(deps: GuardDeps): Guard {
  // The workspace is the root for judging test paths: a workspace under a folder named test/
  // must not have every finding downgraded.
  const inspect = deps.inspect ??
    ((changes: FileChange[], root?: string) => inspectChanges(changes, { root }));
  const now = deps.now ?? (() => new Date());

  function refuse(
    call: GuardCall,
    args: unknown,
    stage: RefusalStage,
    reason: string,
    extra: {
      effect?: Effect | null;
      gate?: GateDecision | null;
      findings?: Finding[];
      changes?: FileChange[];
      model?: string;
    } = {},
  ): GuardOutcome {
    let recordNote = "";
    try {
      deps.sink.append(
        "refusal",
        refusalPayload({
          tool: call.name,
          stage,
          reason,
          args,
          class: extra.effect?.class,
          rule: extra.gate?.rule,
          findings: extra.findings,
        }),
        null,
      );
    } catch (e) {
      recordNote = ` (the refusal could not be recorded either: ${errorMessage(e)})`;
    }
    return {
      status: "refused",
      actionId: null,
      result: {
        ok: false,
        output: `refused (${stage}): ${extra.model ?? reason}${recordNote}`,
        detail: { stage },
      },
      effect: extra.effect ?? null,
      decision: extra.gate?.decision ?? (stage === "gate" || stage === "scope" ? "deny" : null),
      rule: extra.gate?.rule ?? null,
      findings: extra.findings ?? [],
      changes: extra.changes ?? [],
      stage,
    };
  }

  async function runInner(call: GuardCall): Promise<GuardOutcome> {
    const { tool, ctx } = call;
    const at = now();
    const untrusted = deps.untrustedInput?.() ?? false;

    if (!tool) {
      const effect = unknownEffect(call.name);
      const gate = deps.policy.evaluate({
        class: "unknown",
        tool: call.name,
        maxSeverity: null,
        risk: 0,
        mode: deps.mode,
        readsOutside: false,
        writesOutside: false,
        headless: deps.headless,
        yes: deps.yes,
        outOfScope: null,
        untrustedInput: untrusted,
        network: false,
        external: false,
        sandboxed: false,
      });
      // A tool that does not exist cannot run, whatever the policy says.
      return refuse(call, call.args, "unknown-tool", `unknown tool "${call.name}"`, {
        effect,
        gate: { ...gate, decision: "deny" },
      });
    }

    // Arguments.
    const parsed = tool.schema.safeParse(call.args);
    if (!parsed.success) {
      const issues = describeArgIssues(parsed.error);
      return refuse(
        call,
        call.args,
        "invalid-arguments",
        `invalid arguments for ${call.name}:\n${issues}`,
        {
          model: `invalid arguments for ${call.name}; fix these fields and call again:\n${issues}`,
        },
      );
    }
    const args = parsed.data;

    // Classify (and preview + inspect for tools that change files).
    let effect: Effect;
    let changes: FileChange[] = [];
    let inspection: InspectResult = { findings: [], risk: 0, maxSeverity: null };
    try {
      effect = await tool.classify(args, ctx);
      if (tool.preview) {
        changes = await tool.preview(args, ctx);
        await loadParsers(); // once per process; never rejects (regex fallback on failure)
        inspection = inspect(changes, ctx.workspace);
      }
    } catch (e) {
      return refuse(call, args, "classify", `cannot classify the call: ${errorMessage(e)}`);
    }
    const findings = inspection.findings;

    // Gate.
    const outOfScope = checkScope(deps.sink.delegation, {
      tool: call.name,
      class: effect.class,
      paths: effect.writes,
      now: at,
    });
    const gate = deps.policy.evaluate({
      class: effect.class,
      tool: call.name,
      maxSeverity: inspection.maxSeverity,
      risk: inspection.risk,
      mode: deps.mode,
      readsOutside: effect.readsOutside.length > 0,
      writesOutside: effect.writesOutside.length > 0,
      headless: deps.headless,
      yes: deps.yes,
      outOfScope,
      untrustedInput: untrusted,
      network: effect.network,
      external: effect.external,
      sandboxed: effect.sandboxed,
    });
    const base = { effect, gate, findings, changes };
    if (outOfScope !== null) {
      // Fail closed on scope even if a project rule would allow it.
      return refuse(call, args, "scope", `outside the delegation: ${outOfScope}`, {
        ...base,
        gate: { ...gate, decision: "deny" },
      });
    }
    if (gate.decision === "deny") {
      return refuse(
        call,
        args,
        "gate",
        `${effect.summary}: denied by ${
          gate.rule ? `rule ${gate.rule}` : "default deny"
        }: ${gate.justification}`,
        base,
      );
    }
    let approvedBy: "policy" | "user" | "--yes" = gate.approvedBy ?? "policy";
    if (gate.decision === "ask") {
      let ok = false;
      let instead: string | undefined;
      try {
        const answer = await deps.approve({
          tool: call.name,
          args: args as Record<string, unknown>,
          summary: effect.summary,
          consequence: effect.consequence,
          class: effect.class,
          findings,
          rule: gate.rule ?? "(none)",
          justification: gate.justification,
          changes,
        });
        ok = typeof answer === "boolean" ? answer : answer.approved === true;
        instead = typeof answer === "object" ? answer.instead?.trim() || undefined : undefined;
      } catch (e) {
        return refuse(call, args, "approval", `approval failed: ${errorMessage(e)}`, base);
      }
      if (!ok) {
        const why = `the user declined: ${effect.summary}${instead ? `; instead: ${instead}` : ""}`;
        return refuse(call, args, "approval", why, {
          ...base,
          model: instead
            ? `the user declined this call (${effect.summary}) and says what to do instead: ${instead}`
            : `the user declined this call (${effect.summary}); do not retry it unchanged`,
        });
      }
      approvedBy = "user";
    }

    // Plan the undo (a staged command's is recorded after it runs, before anything is applied).
    let plan: UndoPlan;
    try {
      plan = await stagedPlan(effect, deps.staging) ??
        await planUndo(effect, { blobs: deps.blobs, snapshots: deps.snapshots });
    } catch (e) {
      const msg = errorMessage(e);
      return refuse(
        call,
        args,
        "undo-plan",
        msg.startsWith(NO_INVERSE) ? msg : `${NO_INVERSE}: ${msg}`,
        base,
      );
    }

    // The person may have taken a while to answer: the delegation must still hold when the
    // intent is written (verify checks the intent's time against it).
    const lateScope = checkScope(deps.sink.delegation, {
      tool: call.name,
      class: effect.class,
      paths: effect.writes,
      now: now(),
    });
    if (lateScope !== null) {
      return refuse(call, args, "scope", `outside the delegation: ${lateScope}`, {
        ...base,
        gate: { ...gate, decision: "deny" },
      });
    }

    // Record the intent, durably, before anything runs.
    const actionId = newActionId();
    try {
      deps.sink.append(
        "intent",
        intentPayload({
          tool: call.name,
          args,
          effect,
          decision: gate.decision,
          rule: gate.rule,
          approvedBy,
          undo: plan,
          findings,
          risk: inspection.risk,
          ...(changes.length ? { diff: recordedDiffs(changes, ctx.workspace) } : {}),
        }),
        actionId,
      );
    } catch (e) {
      return refuse(
        call,
        args,
        "record",
        `the ledger could not record the intent: ${errorMessage(e)}`,
        {
          ...base,
          model: "the action was not run because it could not be recorded first",
        },
      );
    }

    // Execute (a staged command on its copy-on-write view).
    const started = performance.now();
    let result: ToolResult;
    let stage: Stage | null = null;
    try {
      if (plan.kind === "staged") stage = deps.staging!.create(actionId, plan.root);
      const c = stage ? { ...ctx, stageDir: stage.dir } : ctx;
      result = asToolResult(call.name, await tool.handler(args, c, effect));
    } catch (e) {
      result = { ok: false, output: `${call.name} failed: ${(e as Error)?.message ?? String(e)}` };
    }
    const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
    // Code ran that no snapshot follows (unsandboxed, networked, unclassified): what it wrote must
    // not be taken from the snapshot store's watcher.
    if (plan.kind !== "snapshot" && ranUntrustedCode(effect)) deps.snapshots?.distrust?.();

    // Confirm the outcome with the state the action left.
    let after: PostState | null = null;
    let postError: string | undefined;
    try {
      if (plan.kind === "staged" && stage) {
        let touched: string[] | null;
        ({ result, after, touched } = finishStaged(
          { staging: deps.staging!, blobs: deps.blobs, sink: deps.sink },
          stage,
          plan,
          actionId,
          result,
          ctx.protectedPaths,
        ));
        // Nothing reached the workspace: nothing of git's can have changed.
        const git = touched?.length === 0 ? null : deps.afterStagedApply?.(effect, touched) ?? null;
        if (git) {
          result = {
            ...result,
            output: `${result.output}\n${git.note}`,
            detail: { ...(result.detail ?? {}), gitControlRemoved: git.removed },
          };
        }
      } else after = await capturePostState(plan, { blobs: deps.blobs, snapshots: deps.snapshots });
    } catch (e) {
      postError = errorMessage(e);
    }
    const status = result.ok ? "ok" : "error";
    const detail: Record<string, unknown> = { ...(result.detail ?? {}) };
    if (postError) detail.postStateError = postError;
    result = { ...result, output: result.output + postStateNote(after, postError) };
    try {
      deps.sink.append(
        "outcome",
        outcomePayload({
          ok: result.ok,
          output: result.output,
          durationMs,
          after,
          detail,
          // What the reviewer reads; a side-effect-free call's output (a file read) is not copied.
          ...(effect.class !== "none" || !result.ok
            ? { excerpt: outputExcerpt(result.output) }
            : {}),
        }),
        actionId,
      );
    } catch (e) {
      // The action ran but its outcome is not on record: say so, to the model and the person.
      const why = errorMessage(e);
      result = {
        ...result,
        output: `${result.output}\n(warning: the action ran, but its outcome could not be ` +
          `recorded in the ledger: ${why}; verify will list it as started, not confirmed)`,
        detail: { ...(result.detail ?? {}), outcomeNotRecorded: why },
      };
    }
    return {
      status,
      actionId,
      result,
      effect,
      decision: gate.decision,
      rule: gate.rule,
      findings,
      changes,
    };
  }

  /**
   * Fail closed on anything the stages above did not foresee (a policy, clock, scope check or
   * inspector that throws): the handler has not run — the intent is the last step before it and
   * everything after it is exception-free — so the call is refused and the refusal recorded.
   */
  async function runClosed(call: GuardCall): Promise<GuardOutcome> {
    try {
      return await runInner(call);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      return refuse(call, call.args, "internal", `the guard failed, so nothing ran: ${msg}`);
    }
  }

  return {
    run(call: GuardCall): Promise<GuardOutcome> {
      // One chain per session sink, shared by every guard built on it (a mode switch that builds
      // a new guard must not open a second, concurrent path into the same session).
      const tail = chains.get(deps.sink) ?? Promise.resolve();
      const p = tail.then(() => runClosed(call));
      chains.set(deps.sink, p.catch(() => undefined));
      return p;
    },
  };
}
