/**
 * End-to-end attack runs: a scripted model (the Ollama emulator on 127.0.0.1) drives
 * `retie run --headless` in its own process, against a real workspace, real bubblewrap and a real
 * ledger; `retie undo` and `retie verify` run the same way. No `--yes`: the default policy decides.
 */
import { join } from "node:path";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { emulatorFlags, isolatedEnv, type RetieRun, runRetie } from "./retie_process.ts";

/** One tool call the scripted model makes. */
export interface ScriptedCall {
  name: string;
  args: Record<string, unknown>;
}

/** What an attack run left behind. */
export interface AttackRun {
  run: RetieRun;
  /** Everything retie sent to the model server, as JSON text. */
  sent: string;
  /** Tool results the model got back, in order. */
  toolResults: string[];
  ledgerPath: string;
  env: Record<string, string>;
  /** HOME of the run (a temp dir). */
  home: string;
}

/**
 * Runs one headless session whose model makes `calls` (one per turn) and then says "done".
 *
 * @example
 * ```ts ignore
 * const r = await attackRun(ws, [{ name: "bash", args: { command: "git init" } }]);
 * ```
 */
export async function attackRun(
  workspace: string,
  calls: ScriptedCall[],
  opts: {
    extraArgs?: string[];
    cwd?: string;
    home?: { dir: string; env: Record<string, string> };
  } = {},
): Promise<AttackRun> {
  const iso = opts.home ?? isolatedEnv();
  const emu = startOllamaEmulator({
    script: [
      ...calls.map((c) => ({ toolCalls: [{ name: c.name, arguments: JSON.stringify(c.args) }] })),
      { text: "done" },
    ],
  });
  const ledgerPath = join(iso.dir, "ledger.db");
  const env = { ...iso.env, OPENAI_API_KEY: "test-key" };
  try {
    const run = await runRetie(
      [...headlessArgs(ledgerPath, workspace, emu.url), ...(opts.extraArgs ?? [])],
      { env, cwd: opts.cwd },
    );
    const sent = JSON.stringify(emu.requests);
    const last = emu.requests.at(-1)?.body as
      | { messages?: { role: string; content?: unknown }[] }
      | undefined;
    const toolResults = (last?.messages ?? []).filter((m) => m.role === "tool").map((m) =>
      String(m.content ?? "")
    );
    return { run, sent, toolResults, ledgerPath, env, home: iso.dir };
  } finally {
    await emu.close();
  }
}

/**
 * The arguments of a headless run against the scripted model at `emulatorUrl`.
 *
 * @example
 * ```ts ignore
 * headlessArgs("/tmp/l.db", "/work/p", "http://127.0.0.1:1234");
 * ```
 */
export function headlessArgs(ledgerPath: string, workspace: string, emulatorUrl: string): string[] {
  return [
    "--ledger",
    ledgerPath,
    "run",
    workspace,
    "--headless",
    "-p",
    "do the task",
    ...emulatorFlags(emulatorUrl),
  ];
}

/**
 * Runs `retie <args>` against the same ledger and environment as `r`.
 *
 * @example
 * ```ts ignore
 * await retieAgain(r, ["undo", "--all"]);
 * ```
 */
export function retieAgain(r: AttackRun, args: string[]): Promise<RetieRun> {
  return runRetie(["--ledger", r.ledgerPath, ...args], { env: r.env });
}

/** Runs git (the user's git on the host) and returns its output and exit code. */
export function hostGit(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): { code: number; out: string } {
  const r = new Deno.Command("git", {
    args,
    cwd,
    env: { GIT_CONFIG_NOSYSTEM: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  const dec = new TextDecoder();
  return { code: r.code, out: dec.decode(r.stdout) + dec.decode(r.stderr) };
}

/** A git repository with one commit, at a real temp path. */
export function gitRepo(prefix = "retie-attack-"): string {
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix }));
  hostGit(ws, ["init", "-q"]);
  Deno.writeTextFileSync(join(ws, "README.md"), "# app\n");
  hostGit(ws, ["add", "."]);
  hostGit(ws, ["-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "init"]);
  return ws;
}
