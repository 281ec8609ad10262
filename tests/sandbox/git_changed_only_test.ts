/**
 * The check after a staged command's apply looks again only at what the apply touched
 * (`revertGitControl(ws, before, { changedOnly })`): every control path those paths create or
 * swap is still found and removed, wherever it lies below them.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { revertGitControl } from "../../src/sandbox/git_guard.ts";
import { gitControl } from "../../src/sandbox/protected_paths.ts";

function git(cwd: string, ...args: string[]): void {
  const r = new Deno.Command("git", { args, cwd, stdout: "null", stderr: "piped" }).outputSync();
  if (r.code !== 0) throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(r.stderr)}`);
}

function repo(): { ws: string; before: Record<string, string>; cleanup: () => void } {
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-gco-" }));
  git(ws, "init", "-q");
  git(ws, "config", "core.hooksPath", "team-hooks");
  for (const d of ["a", "deep/sub", "other"]) Deno.mkdirSync(join(ws, d), { recursive: true });
  const before = Object.fromEntries(gitControl(ws).identity);
  return { ws, before, cleanup: () => Deno.removeSync(ws, { recursive: true }) };
}

const exists = (p: string) => {
  try {
    Deno.lstatSync(p);
    return true;
  } catch {
    return false;
  }
};

Deno.test("changedOnly: a repository created in a new directory is removed", () => {
  const { ws, before, cleanup } = repo();
  try {
    Deno.mkdirSync(join(ws, "fresh/x/y"), { recursive: true });
    git(join(ws, "fresh/x/y"), "init", "-q");
    const r = revertGitControl(ws, before, { changedOnly: ["fresh"] });
    assert.deepEqual(r.removed, [join(ws, "fresh/x/y/.git")]);
    assert.equal(exists(join(ws, "fresh/x/y/.git")), false);
  } finally {
    cleanup();
  }
});

Deno.test("changedOnly: a .git, a bare repository and a hooks directory added in place", () => {
  const { ws, before, cleanup } = repo();
  try {
    git(join(ws, "a"), "init", "-q");
    git(join(ws, "deep/sub"), "init", "-q", "--bare", "lib.git");
    Deno.mkdirSync(join(ws, "team-hooks"));
    Deno.writeTextFileSync(join(ws, "team-hooks/pre-commit"), "#!/bin/sh\n");
    const r = revertGitControl(ws, before, {
      changedOnly: ["a/.git", "deep/sub/lib.git", "team-hooks"],
    });
    assert.deepEqual(
      [...r.removed].sort(),
      [join(ws, "a/.git"), join(ws, "deep/sub/lib.git"), join(ws, "team-hooks")].sort(),
    );
    assert.deepEqual(r.failed, []);
  } finally {
    cleanup();
  }
});

Deno.test("changedOnly: a control entry added inside the existing git dir is removed", () => {
  const { ws, before, cleanup } = repo();
  try {
    Deno.writeTextFileSync(join(ws, ".git/config.worktree"), "[core]\n\tfsmonitor = x\n");
    const r = revertGitControl(ws, before, { changedOnly: [".git/config.worktree"] });
    assert.deepEqual(r.removed, [join(ws, ".git/config.worktree")]);
  } finally {
    cleanup();
  }
});

Deno.test("changedOnly: directories the apply did not touch are not read again", () => {
  const { ws, before, cleanup } = repo();
  try {
    // Written by someone else meanwhile (not by the apply): left to the next full look.
    git(join(ws, "other"), "init", "-q");
    assert.deepEqual(revertGitControl(ws, before, { changedOnly: ["a/file.txt"] }).removed, []);
    assert.equal(exists(join(ws, "other/.git")), true);
    // A full look finds it.
    assert.deepEqual(revertGitControl(ws, before).removed, [join(ws, "other/.git")]);
  } finally {
    cleanup();
  }
});
