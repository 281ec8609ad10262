/**
 * Records a small real session (scripted model, real guard, real ledger) for tests that need one:
 * a read, an edit, a guard-removing edit refused with its finding, and an unclassified tool refused.
 */
import { join } from "node:path";
import { homeEnv } from "./retie_process.ts";
import { z } from "zod";
import { startSession } from "../../src/agent/session.ts";
import { unknownEffect } from "../../src/core/effect.ts";
import type { AnyTool } from "../../src/core/tool.ts";
import { createScriptedProvider } from "../../src/providers/scripted.ts";

export const SAMPLE_OBJECTIVE = "Fix add <b>and</b> tidy pay.py";

const deploy: AnyTool = {
  name: "deploy",
  description: "unclassified",
  schema: z.object({ target: z.string() }),
  classify: () => Promise.resolve(unknownEffect("deploy")),
  handler: () => Promise.resolve({ ok: true, output: "deployed" }),
};

/** Runs the sample session; returns the ledger path, session id, and the env a child needs. */
export async function recordSampleSession(): Promise<
  {
    dir: string;
    ledgerPath: string;
    sessionId: string;
    env: Record<string, string>;
    workspace: string;
  }
> {
  const dir = Deno.makeTempDirSync({ prefix: "retie-sample-" });
  const ws = join(dir, "ws");
  Deno.mkdirSync(ws);
  const workspace = Deno.realPathSync(ws);
  Deno.writeTextFileSync(join(workspace, "calc.py"), "def add(a, b):\n    return a - b\n");
  Deno.writeTextFileSync(
    join(workspace, "pay.py"),
    "from auth import login_required\n\n@login_required\ndef refund(order):\n    return order\n",
  );
  const env = homeEnv(dir);
  const ledgerPath = join(dir, "ledger.db");
  const provider = createScriptedProvider([
    { toolCalls: [{ name: "read", arguments: { path: "calc.py" } }] },
    {
      toolCalls: [{
        name: "edit",
        arguments: { path: "calc.py", old_text: "a - b", new_text: "a + b" },
      }],
    },
    {
      toolCalls: [{
        name: "edit",
        arguments: { path: "pay.py", old_text: "@login_required\ndef", new_text: "def" },
      }],
    },
    { toolCalls: [{ name: "deploy", arguments: { target: "prod" } }] },
    { text: "done" },
  ], "scripted-sample");
  const s = await startSession({
    workspace,
    ledgerPath,
    objective: SAMPLE_OBJECTIVE,
    provider,
    providerName: "scripted",
    mode: "default",
    headless: true,
    yes: false,
    sandbox: { available: false, unavailableReason: "not needed", network: false },
    approve: () => Promise.resolve(false),
    configDir: join(env.XDG_CONFIG_HOME, "retie"),
    extraTools: [deploy],
  });
  try {
    await s.turn(SAMPLE_OBJECTIVE);
    return { dir, ledgerPath, sessionId: s.id, env, workspace };
  } finally {
    s.close();
  }
}
