/**
 * What ships: the compiled-in permission flags equal permissions/*.flags; the JSR package passes
 * a strict dry run and leaves tests, fixtures and benchmarks out; the binary includes every
 * worker module and file read at run time; the release workflow does each of its steps through
 * the same tasks; the README's install line carries the same flags.
 */
import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import {
  BASE_FLAGS,
  DEMO_FLAGS,
  DENY_LOOPBACK_FLAGS,
  parseFlagsFile,
  profileFlags,
} from "../../src/core/permission_flags.ts";
import { ROOT } from "../helpers/retie_process.ts";

const denoJson = JSON.parse(Deno.readTextFileSync(join(ROOT, "deno.json")));
const tasks: Record<string, string> = denoJson.tasks;
const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
];

Deno.test("ship: the flags compiled into retie are the ones in permissions/", () => {
  const file = (f: string) => parseFlagsFile(Deno.readTextFileSync(join(ROOT, "permissions", f)));
  assert.deepEqual(BASE_FLAGS, file("base.flags"));
  assert.deepEqual(DENY_LOOPBACK_FLAGS, file("deny-loopback.flags"));
  const both = "$(cat permissions/base.flags permissions/deny-loopback.flags)";
  for (const t of ["retie", "demo", "compile:target", "install"]) {
    assert.ok(tasks[t].includes(both), `task ${t} does not use both flag files`);
  }
  assert.ok(tasks["retie:local"].includes("$(cat permissions/base.flags)"));
  for (const f of DEMO_FLAGS) assert.ok(tasks.demo.includes(f), `demo task lacks ${f}`);
});

async function deno(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, text: dec.decode(out.stdout) + dec.decode(out.stderr) };
}

Deno.test("ship: deno publish --dry-run passes strictly and ships no tests or benchmarks", async () => {
  const r = await deno(["publish", "--dry-run", "--allow-dirty"]);
  assert.equal(r.code, 0, r.text);
  assert.doesNotMatch(r.text, /slow-types/);
  const files = [...r.text.matchAll(/^\s+file:\/\/(\S+)/gm)].map((m) => relative(ROOT, m[1]));
  assert.ok(files.includes("main.ts"), r.text);
  assert.ok(files.includes("src/cli/narrow.ts"));
  assert.ok(files.includes("src/snapshot/walk_worker.ts"));
  const shipped = files.filter((f) => /^(tests|bench|scripts|\.ci|\.github|dist)\//.test(f));
  assert.deepEqual(shipped, []);
  assert.ok(!files.includes(".git"));
});

Deno.test("ship: deno doc --lint is clean for the exports", async () => {
  const entries = Object.values(denoJson.exports as Record<string, string>);
  const r = await deno(["doc", "--lint", ...entries]);
  assert.equal(r.code, 0, r.text);
});

function walk(dir: string, out: string[] = []): string[] {
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) walk(p, out);
    else if (p.endsWith(".ts")) out.push(p);
  }
  return out;
}

function stripComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'])\/\/.*$/gm, "$1");
}

/** Files retie loads by URL at run time (workers, data), and problems that hide one. */
function runtimeFiles(): { files: Set<string>; problems: string[] } {
  const files = new Set<string>();
  const problems: string[] = [];
  const sources = [...walk(join(ROOT, "src")), join(ROOT, "main.ts"), join(ROOT, "demo.ts")];
  for (const file of sources) {
    const code = stripComments(Deno.readTextFileSync(file));
    const rel = relative(ROOT, file);
    const urls = [
      ...code.matchAll(/new URL\(\s*["'`]([^"'`]+)["'`]\s*,\s*import\.meta\.url\s*\)/g),
    ];
    for (const m of urls) files.add(relative(ROOT, resolve(dirname(file), m[1])));
    if (/new Worker\(/.test(code) && urls.length === 0) {
      problems.push(
        `${rel} starts a Worker whose module is not a literal new URL(…, import.meta.url)`,
      );
    }
    for (const m of code.matchAll(/\bimport\(\s*([^)\s][^)]*)\)/g)) {
      if (!/^["'][^"']+["']$/.test(m[1].trim())) {
        problems.push(`${rel} imports ${m[1]} dynamically: deno compile cannot see it`);
      }
    }
    if (/import\.meta\.(dirname|filename)/.test(code)) {
      problems.push(`${rel} reads files next to itself by import.meta.dirname/filename`);
    }
  }
  return { files, problems };
}

Deno.test("ship: every worker and file read at run time is in the compile includes", () => {
  const { files, problems } = runtimeFiles();
  assert.deepEqual(problems, []);
  // The scanner sees the two workers retie has (so this test can fail).
  assert.ok(files.has("src/ledger/verify_worker.ts"), [...files].join(", "));
  assert.ok(files.has("src/snapshot/walk_worker.ts"));
  const includes = new Set(
    [...tasks["compile:target"].matchAll(/--include\s+(\S+)/g)].map((m) => m[1]),
  );
  const missing = [...files].filter((f) => f !== "main.ts" && !includes.has(f));
  assert.deepEqual(missing, [], "add these to the compile:target task's --include list");
  for (const f of includes) assert.ok(Deno.statSync(join(ROOT, f)).isFile, `${f} is not a file`);
  assert.match(tasks["compile:target"], / main\.ts$/);
  for (const t of TARGETS) {
    assert.ok(tasks.compile.includes(`RETIE_TARGET=${t} deno task compile:target`), t);
  }
});

Deno.test("ship: the release workflow publishes by OIDC, builds every target, sums, attests", () => {
  const wf = parseYaml(Deno.readTextFileSync(join(ROOT, ".github/workflows/release.yml")));
  assert.deepEqual(wf.on.push.tags, ["v*.*.*"]);
  const runs = (job: { steps: { run?: string; uses?: string }[] }) =>
    job.steps.map((s) => s.run ?? "").join("\n");
  const uses = (job: { steps: { run?: string; uses?: string }[] }) =>
    job.steps.map((s) => s.uses ?? "");
  assert.match(runs(wf.jobs.check), /deno task publish:check/);
  assert.equal(wf.jobs.jsr.permissions["id-token"], "write");
  assert.match(runs(wf.jobs.jsr), /^deno publish$/m);
  assert.doesNotMatch(JSON.stringify(wf.jobs.jsr), /JSR_TOKEN|--token/);
  const matrix = wf.jobs.binaries.strategy.matrix.include.map((m: { target: string }) => m.target);
  assert.deepEqual(matrix.sort(), [...TARGETS].sort());
  assert.match(
    runs(wf.jobs.binaries),
    /RETIE_TARGET=\$\{\{ matrix\.target \}\} deno task compile:target/,
  );
  assert.match(runs(wf.jobs.release), /sha256sum retie-\* > SHA256SUMS/);
  assert.ok(
    uses(wf.jobs.release).some((u: string) => u.startsWith("actions/attest-build-provenance@")),
  );
  assert.equal(wf.jobs.release.permissions.attestations, "write");
  assert.match(runs(wf.jobs.release), /gh release upload .*dist\/retie-\* dist\/SHA256SUMS/);
});

Deno.test("ship: the README's install lines carry the shipped flags", () => {
  const readme = Deno.readTextFileSync(join(ROOT, "README.md"));
  const jsr = readme.split("\n").find((l) => l.startsWith("deno install -g") && l.includes("jsr:"));
  assert.ok(jsr, "README has no `deno install -g … jsr:@retie/cli` line");
  const flags = jsr.split(/\s+/).map((w) => w.replace(/'/g, "")).filter((w) => w.startsWith("--"));
  assert.deepEqual(flags.sort(), [...profileFlags("retie")].sort());
  assert.match(readme, /deno task install/);
  assert.match(tasks.install, /^deno install -g -f -n retie /);
});

Deno.test("ship: deno task install puts a confined retie on PATH that works where it is run", async () => {
  const root = Deno.makeTempDirSync({ prefix: "retie-install-" });
  const iso = Deno.makeTempDirSync({ prefix: "retie-install-home-" });
  const path = `${join(root, "bin")}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`;
  const env = {
    PATH: path,
    HOME: iso,
    XDG_CONFIG_HOME: join(iso, "config"),
    XDG_STATE_HOME: join(iso, "state"),
    DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache/deno"),
    DENO_INSTALL_ROOT: root,
    NO_COLOR: "1",
  };
  const install = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "install"],
    cwd: ROOT,
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(install.code, 0, new TextDecoder().decode(install.stderr));
  const project = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-project-" }));
  Deno.mkdirSync(join(project, ".retie"));
  Deno.writeTextFileSync(
    join(project, ".retie", "policy.json"),
    JSON.stringify({
      name: "project",
      rules: [{
        id: "no-fetch",
        match: { tools: ["fetch"] },
        decision: "deny",
        justification: "this project never fetches web pages",
      }],
    }),
  );
  const run = async (args: string[]) => {
    const out = await new Deno.Command("retie", {
      args,
      cwd: project,
      env,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
  };
  const doctor = await run(["doctor", "--json"]);
  const outer = JSON.parse(doctor.stdout).checks.find((c: { id: string }) =>
    c.id === "outer-layer"
  );
  assert.equal(outer.data.status, "confined");
  assert.equal(outer.data.profile, "retie");
  const policy = await run(["policy", "--json"]);
  assert.equal(policy.code, 0);
  assert.ok(JSON.parse(policy.stdout).sources.some((s: string) => s.includes(project)));
});
