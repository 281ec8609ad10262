/**
 * Self-narrowing start: the decision (pure, over injected permission answers) and the real thing —
 * `deno run -A main.ts` re-executing itself under the compiled flags, with arguments, stdin,
 * stdout, stderr, exit status and signals passed through.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  confinedCommand,
  planStart,
  targetProfile,
  wantsUnconfined,
} from "../../src/cli/narrow.ts";
import { assess, type PermissionQuery, probesFor } from "../../src/core/outer_layer.ts";
import { profileFlags } from "../../src/core/permission_flags.ts";
import { openLedger } from "../../src/ledger/mod.ts";
import { denoDir, emulatorFlags, isolatedEnv, ROOT } from "../helpers/retie_process.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";

/** Answers probes as a process started under exactly `flags` would. */
function holding(flags: string[]): PermissionQuery {
  const answers = new Map(probesFor(flags).map((p) => [JSON.stringify(p.descriptor), p.expected]));
  return (d) => answers.get(JSON.stringify(d)) ?? false;
}
const everything: PermissionQuery = () => true;
const MAIN = "file:///src/retie/main.ts";
const base = { mainModule: MAIN, execPath: "/usr/bin/deno", standalone: false };

Deno.test("narrow: -A re-executes under the shipped flags, arguments kept in order", () => {
  const p = planStart({ ...base, args: ["run", "./proj", "-p", "fix it"], query: everything });
  assert.equal(p.action, "reexec");
  if (p.action !== "reexec") return;
  assert.equal(p.cmd, "/usr/bin/deno");
  assert.equal(p.profile, "retie");
  assert.deepEqual(p.args.slice(-5), ["/src/retie/main.ts", "run", "./proj", "-p", "fix it"]);
  assert.deepEqual(p.args.slice(1, 1 + profileFlags("retie").length), profileFlags("retie"));
  assert.match(p.from, /all permissions/);
});

Deno.test("narrow: under its own flags (either profile) retie runs as it is", () => {
  for (const profile of ["retie", "local"] as const) {
    const p = planStart({ ...base, args: ["verify"], query: holding(profileFlags(profile)) });
    assert.deepEqual(p, { action: "run", status: "confined", profile });
  }
  // Narrower than the flags is not broader: it runs (doctor reports what is missing).
  const p = planStart({ ...base, args: ["verify"], query: holding(["--allow-read"]) });
  assert.equal(p.action, "run");
});

Deno.test("narrow: any single grant beyond the flags is noticed", () => {
  const extra = [
    "--allow-run=/bin/sh",
    "--allow-env=PATH",
    "--allow-sys",
    "--allow-ffi",
    "--allow-import=example.com",
  ];
  for (const flag of extra) {
    const flags = [...profileFlags("retie").filter((f) => !f.startsWith("--deny-ffi")), flag];
    const a = assess(profileFlags("local"), holding(flags));
    assert.ok(a.broader.length > 0, `${flag} went unnoticed`);
    assert.equal(a.allowAll, false);
  }
  // Dropping the private-range denial widens the network.
  const open = profileFlags("local").filter((f) => !f.startsWith("--deny-net"));
  assert.ok(assess(profileFlags("local"), holding(open)).broader.includes("net 10.0.0.1"));
});

Deno.test("narrow: the profile follows the command line", () => {
  assert.equal(targetProfile(["run", "--base-url", "http://127.0.0.1:11434/v1"], MAIN), "local");
  assert.equal(targetProfile(["run", "--base-url=http://localhost:8080/v1"], MAIN), "local");
  assert.equal(targetProfile(["run", "--base-url", "https://ollama.com/v1"], MAIN), "retie");
  assert.equal(targetProfile(["--ledger", "x.db", "demo"], MAIN), "demo");
  assert.equal(targetProfile([], "file:///src/retie/demo.ts"), "demo");
  // What follows `--` is a sandboxed command's, not retie's.
  assert.equal(targetProfile(["sandbox", "--", "curl", "http://127.0.0.1/"], MAIN), "retie");
  assert.equal(wantsUnconfined(["sandbox", "--", "x", "--unconfined"]), false);
  assert.equal(wantsUnconfined(["--unconfined", "doctor"]), true);
});

Deno.test("narrow: refuses when it cannot re-execute, unless --unconfined", () => {
  const binary = planStart({ ...base, standalone: true, args: ["doctor"], query: everything });
  assert.equal(binary.action, "refuse");
  const odd = planStart({ ...base, mainModule: "data:text/plain,x", args: [], query: everything });
  assert.equal(odd.action, "refuse");
  if (odd.action === "refuse") assert.match(odd.message, /Run it confined: deno run --no-prompt/);
  // A child that is still broad after re-executing refuses rather than looping.
  const loop = planStart({ ...base, args: ["doctor"], query: everything, narrowed: "-A" });
  assert.equal(loop.action, "refuse");
  const anyway = planStart({ ...base, args: ["--unconfined", "doctor"], query: everything });
  assert.equal(anyway.action, "unconfined");
});

Deno.test("narrow: a JSR or https main module is run again by its URL", () => {
  const jsr = "https://jsr.io/@retie/cli/0.1.0/main.ts";
  const p = planStart({ ...base, mainModule: jsr, args: ["verify"], query: everything });
  assert.equal(p.action, "reexec");
  if (p.action !== "reexec") return;
  assert.deepEqual(p.args.slice(-2), [jsr, "verify"]);
  // jsr.io is on Deno's default import list: nothing added, no --config from anywhere.
  assert.ok(!p.args.some((a) => a.startsWith("--allow-import") || a === "--config"));
  const own = confinedCommand("retie", "https://example.org:8443/retie/main.ts");
  assert.ok(own.includes(
    `--allow-import=example.org:8443,deno.land:443,jsr.io:443,esm.sh:443,` +
      "cdn.jsdelivr.net:443,raw.githubusercontent.com:443,gist.githubusercontent.com:443",
  ));
  const spec = planStart({ ...base, mainModule: "jsr:@retie/cli", args: [], query: everything });
  assert.equal(spec.action, "reexec");
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    DENO_DIR: denoDir(),
    NO_COLOR: "1",
    ...isolatedEnv().env,
    ...extra,
  };
}

async function denoRun(
  flags: string[],
  args: string[],
  o: { env?: Record<string, string>; stdin?: string; cwd?: string } = {},
) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, join(ROOT, "main.ts"), ...args],
    env: env(o.env),
    clearEnv: true,
    cwd: o.cwd ?? ROOT,
    stdin: o.stdin !== undefined ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (o.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(o.stdin));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("narrow: deno run -A main.ts doctor --json reports the outer layer narrowed", async () => {
  const r = await denoRun(["-A"], ["doctor", "--json"]);
  const report = JSON.parse(r.stdout);
  const outer = report.checks.find((c: { id: string }) => c.id === "outer-layer");
  assert.equal(outer.verdict, "ok", r.stdout);
  assert.equal(outer.data.status, "narrowed");
  assert.equal(outer.data.profile, "retie");
  assert.deepEqual(outer.data.broader, []);
  assert.match(outer.detail, /narrowed: started with all permissions/);
});

Deno.test("narrow: under its flags doctor says confined, not narrowed", async () => {
  const r = await denoRun(profileFlags("retie"), ["doctor", "--json"]);
  const outer = JSON.parse(r.stdout).checks.find((c: { id: string }) => c.id === "outer-layer");
  assert.equal(outer.data.status, "confined");
  assert.match(outer.detail, /^confined: started under the retie flags/);
});

Deno.test("narrow: --unconfined runs broad, with a banner, and doctor fails the line", async () => {
  const r = await denoRun(["-A"], ["--unconfined", "doctor", "--json"]);
  assert.match(r.stderr, /warning: --unconfined: retie runs with all permissions/);
  const outer = JSON.parse(r.stdout).checks.find((c: { id: string }) => c.id === "outer-layer");
  assert.equal(outer.verdict, "fail");
  assert.equal(r.code, 1);
});

Deno.test("narrow: a child still broad after re-executing refuses to start", async () => {
  const r = await denoRun(["-A"], ["doctor"], { env: { RETIE_NARROWED: "all permissions" } });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /still holds all permissions.*refusing to start/);
  assert.equal(r.stdout, "");
});

Deno.test("narrow: exit status, stdout and stderr pass through the re-exec", async () => {
  const ws = Deno.makeTempDirSync({ prefix: "retie-narrow-" });
  const r = await denoRun(["-A"], [
    "sandbox",
    "--workspace",
    ws,
    "--",
    "sh",
    "-c",
    "echo to-out; echo to-err >&2; exit 7",
  ]);
  assert.equal(r.code, 7, r.stderr);
  assert.match(r.stdout, /to-out/);
  assert.match(r.stderr, /to-err/);
});

Deno.test("narrow: stdin reaches the narrowed child (a headless objective piped in)", async () => {
  const iso = isolatedEnv();
  const ws = Deno.makeTempDirSync({ prefix: "retie-narrow-" });
  Deno.writeTextFileSync(join(ws, "a.txt"), "hello\n");
  const emu = startOllamaEmulator({ script: [{ text: "done" }, { text: "done" }] });
  try {
    const r = await denoRun(["-A"], [
      "--ledger",
      join(iso.dir, "l.db"),
      "run",
      ws,
      "--headless",
      ...emulatorFlags(emu.url),
    ], { stdin: "say done\n", env: { ...iso.env, OPENAI_API_KEY: "test-key" } });
    assert.equal(r.code, 0, r.stderr);
    const req = emu.requests.at(-1);
    assert.match(JSON.stringify(req?.body), /say done/);
    // The session notes how its outer layer came about.
    assert.deepEqual(outerLayerEvents(join(iso.dir, "l.db")), [["narrowed", "local"]]);
    // --unconfined: the same run, broad, announced, and noted as such.
    const u = await denoRun(["-A"], [
      "--ledger",
      join(iso.dir, "u.db"),
      "--unconfined",
      "run",
      ws,
      "--headless",
      "-p",
      "say done",
      ...emulatorFlags(emu.url),
    ], { env: { ...iso.env, OPENAI_API_KEY: "test-key" } });
    assert.equal(u.code, 0, u.stderr);
    assert.match(u.stderr, /warning: --unconfined/);
    assert.deepEqual(outerLayerEvents(join(iso.dir, "u.db")), [["unconfined", null]]);
  } finally {
    await emu.close();
  }
});

function outerLayerEvents(path: string): [string, string | null][] {
  const ledger = openLedger(path);
  try {
    return ledger.entries().filter((e) => e.kind === "event" && e.payload.type === "outer-layer")
      .map((e) => [String(e.payload.status), (e.payload.profile as string | null) ?? null]);
  } finally {
    ledger.close();
  }
}

Deno.test("narrow: a SIGTERM sent to the parent reaches the narrowed child", async () => {
  const ws = Deno.makeTempDirSync({ prefix: "retie-narrow-" });
  const marker = join(ws, "started");
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      join(ROOT, "main.ts"),
      "sandbox",
      "--workspace",
      ws,
      "--",
      "sh",
      "-c",
      "touch started; sleep 20",
    ],
    env: env(),
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  for (let i = 0; i < 600; i++) {
    try {
      Deno.statSync(marker);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  child.kill("SIGTERM"); // the parent only: the child is told by the parent, or not at all
  const status = await child.status;
  await child.stderr.cancel();
  assert.equal(status.code, 128 + 15);
  // The narrowed retie (and the sandboxed sleep with it) is gone too: had the signal not been
  // passed on, the parent would have died alone and left them running.
  let left: string[] = [];
  for (let i = 0; i < 100; i++) {
    left = processesMentioning(ws);
    if (left.length === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.deepEqual(left, []);
});

/** Command lines of running processes that mention `text` (Linux /proc). */
function processesMentioning(text: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const cmd = Deno.readTextFileSync(`/proc/${e.name}/cmdline`).replaceAll("\0", " ");
      if (cmd.includes(text)) out.push(`${e.name}: ${cmd}`);
    } catch { /* ended meanwhile */ }
  }
  return out;
}
