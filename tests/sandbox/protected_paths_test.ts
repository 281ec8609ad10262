import assert from "node:assert/strict";
import { join } from "node:path";
import { gitControl, gitProtectedPaths } from "../../src/sandbox/protected_paths.ts";
import { runSandboxed } from "../../src/sandbox/run.ts";
import { workspaceProfile } from "../../src/sandbox/profile.ts";
import { withBaseDirs } from "../../src/core/dirs.ts";

function git(cwd: string, ...args: string[]) {
  const r = new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" }).outputSync();
  if (r.code !== 0) throw new Error(new TextDecoder().decode(r.stderr));
}

function repoLayout(): string {
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-git-" }));
  git(ws, "init", "-q");
  Deno.mkdirSync(join(ws, "vendor", "inner"), { recursive: true });
  git(join(ws, "vendor", "inner"), "init", "-q");
  return ws;
}

Deno.test("protected paths: .git/hooks and .git/config of the repo and a nested repo", () => {
  const ws = repoLayout();
  try {
    const p = gitProtectedPaths(ws);
    for (const g of [".git", "vendor/inner/.git"]) {
      for (const e of ["config", "hooks", "info"]) assert.ok(p.includes(join(ws, g, e)), p.join());
    }
    assert.ok(!p.includes(join(ws, ".git/objects")) && !p.includes(join(ws, ".git/refs")));
    assert.deepEqual(
      gitControl(ws).pinned,
      new Set([join(ws, ".git"), join(ws, "vendor/inner/.git")]),
    );
  } finally {
    Deno.removeSync(ws, { recursive: true });
  }
});

Deno.test("protected paths: a submodule's git dir is protected and pinned; a .git file is followed", () => {
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-git-" }));
  try {
    git(ws, "init", "-q");
    Deno.removeSync(join(ws, ".git/hooks"), { recursive: true });
    // a submodule-like checkout whose git dir lives in .git/modules/sub
    Deno.mkdirSync(join(ws, ".git/modules/sub"), { recursive: true });
    git(join(ws, ".git/modules/sub"), "init", "-q", "--bare");
    Deno.mkdirSync(join(ws, "sub"));
    Deno.writeTextFileSync(join(ws, "sub/.git"), "gitdir: ../.git/modules/sub\n");
    const p = gitProtectedPaths(ws);
    assert.ok(!p.includes(join(ws, ".git/hooks")), p.join(","));
    assert.ok(gitControl(ws).pinned.has(join(ws, ".git/modules/sub")));
    assert.ok(p.includes(join(ws, ".git/modules/sub/hooks")));
    assert.ok(p.includes(join(ws, ".git/modules/sub/config")));
    assert.ok(p.includes(join(ws, "sub/.git")));
  } finally {
    Deno.removeSync(ws, { recursive: true });
  }
});

Deno.test("protected paths: core.hooksPath inside the workspace is protected", () => {
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-git-" }));
  try {
    git(ws, "init", "-q");
    Deno.mkdirSync(join(ws, ".husky"));
    git(ws, "config", "core.hooksPath", ".husky");
    assert.ok(gitProtectedPaths(ws).includes(join(ws, ".husky")));
  } finally {
    Deno.removeSync(ws, { recursive: true });
  }
});

Deno.test("protected paths: config files included from the workspace are protected, and read-only", async () => {
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-git-" }));
  try {
    git(ws, "init", "-q");
    Deno.writeTextFileSync(join(ws, "project.gitconfig"), '[include]\n\tpath = "conf/more.cfg"\n');
    Deno.mkdirSync(join(ws, "conf"));
    Deno.writeTextFileSync(join(ws, "conf/more.cfg"), "[alias]\n\tst = status\n");
    Deno.writeTextFileSync(join(ws, "README"), "path = README\n");
    git(ws, "config", "include.path", "../project.gitconfig");
    git(ws, "config", "includeIf.gitdir:/.path", `${ws}/conf/more.cfg`);
    git(ws, "config", "submodule.x.path", "README"); // a `path` outside [include]: not a config
    const p = gitProtectedPaths(ws);
    assert.ok(p.includes(join(ws, "project.gitconfig")), p.join(","));
    assert.ok(p.includes(join(ws, "conf/more.cfg")), p.join(","));
    assert.ok(!p.includes(join(ws, "README")), p.join(","));
    const r = await runSandboxed({
      profile: workspaceProfile(ws),
      command: "echo '[core] fsmonitor = evil' >> project.gitconfig 2>/dev/null && echo written",
      timeoutMs: 10_000,
    });
    assert.equal(r.stdout, "", r.stderr);
    assert.doesNotMatch(Deno.readTextFileSync(join(ws, "project.gitconfig")), /evil/);
  } finally {
    Deno.removeSync(ws, { recursive: true });
  }
});

Deno.test("protected paths: inside the sandbox hooks/config are read-only, git still commits", async () => {
  const ws = repoLayout();
  try {
    const r = await runSandboxed({
      profile: workspaceProfile(ws),
      command: [
        "echo 'curl evil' > .git/hooks/pre-commit 2>/dev/null && echo hook-written",
        "echo '[core] fsmonitor = evil' >> .git/config 2>/dev/null && echo config-written",
        "git config core.hooksPath /tmp 2>/dev/null && echo hookspath-set",
        "echo x > vendor/inner/.git/hooks/post-checkout 2>/dev/null && echo inner-hook-written",
        "echo x >> vendor/inner/.git/config 2>/dev/null && echo inner-config-written",
        "echo hi > f && git add f && git -c user.name=a -c user.email=a@b commit -qm m && echo committed",
      ].join("\n"),
      timeoutMs: 20_000,
    });
    assert.equal(r.stdout, "committed\n", r.stderr);
    assert.throws(() => Deno.statSync(join(ws, ".git/hooks/pre-commit")));
    assert.doesNotMatch(Deno.readTextFileSync(join(ws, ".git/config")), /evil|hooksPath/i);
  } finally {
    Deno.removeSync(ws, { recursive: true });
  }
});

Deno.test("workspace profile: excluded paths read-only, retie state inside the workspace hidden", async () => {
  const ws = repoLayout();
  try {
    Deno.mkdirSync(join(ws, "node_modules", "dep"), { recursive: true });
    Deno.mkdirSync(join(ws, ".state", "retie"), { recursive: true });
    Deno.writeTextFileSync(join(ws, ".state", "retie", "ledger.db"), "LEDGER");
    // This isolate only: the process environment is shared with the tests running beside this one.
    await withBaseDirs({ XDG_STATE_HOME: join(ws, ".state") }, async () => {
      const p = workspaceProfile(ws, { snapshotExclude: ["node_modules"] });
      assert.ok(p.readOnly.includes(join(ws, "node_modules")));
      assert.deepEqual(p.hidden, [join(ws, ".state", "retie")]);
      const r = await runSandboxed({
        profile: p,
        command:
          "ls .state/retie | wc -l; touch node_modules/dep/x 2>/dev/null && echo wrote; echo ok > f && echo ws-writable",
        timeoutMs: 10_000,
      });
      assert.equal(r.stdout, "0\nws-writable\n", r.stderr);
      assert.throws(
        () => workspaceProfile(join(ws, ".state", "retie")),
        /lies inside retie's own state/,
      );
    });
  } finally {
    Deno.removeSync(ws, { recursive: true });
  }
});

Deno.test("protected paths: a repository made after an earlier call is found, however its directory's times are set", async () => {
  const ws = repoLayout();
  try {
    const before = gitProtectedPaths(ws);
    // Right away (its directory changed within the same second as the listing)…
    Deno.mkdirSync(join(ws, "lib", "sub"), { recursive: true });
    git(join(ws, "lib", "sub"), "init", "-q");
    assert.ok(gitProtectedPaths(ws).includes(join(ws, "lib/sub/.git/hooks")));
    // …and once the listings are old enough to be reused, with the directory's mtime set back to
    // what it was (ctime still moves: nothing can set it back).
    const old = new Date(Date.now() - 3_600_000);
    for (const d of [join(ws, "lib"), join(ws, "lib", "sub"), join(ws, "vendor")]) {
      Deno.utimeSync(d, old, old);
    }
    const stamp = Deno.lstatSync(join(ws, "vendor")).mtime!;
    Deno.writeTextFileSync(join(ws, "vendor", "keep"), "");
    gitProtectedPaths(ws);
    // Listings are reused once the directory's ctime is more than a second older than the read.
    await new Promise((r) => setTimeout(r, 2_100));
    gitProtectedPaths(ws);
    // Two repositories before, three now (each with as many control paths).
    assert.deepEqual(gitProtectedPaths(ws).length, (before.length / 2) * 3);
    Deno.mkdirSync(join(ws, "vendor", "third"));
    git(join(ws, "vendor", "third"), "init", "-q");
    Deno.utimeSync(join(ws, "vendor"), stamp, stamp);
    assert.ok(gitProtectedPaths(ws).includes(join(ws, "vendor/third/.git/config")));
  } finally {
    Deno.removeSync(ws, { recursive: true });
  }
});

Deno.test("protected paths: a FIFO or a device where git keeps a file is never read (no hang)", () => {
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-git-" }));
  try {
    git(ws, "init", "-q");
    for (const d of ["a", "b/.git", "c"]) Deno.mkdirSync(join(ws, d), { recursive: true });
    const fifo = (p: string) => new Deno.Command("mkfifo", { args: [join(ws, p)] }).outputSync();
    fifo("a/.git");
    fifo("b/.git/config");
    fifo(".git/commondir");
    Deno.writeTextFileSync(join(ws, "b/.git/HEAD"), "ref: refs/heads/main\n");
    Deno.symlinkSync("/dev/zero", join(ws, "c/.git"));
    const c = gitControl(ws);
    for (const p of ["a/.git", "b/.git", "b/.git/config", "c/.git", ".git/commondir"]) {
      assert.ok(c.identity.has(join(ws, p)), p);
    }
  } finally {
    Deno.removeSync(ws, { recursive: true });
  }
});
