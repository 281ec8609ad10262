/**
 * Where retie works: the directory the person ran it from (also through `deno task`, which moves
 * into the checkout and leaves that directory in INIT_CWD), a header naming it, and no session in
 * `/` or `$HOME` without a yes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { broadWorkspace, invocationDir } from "../../src/cli/workspace.ts";
import { invocation } from "../../src/cli/invocation.ts";
import { denoDir, isolatedEnv, ROOT, runRetie } from "../helpers/retie_process.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";

Deno.test("workspace: /, $HOME, folders holding it and top-level directories are broad", () => {
  const home = "/home/me";
  assert.equal(broadWorkspace("/", home), "the whole file system");
  assert.equal(broadWorkspace("/home/me", home), "your whole home directory");
  assert.equal(broadWorkspace("/home", home), "a folder that holds your home directory");
  assert.match(broadWorkspace("/etc", home) ?? "", /top-level system directory/);
  assert.match(broadWorkspace("/tmp", home) ?? "", /top-level/);
  assert.match(broadWorkspace("/home/me/.ssh", home) ?? "", /configuration folder/);
  assert.equal(broadWorkspace("/home/me/proj", home), undefined);
  assert.equal(broadWorkspace("/tmp/retie-x", home), undefined);
  assert.equal(broadWorkspace("/srv/app/src", undefined), undefined);
});

Deno.test("workspace: INIT_CWD counts only when deno task moved retie into its checkout", () => {
  const checkout = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-co-" }));
  const there = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-there-" }));
  const main = pathToFileURL(join(checkout, "main.ts")).href;
  assert.equal(invocationDir(main, checkout, there), there);
  assert.equal(invocationDir(main, checkout, undefined), undefined);
  assert.equal(invocationDir(main, checkout, checkout), undefined);
  // Run from somewhere else (an installed retie; npm's INIT_CWD of another project): untouched.
  assert.equal(invocationDir(main, there, "/"), undefined);
  assert.equal(
    invocationDir("https://jsr.io/@retie/cli/0.1.0/main.ts", checkout, there),
    undefined,
  );
});

Deno.test("workspace: hints name the way retie was started", () => {
  const f = { execPath: "/usr/bin/deno", standalone: false, cwd: "/home/me/p" };
  assert.equal(
    invocation({ ...f, mainModule: "file:///co/main.ts", taskCheckout: "/co" }),
    "deno task -q --config /co/deno.json retie",
  );
  assert.equal(
    invocation({ ...f, cwd: "/co/sub", mainModule: "file:///co/demo.ts", taskCheckout: "/co" }),
    "deno task -q retie",
  );
  assert.equal(invocation({ ...f, mainModule: "file:///co/main.ts" }), "deno run -A /co/main.ts");
  assert.equal(
    invocation({ ...f, mainModule: "https://jsr.io/@retie/cli/0.2.0/main.ts" }),
    "deno run -A jsr:@retie/cli@0.2.0",
  );
  assert.equal(
    invocation({ ...f, standalone: true, execPath: "/opt/retie bin/retie", mainModule: "x" }),
    "'/opt/retie bin/retie'",
  );
});

async function denoTask(task: string, args: string[], cwd: string, env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "--config", join(ROOT, "deno.json"), task, ...args],
    cwd,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      DENO_DIR: denoDir(),
      NO_COLOR: "1",
      ...env,
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("workspace: deno task retie run, from another directory, works on that directory", async () => {
  const iso = isolatedEnv();
  const here = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-here-" }));
  Deno.writeTextFileSync(join(here, "a.txt"), "from the person's directory\n");
  Deno.mkdirSync(join(here, "sub"));
  Deno.writeTextFileSync(join(here, "sub", "a.txt"), "from sub\n");
  const emu = startOllamaEmulator({
    script: [
      { toolCalls: [{ name: "read", arguments: JSON.stringify({ path: "a.txt" }) }] },
      { text: "read it" },
      { toolCalls: [{ name: "read", arguments: JSON.stringify({ path: "a.txt" }) }] },
      { text: "read it" },
    ],
  });
  try {
    const common = ["--provider", "openai", "--model", "m", "--base-url", `${emu.url}/v1`];
    const env = { ...iso.env, OPENAI_API_KEY: "test-key" };
    // No directory: the one the person is in, not the checkout deno task moved to.
    const r = await denoTask(
      "retie:local",
      [
        "--ledger",
        "here.db", // relative paths are the person's too
        "run",
        "--headless",
        "-p",
        "read a.txt",
        ...common,
      ],
      here,
      env,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`workspace ${here}\\n`));
    assert.ok(Deno.statSync(join(here, "here.db")).isFile);
    const tool = emu.requests.filter((q) => q.path.endsWith("/chat/completions"))[1];
    assert.match(JSON.stringify(tool.body), /from the person's directory/);
    // A relative directory is relative to the person's directory.
    const sub = await denoTask(
      "retie:local",
      [
        "--ledger",
        "here.db",
        "run",
        "sub",
        "--headless",
        "-p",
        "read a.txt",
        ...common,
      ],
      here,
      env,
    );
    assert.equal(sub.code, 0, sub.stderr);
    assert.match(sub.stderr, new RegExp(`workspace ${join(here, "sub")}\\n`));
  } finally {
    await emu.close();
  }
});

Deno.test("workspace: / and $HOME are refused headless, and --yes says what it accepted", async () => {
  const iso = isolatedEnv();
  const common = ["--headless", "-p", "x", "--provider", "openai", "--model", "m"];
  const root = await runRetie(["run", "/", ...common], { env: iso.env });
  assert.equal(root.code, 2);
  assert.match(root.stderr, /refusing to use \/ as the workspace: \/ is the whole file system/);
  assert.match(root.stderr, /--yes to use it anyway/);
  const home = Deno.realPathSync(iso.dir);
  const h = await runRetie(["run", home, ...common], { env: iso.env });
  assert.equal(h.code, 2);
  assert.match(h.stderr, /is your whole home directory/);
  // With --yes it goes ahead, saying so (and then fails for want of a key: nothing else needed).
  const y = await runRetie(["run", home, ...common, "--yes"], { env: iso.env });
  assert.match(y.stderr, /warning: .* is your whole home directory.*accepted with --yes/);
  assert.doesNotMatch(y.stderr, /refusing to use/);
});

Deno.test("workspace: retie sandbox will not make $HOME writable without --yes", async () => {
  const iso = isolatedEnv();
  const home = Deno.realPathSync(iso.dir);
  const r = await runRetie(["sandbox", "--workspace", home, "--", "touch", "x"], { env: iso.env });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /refusing to use .* as the workspace: .* is your whole home directory/);
  assert.match(r.stderr, /retie sandbox --workspace \.\/my-project/);
  assert.throws(() => Deno.statSync(join(home, "x")));
  const y = await runRetie(["sandbox", "--yes", "--workspace", home, "--", "touch", "x"], {
    env: iso.env,
  });
  assert.equal(y.code, 0, y.stderr);
  assert.ok(Deno.statSync(join(home, "x")).isFile);
});
