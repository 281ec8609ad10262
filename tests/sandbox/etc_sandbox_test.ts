import assert from "node:assert/strict";
import { join } from "node:path";
import { prepareSandboxed, runSandboxed } from "../../src/sandbox/run.ts";
import { ETC_ALLOWLIST } from "../../src/sandbox/bwrap_args.ts";
import { workspaceProfile } from "../../src/sandbox/profile.ts";
import { cacheDir, withBaseDirs } from "../../src/core/dirs.ts";
import { profileFor } from "./fixture.ts";

/** Where the sandbox's /etc comes from in a prepared argv: [source, ...] of binds onto /etc. */
function etcSources(args: string[]): string[] {
  return args.flatMap((a, i) =>
    (a === "--ro-bind" || a === "--ro-bind-try" || a === "--bind") && args[i + 2] === "/etc"
      ? [args[i + 1]]
      : []
  );
}

function onHost(program: string): boolean {
  return ["/usr/local/bin", "/usr/bin", "/bin"].some((d) => {
    try {
      return Deno.statSync(join(d, program)).isFile;
    } catch {
      return false;
    }
  });
}

async function inSandbox(command: string, ws: string) {
  return await runSandboxed({ profile: profileFor(ws), command, timeoutMs: 20_000 });
}

/** Runs `fn` with retie's cache under `dir` (this isolate only; the process env is shared). */
function withCacheHome<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  return withBaseDirs({ XDG_CACHE_HOME: dir }, fn);
}

Deno.test("etc in the sandbox: one read-only view, only allowlisted names, host content", async () => {
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-etc-" }));
  try {
    const [src] = etcSources(prepareSandboxed(profileFor(ws), "true").args);
    assert.ok(src.startsWith(Deno.realPathSync(cacheDir()) + "/sandbox-etc/"), src);
    const r = await inSandbox(
      [
        "ls -A /etc",
        "echo ---; cat /etc/passwd",
        "echo ---; test -e /etc/shadow && echo shadow",
        "test -e /etc/ssl/private && echo ssl-private",
        "touch /etc/x 2>/dev/null && echo wrote-etc",
        "echo >> /etc/passwd 2>/dev/null && echo wrote-passwd",
        `awk '$5 == "/etc" { print "etc-mount=" $6 }' /proc/self/mountinfo`,
        "true",
      ].join("\n"),
      ws,
    );
    assert.equal(r.code, 0, r.stderr);
    const [names, passwd, rest] = r.stdout.split("---\n");
    const expected = new Set(
      ETC_ALLOWLIST.filter((e) => {
        try {
          Deno.statSync(e);
          return true;
        } catch {
          return false;
        }
      }).map((e) => e.split("/")[2]),
    );
    assert.deepEqual(names.trim().split("\n").sort(), [...expected].sort());
    assert.equal(passwd, Deno.readTextFileSync("/etc/passwd"));
    assert.match(rest, /^etc-mount=ro,[^\n]*\n$/, "exactly one mount at /etc, read-only");
    assert.equal(Deno.readTextFileSync(join(src, "passwd")), Deno.readTextFileSync("/etc/passwd"));
  } finally {
    Deno.removeSync(ws, { recursive: true });
  }
});

const CA_COUNT =
  "python3 -c 'import ssl; print(ssl.create_default_context().cert_store_stats()[\"x509_ca\"])'";

/** The same command's output on the host, to compare with the sandbox's. */
function onHostOutput(command: string): string {
  const out = new Deno.Command("/bin/sh", { args: ["-c", command], stdout: "piped" }).outputSync();
  return new TextDecoder().decode(out.stdout);
}

for (
  const [program, command, expect] of [
    ["getent", "getent hosts localhost", /localhost/],
    ["git", "git --version", /^git version /],
    ["python3", CA_COUNT, null], // the CA store loads through /etc/ssl/certs' links into /usr
  ] as const
) {
  Deno.test({
    name: `etc in the sandbox: \`${command}\` still works`,
    ignore: !onHost(program),
    fn: async () => {
      const ws = Deno.makeTempDirSync({ prefix: "retie-etc-" });
      try {
        const r = await inSandbox(command, ws);
        assert.equal(r.code, 0, r.stderr);
        if (expect) assert.match(r.stdout, expect);
        else assert.equal(r.stdout, onHostOutput(command));
      } finally {
        Deno.removeSync(ws, { recursive: true });
      }
    },
  });
}

Deno.test("etc in the sandbox: a cache dir inside the workspace: no view built there, per-entry binds", async () => {
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-etc-" }));
  try {
    const cache = join(ws, ".cache");
    Deno.mkdirSync(join(cache, "retie"), { recursive: true });
    await withCacheHome(cache, async () => {
      const profile = workspaceProfile(ws);
      assert.deepEqual(profile.hidden, [join(cache, "retie")]);
      const args = prepareSandboxed(profile, "true").args;
      assert.deepEqual(etcSources(args), [], "a view there would be writable by the command");
      assert.deepEqual([...Deno.readDirSync(join(cache, "retie"))], [], "nothing copied into ws");
      assert.ok(args.includes("/etc/passwd"));
      const r = await runSandboxed({
        profile,
        command: "cat /etc/passwd | wc -l; ls -A /etc | grep -c shadow; ls -A .cache/retie | wc -l",
        timeoutMs: 20_000,
      });
      const lines = Deno.readTextFileSync("/etc/passwd").split("\n").length - 1;
      assert.equal(r.stdout, `${lines}\n0\n0\n`, r.stderr);
    });
  } finally {
    Deno.removeSync(ws, { recursive: true });
  }
});

Deno.test("etc in the sandbox: an unwritable cache dir falls back to per-entry binds", async () => {
  const ws = Deno.makeTempDirSync({ prefix: "retie-etc-" });
  try {
    await withCacheHome("/proc/retie-cannot-write-here", async () => {
      const args = prepareSandboxed(profileFor(ws), "true").args;
      assert.deepEqual(etcSources(args), []);
      assert.ok(args.includes("/etc/passwd"));
      const r = await inSandbox("cat /etc/hostname", ws);
      assert.equal(r.stdout, Deno.readTextFileSync("/etc/hostname"), r.stderr);
    });
  } finally {
    Deno.removeSync(ws, { recursive: true });
  }
});
