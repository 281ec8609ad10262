/**
 * Records a two-turn session (scripted model, real guard, real ledger) with what a reviewer must
 * be able to read: model answers with hostile markup, a failed edit, a successful edit, a created
 * file, a refusal with a finding and a second prompt. Then undoes the good edit with `retie undo`
 * from another process, so the replay must mark it from the undo's own session.
 */
import { join } from "node:path";
import { startSession } from "../../src/agent/session.ts";
import { createScriptedProvider } from "../../src/providers/scripted.ts";
import { homeEnv, runRetie } from "./retie_process.ts";

/** Text a model might write to break a document: markdown, HTML, a comment, links, escapes. */
export const HOSTILE =
  "Done | ok `x` <details><summary>fake</summary></details></details> <!-- hide --> " +
  "[click](https://evil.example/a) ![img](http://evil.example/x.png) <script>alert(1)</script> " +
  "www.evil.example \x1b]52;c;ZXZpbA==\x07 *bold* _it_ # head " +
  // One unbroken 300-character word: it must wrap, not widen the page.
  "unbroken".repeat(38);

export const FIRST_PROMPT = "Fix add and tidy pay.py";
export const SECOND_PROMPT = "Now add a NOTES.md";

/** What the recording returns. */
export interface FullSession {
  dir: string;
  ledgerPath: string;
  sessionId: string;
  env: Record<string, string>;
  workspace: string;
  /** Action ids: the failed edit, the good edit (undone later), the write. */
  failedEdit: string;
  goodEdit: string;
  write: string;
}

/** Records the session and undoes the good edit through the CLI. */
export async function recordFullSession(): Promise<FullSession> {
  const dir = Deno.makeTempDirSync({ prefix: "retie-full-" });
  const ws = join(dir, "ws");
  Deno.mkdirSync(ws);
  const workspace = Deno.realPathSync(ws);
  const calc = ["import math", "", "", "def add(a, b):", "    return a - b", "", "", "def one():"]
    .join("\n") + "\n    return 1\n";
  Deno.writeTextFileSync(join(workspace, "calc.py"), calc);
  Deno.writeTextFileSync(
    join(workspace, "pay.py"),
    "from auth import login_required\n\n@login_required\ndef refund(order):\n    return order\n",
  );
  const env = homeEnv(dir);
  const ledgerPath = join(dir, "ledger.db");
  const long = Array.from({ length: 30 }, (_, i) => `line ${i + 1} of a long answer`).join("\n");
  const provider = createScriptedProvider([
    {
      text: `Let me look. ${HOSTILE}`,
      toolCalls: [{ name: "read", arguments: { path: "calc.py" } }],
    },
    {
      toolCalls: [{
        name: "edit",
        arguments: { path: "calc.py", old_text: "return a * b", new_text: "return a + b" },
      }],
    },
    {
      toolCalls: [{
        name: "edit",
        arguments: { path: "calc.py", old_text: "    return a - b", new_text: "    return a + b" },
      }],
    },
    {
      toolCalls: [{
        name: "edit",
        arguments: { path: "pay.py", old_text: "@login_required\ndef", new_text: "def" },
      }],
    },
    { text: `${HOSTILE}\n${long}` },
    {
      toolCalls: [{
        name: "write",
        arguments: { path: "NOTES.md", content: "# Notes\n\nadd() adds | now\n" },
      }],
    },
    { text: "second turn done" },
  ], "scripted-full");
  const s = await startSession({
    workspace,
    ledgerPath,
    objective: FIRST_PROMPT,
    provider,
    providerName: "scripted",
    mode: "default",
    headless: true,
    yes: false,
    sandbox: { available: false, unavailableReason: "not needed", network: false },
    approve: () => Promise.resolve(false),
    configDir: join(env.XDG_CONFIG_HOME, "retie"),
  });
  let ids: string[];
  try {
    await s.turn(FIRST_PROMPT);
    await s.turn(SECOND_PROMPT);
    ids = s.ledger.entries({ session: s.id, kinds: ["intent"] }).map((e) => e.actionId!);
  } finally {
    s.close();
  }
  const [, failedEdit, goodEdit, write] = ids;
  const undo = await runRetie(["--ledger", ledgerPath, "undo", goodEdit], { env });
  if (undo.code !== 0) throw new Error(`retie undo failed: ${undo.stderr}`);
  return { dir, ledgerPath, sessionId: s.id, env, workspace, failedEdit, goodEdit, write };
}
