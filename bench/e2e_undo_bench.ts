/**
 * End to end, from the model server's side: `retie run --headless` against a local
 * OpenAI-compatible emulator, on the npm web project (bench/npm_project.ts) and on a 30-file
 * workspace. The emulator's request arrivals are timed:
 *
 * - start-up: process start → first model request;
 * - first and later sandboxed one-file commands: answer with the tool call → next request;
 * - `bash true` against `read` on 30 files (medians), as the issue measures it.
 *
 * Run: `deno run -A bench/e2e_undo_bench.ts [--small]` (`--small`: the 30-file workspace only;
 * the fallback store is measured by bench/undo_project_bench.ts).
 */
import { join } from "node:path";
import { isolatedEnv, retieFlags, ROOT } from "../tests/helpers/retie_process.ts";
import { denoDir } from "../tests/helpers/retie_process.ts";
import { type EmulatedCall, startOllamaEmulator } from "../tests/emulators/ollama_emulator.ts";
import { freshProject } from "./npm_project.ts";

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const tc = (name: string, args: unknown): EmulatedCall => ({
  toolCalls: [{ name, arguments: JSON.stringify(args) }],
});

async function drive(ws: string, script: EmulatedCall[]): Promise<{ start: number; at: number[] }> {
  const iso = isolatedEnv();
  const emu = startOllamaEmulator({ script: [...script, { text: "done" }] });
  const at: number[] = [];
  let seen = 0;
  // Only the model turns: retie may ask other things first (its model list).
  const take = () => {
    while (emu.requests.length > seen) {
      if (/\/chat\/completions$/.test(emu.requests[seen].path)) at.push(performance.now());
      seen++;
    }
  };
  const poll = setInterval(take, 0.5);
  const start = performance.now();
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        ...retieFlags(true),
        join(ROOT, "main.ts"),
        "--ledger",
        join(iso.dir, "ledger.db"),
        "run",
        ws,
        "--headless",
        "--yes",
        "-p",
        "bench",
        "--provider",
        "openai",
        "--model",
        "m",
        "--base-url",
        `${emu.url}/v1`,
        "--max-steps",
        String(script.length + 2),
      ],
      env: {
        ...iso.env,
        DENO_DIR: denoDir(),
        PATH: "/usr/bin:/bin",
        OPENAI_API_KEY: "test-key",
        NO_COLOR: "1",
      },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const out = await child.output();
    if (out.code !== 0) console.error(new TextDecoder().decode(out.stderr).slice(-2000));
  } finally {
    clearInterval(poll);
    take();
    await emu.close();
    Deno.removeSync(iso.dir, { recursive: true });
  }
  return { start, at };
}

if (!Deno.args.includes("--small")) {
  const { ws, base } = await freshProject();
  try {
    const script = [
      tc("bash", { command: "echo '// e0' >> src/module_0.js" }),
      ...Array.from(
        { length: 8 },
        (_, i) => tc("bash", { command: `echo '// e' >> src/module_${i + 1}.js` }),
      ),
    ];
    const r = await drive(ws, script);
    const gaps = r.at.slice(1).map((t, i) => t - r.at[i]);
    console.log(
      `npm project: start-up → first model request ${(r.at[0] - r.start).toFixed(0)} ms; first ` +
        `sandboxed one-file command (answer → next request) ${gaps[0].toFixed(0)} ms; later ` +
        `ones median ${med(gaps.slice(1, 9)).toFixed(0)} ms`,
    );
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
}
{
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-e2e-30-" }));
  for (let i = 0; i < 30; i++) {
    Deno.writeTextFileSync(join(ws, `f${i}.ts`), `export const x = ${i};\n`);
  }
  // `true` only reads (the workspace is mounted read-only, nothing staged); `: >> f2.ts` writes
  // (staged on the copy-on-write view, its undo recorded), without changing the file's bytes.
  const write = "echo -n >> f2.ts";
  const script: EmulatedCall[] = [tc("bash", { command: "true" })];
  for (let i = 0; i < 25; i++) {
    script.push(
      tc("read", { path: "f1.ts" }),
      tc("bash", { command: "true" }),
      tc("bash", { command: write }),
    );
  }
  const r = await drive(ws, script);
  const gaps = r.at.slice(1).map((t, i) => t - r.at[i]);
  const reads = gaps.filter((_, i) => i >= 1 && i % 3 === 1);
  const trues = gaps.filter((_, i) => i >= 1 && i % 3 === 2);
  const writes = gaps.filter((_, i) => i >= 1 && i % 3 === 0);
  console.log(
    `30-file workspace: start-up → first model request ${(r.at[0] - r.start).toFixed(0)} ms; ` +
      `from the model server's side: bash true ${med(trues).toFixed(1)} ms, ` +
      `read ${med(reads).toFixed(1)} ms, +${(med(trues) - med(reads)).toFixed(1)} ms; ` +
      `a staged one-file write (\`${write}\`) ${med(writes).toFixed(1)} ms, +${
        (med(writes) - med(reads)).toFixed(1)
      } ms (medians of 25)`,
  );
  Deno.removeSync(ws, { recursive: true });
}
