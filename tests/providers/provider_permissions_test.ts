/**
 * Both SDKs under retie's real permission flags (the `retie:local` variant, so 127.0.0.1 is
 * reachable): construction and one streamed call each must work, and the only environment
 * variables they touch must be ones the flags allow or ignore.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { retieFlags, ROOT } from "../helpers/retie_process.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { startAnthropicEmulator } from "../emulators/anthropic_emulator.ts";

const CHILD = join(ROOT, "tests/providers/child_provider_call.ts");
const KEYS = { OLLAMA_API_KEY: "test-key", ANTHROPIC_API_KEY: "test-key" };

async function runChild(flags: string[], urls: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, CHILD, ...urls],
    cwd: ROOT,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...KEYS },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("both providers stream under retie's permission flags, and touch only allowed env", async () => {
  const o = startOllamaEmulator({ script: () => ({ text: "from ollama" }) });
  const a = startAnthropicEmulator({ script: () => ({ text: "from claude" }) });
  try {
    const r = await runChild(retieFlags(true), [o.url, a.url]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.trim().split("\n").map((l) => JSON.parse(l)), [
      { ollama: "from ollama" },
      { anthropic: "from claude" },
    ]);

    // Which variables do the SDKs read? Start with none granted and ignore each one asked for.
    const flagText = retieFlags(true).join(" ");
    // A bare --ignore-env makes every variable outside the allow list read as unset.
    const ignoresAll = retieFlags(true).includes("--ignore-env");
    const ignoredByRetie = (flagText.match(/--ignore-env=(\S+)/)?.[1] ?? "").split(",");
    const touched: string[] = [];
    for (let k = 0; k < 20; k++) {
      const flags = [
        "--no-prompt",
        "--allow-read",
        "--allow-net",
        `--allow-env=${Object.keys(KEYS).join(",")}`,
        ...(touched.length ? [`--ignore-env=${touched.join(",")}`] : []),
      ];
      const run = await runChild(flags, [o.url, a.url]);
      const m = run.stderr.match(/env access to "([^"]+)"/);
      if (!m) {
        assert.equal(run.code, 0, run.stderr);
        break;
      }
      touched.push(m[1]);
    }
    assert.deepEqual(touched, ["ANTHROPIC_CUSTOM_HEADERS"]);
    for (const v of touched) {
      assert.ok(ignoresAll || ignoredByRetie.includes(v), `${v} is not ignored by base.flags`);
    }
  } finally {
    await o.close();
    await a.close();
  }
});
