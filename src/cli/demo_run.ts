/**
 * The body of `retie demo`.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { unknownEffect } from "../core/effect.ts";
import type { AnyTool, SandboxSettings, ToolContext } from "../core/tool.ts";
import { run } from "../exec.ts";
import { startSession } from "../agent/session.ts";
import type { DispatchResult } from "../agent/dispatch.ts";
import { checkSandbox } from "../sandbox/check.ts";
import { builtinTools } from "../tools/registry.ts";
import { loadEffectivePolicy } from "../plane/policy.ts";
import { verifyLedger } from "../ledger/mod.ts";
import { createScriptedProvider } from "../providers/scripted.ts";
import { c } from "../ui/color.ts";
import { renderOutcome } from "../ui/live.ts";
import { untrusted } from "../ui/term.ts";
import { buildReplay } from "../ui/replay_model.ts";
import { renderText } from "../ui/replay_text.ts";
import { createDemoWorkspace, PAY_WITHOUT_GUARDS } from "./demo_workspace.ts";
import { BASE_FLAGS } from "../core/permission_flags.ts";
import { thisInvocation } from "./invocation.ts";
import { outerLayerNote } from "./outer_note.ts";

/** A tool nobody wrote a classification rule for (think: a new MCP tool). */
export const deployTool: AnyTool = {
  name: "deploy",
  description: "Deploys the project (an unclassified tool: retie has no rule for it).",
  schema: z.object({ target: z.string() }),
  classify: (_args, _ctx) => Promise.resolve(unknownEffect("deploy")),
  handler: () => Promise.resolve({ ok: true, output: "deployed" }),
};

const OBJECTIVE = "The add function subtracts. Fix it and prove it works.";
const CLEANUP = "rm -rf build && echo 'scratch notes' > notes.txt";

function heading(t: string): void {
  console.log(`\n${c.bold(c.cyan(`── ${t} `.padEnd(78, "─")))}`);
}

function pad(s: string, n: number): string {
  return s.length > n ? s.slice(0, n - 1) + "…" : s.padEnd(n);
}

async function classificationTable(workspace: string, sandbox: SandboxSettings): Promise<void> {
  heading("1 · every call is classified by how hard it is to undo, then gated");
  const tools = new Map([...builtinTools(), deployTool].map((t) => [t.name, t]));
  const policy = loadEffectivePolicy(workspace);
  const ctx: ToolContext = {
    workspace,
    protectedPaths: [],
    signal: new AbortController().signal,
    sandbox,
    headless: false,
    sessionId: "demo",
    services: {},
  };
  const calls: [string, Record<string, unknown>, string][] = [
    ["read", { path: "calc.py" }, "read calc.py"],
    ["edit", { path: "calc.py", old_text: "a - b", new_text: "a + b" }, "edit calc.py"],
    ["write", { path: "/etc/cron.d/job", content: "x" }, "write /etc/cron.d/job"],
    ["bash", { command: "python3 test_calc.py" }, "bash (sandboxed)"],
    ["bash", { command: "python3 test_calc.py", sandbox: false }, "bash (unconfined)"],
    ["fetch", { url: "https://peps.python.org/pep-0621/" }, "fetch a web page"],
    ["deploy", { target: "production" }, "deploy (unclassified)"],
  ];
  console.log(
    c.dim(
      `  ${pad("call", 24)}${pad("class", 14)}${pad("at a terminal", 15)}${pad("headless", 10)}why`,
    ),
  );
  for (const [name, args, label] of calls) {
    const tool = tools.get(name)!;
    const effect = await tool.classify(tool.schema.parse(args), ctx);
    const input = {
      class: effect.class,
      tool: name,
      maxSeverity: null,
      risk: 0,
      mode: "default" as const,
      readsOutside: effect.readsOutside.length > 0,
      writesOutside: effect.writesOutside.length > 0,
      headless: false,
      yes: false,
      outOfScope: null,
      untrustedInput: false,
      network: effect.network,
      external: effect.external,
      sandboxed: effect.sandboxed,
    };
    const live = policy.evaluate(input);
    const head = policy.evaluate({ ...input, headless: true });
    const color = (d: string, w: number) =>
      d === "allow" ? c.green(pad(d, w)) : d === "ask" ? c.yellow(pad(d, w)) : c.red(pad(d, w));
    console.log(
      `  ${pad(label, 24)}${pad(effect.class, 14)}${color(live.decision, 15)}${
        color(head.decision, 10)
      }${c.dim(effect.reason)}`,
    );
  }
  console.log(c.dim(
    "\n  bash appears twice: confined to a snapshotted workspace with no network, its inverse is one\n" +
      "  operation (put the workspace back), so it is reversible and runs without asking. Unconfined,\n" +
      "  nobody can state its inverse: irreversible, so a person decides. The unclassified tool matches\n" +
      `  no rule, and no match means deny. Policy: ${policy.identity}.`,
  ));
}

/**
 * Runs the demo and returns the exit code (0 when every step showed what it should).
 *
 * @example
 * ```ts ignore
 * Deno.exit(await runDemo({}));
 * ```
 */
export async function runDemo(o: { ledgerPath?: string }): Promise<number> {
  const workspace = createDemoWorkspace();
  const tmp = Deno.makeTempDirSync({ prefix: "retie-demo-state-" });
  const ledgerPath = resolve(o.ledgerPath ?? join(tmp, "ledger.db"));
  try {
    return await demoSteps(workspace, tmp, ledgerPath, o.ledgerPath !== undefined);
  } finally {
    // The demo's state (its throwaway user key among it) never outlives it; the workspace only
    // when the ledger that refers to it is kept.
    removeQuietly(tmp);
    if (o.ledgerPath === undefined) removeQuietly(workspace);
  }
}

function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch { /* already gone */ }
}

async function demoSteps(
  workspace: string,
  tmp: string,
  ledgerPath: string,
  keep: boolean,
): Promise<number> {
  const check = await checkSandbox();
  const sandbox: SandboxSettings = {
    available: check.available,
    unavailableReason: check.reason,
    network: false,
  };
  const problems: string[] = [];

  console.log(c.bold("retie demo") + c.dim(` · workspace ${workspace} · ledger ${ledgerPath}`));
  if (!sandbox.available) console.log(c.red(`sandbox unavailable: ${sandbox.unavailableReason}`));
  await classificationTable(workspace, sandbox);

  heading("2 · a session on a scripted model (headless: ask becomes deny)");
  console.log(c.bold(`  objective: ${OBJECTIVE}`));
  const provider = createScriptedProvider([
    {
      text: "Let me look at calc.py.",
      toolCalls: [{ name: "read", arguments: { path: "calc.py" } }],
    },
    {
      toolCalls: [{
        name: "edit",
        arguments: { path: "calc.py", old_text: "return a - b", new_text: "return a + b" },
      }],
    },
    { toolCalls: [{ name: "bash", arguments: { command: "python3 test_calc.py" } }] },
    {
      text: "The refund handler looks over-engineered; simplifying it.",
      toolCalls: [{ name: "edit", arguments: { path: "pay.py", ...PAY_WITHOUT_GUARDS } }],
    },
    { toolCalls: [{ name: "deploy", arguments: { target: "production" } }] },
    { toolCalls: [{ name: "bash", arguments: { command: CLEANUP } }] },
    { text: "Fixed add (it subtracted); test_calc.py passes." },
  ], "scripted-demo");
  const outcomes: DispatchResult[] = [];
  const session = await startSession({
    workspace,
    ledgerPath,
    objective: OBJECTIVE,
    provider,
    providerName: "scripted",
    mode: "default",
    headless: true,
    yes: false,
    sandbox,
    approve: () => Promise.resolve(false),
    configDir: join(tmp, "config"),
    extraTools: [deployTool],
  });
  session.subscribe((e) => {
    if (e.type === "text") {
      Deno.stdout.writeSync(new TextEncoder().encode(c.dim(untrusted(e.delta))));
    }
    if (e.type === "model_done" && e.turn.text) console.log();
    if (e.type !== "action") return;
    const r = e.result;
    outcomes.push(r);
    const out = r.outcome;
    Deno.stdout.writeSync(new TextEncoder().encode(renderOutcome({
      status: out?.status ?? "refused",
      tool: r.name,
      summary: out?.effect?.summary ?? `call ${r.name}`,
      reason: out?.status === "ok" ? undefined : r.content.split("\n")[0].slice(0, 200),
      findings: out?.findings ?? [],
      changes: out?.changes ?? [],
    }, workspace)));
  });
  let sessionId = session.id;
  const outer = outerLayerNote();
  if (outer) session.writer.append("event", outer);
  try {
    const summary = await session.turn(OBJECTIVE);
    if (summary.status !== "done") {
      problems.push(`the session ended with ${summary.status}: ${summary.text}`);
    }
    const fixed = Deno.readTextFileSync(join(workspace, "calc.py")).includes("return a + b");
    if (!fixed) problems.push("calc.py was not fixed");
    const payEdit = outcomes[3]?.outcome;
    if (
      payEdit?.status !== "refused" ||
      !payEdit.findings.some((f) => f.rule === "auth-check-removed")
    ) {
      problems.push("the guard-removing edit was not refused with auth-check-removed");
    }
    if (outcomes[4]?.outcome?.status !== "refused") {
      problems.push("the unclassified tool was not refused");
    }

    heading("3 · undo the sandboxed command (its snapshot is the inverse)");
    const cleanup = outcomes[5]?.outcome;
    const before = listing(workspace);
    console.log(`  workspace now: ${before}`);
    if (cleanup?.status === "ok" && cleanup.actionId) {
      const report = await session.undo(cleanup.actionId);
      const after = listing(workspace);
      console.log(
        `  ${
          report.status === "undone" ? c.green("undone") : c.red(report.status)
        } ${cleanup.actionId}: ${report.reason}`,
      );
      console.log(`  workspace after undo: ${after}`);
      if (report.status !== "undone" || !after.includes("build/") || after.includes("notes.txt")) {
        problems.push("the sandboxed command was not undone");
      }
    } else {
      console.log(
        c.yellow(
          `  the cleanup command did not run in the sandbox (${
            cleanup?.status ?? "no outcome"
          }), so there is nothing to undo`,
        ),
      );
      if (sandbox.available) problems.push("the sandboxed cleanup did not run");
    }
    sessionId = session.id;
  } finally {
    session.close();
  }

  heading("4 · the ledger, verified by a separate process");
  const verified = await verifyElsewhere(ledgerPath);
  if (!verified) problems.push("the ledger did not verify");

  heading("5 · the replay (verified before it is printed)");
  const report = verifyLedger(ledgerPath);
  if (report.ok) {
    const { openLedger } = await import("../ledger/mod.ts");
    const ledger = openLedger(ledgerPath);
    try {
      console.log(
        renderText(
          buildReplay(ledger.entries({ session: sessionId }), {
            seq: report.headSeq,
            hash: report.headHash,
          }),
        ),
      );
    } finally {
      ledger.close();
    }
  }

  console.log();
  if (problems.length) {
    for (const p of problems) console.log(c.red(`demo problem: ${p}`));
    return 1;
  }
  console.log(c.green("demo complete."));
  for (const line of closingHints(ledgerPath, workspace, keep)) console.log(c.dim(line));
  return 0;
}

function listing(dir: string): string {
  const names: string[] = [];
  for (const e of Deno.readDirSync(dir)) names.push(e.isDirectory ? `${e.name}/` : e.name);
  return names.sort().join(" ");
}

/**
 * What to do next, as commands that work as printed: with `--ledger`, replay and verify the kept
 * ledger; without, how to keep one (everything else was removed).
 *
 * @example
 * ```ts ignore
 * closingHints("/tmp/demo.db", "/tmp/retie-demo-x", true);
 * ```
 */
export function closingHints(ledgerPath: string, workspace: string, keep: boolean): string[] {
  const retie = thisInvocation("retie");
  const q = (s: string) => /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
  if (!keep) {
    return [
      "The demo removed its workspace, ledger and key. To keep the ledger and replay it:",
      `  ${thisInvocation("demo")} --ledger demo.db`,
    ];
  }
  const l = q(ledgerPath);
  return [
    `The ledger is kept at ${ledgerPath} (the demo's workspace at ${workspace}). Next:`,
    `  ${retie} --ledger ${l} verify`,
    `  ${retie} --ledger ${l} replay --html -o session.html`,
  ];
}

/** Runs `retie verify` in its own process; falls back (and says so) when spawning is not allowed. */
async function verifyElsewhere(ledgerPath: string): Promise<boolean> {
  const main = new URL("../../main.ts", import.meta.url);
  // A binary cannot start `deno`; its flags do not allow it, so it falls through to in-process.
  if (main.protocol === "file:" && !Deno.build.standalone) {
    try {
      // The compiled-in flags (not a file read from the checkout), without the network.
      const flagList = BASE_FLAGS.filter(
        (f) => !f.startsWith("--allow-net") && !f.startsWith("--deny-net"),
      );
      const r = await run({
        cmd: "deno",
        args: ["run", ...flagList, fileURLToPath(main), "verify", "--ledger", ledgerPath],
        // The child finds the same module cache: HOME (the default cache) and DENO_DIR when set.
        env: {
          NO_COLOR: "1",
          HOME: Deno.env.get("HOME") ?? "/",
          ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
        },
        timeoutMs: 60_000,
      });
      const out = new TextDecoder().decode(r.stdout).trim();
      console.log(
        `  $ ${thisInvocation()} --ledger ${ledgerPath} verify    ${
          c.dim("(pid of its own, exit " + r.code + ")")
        }`,
      );
      for (const l of out.split("\n")) console.log(`  ${l}`);
      const err = new TextDecoder().decode(r.stderr).trim();
      if (err) console.log(c.dim(`  ${err.split("\n").join("\n  ")}`));
      return r.code === 0;
    } catch (e) {
      if (!(e instanceof Deno.errors.NotCapable)) throw e;
    }
  }
  const report = verifyLedger(ledgerPath);
  console.log(
    c.yellow(
      "  (this retie may not start processes other than bwrap, so the check ran in-process;",
    ),
  );
  console.log(
    c.yellow("   keep the ledger with --ledger PATH and verify it yourself: see the end)"),
  );
  console.log(
    `  ledger ${report.ok ? "OK" : "INVALID"}: ${report.entries} entries, head #${report.headSeq} ${
      report.headHash.slice(0, 12)
    }`,
  );
  return report.ok;
}
