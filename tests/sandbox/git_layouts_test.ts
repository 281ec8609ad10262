/**
 * Git layouts × write paths, as a property: for every layout git knows (plain repository, linked
 * worktree, submodule, `.git` file, bare/commondir, nested repository, and the workspace inside a
 * repository whose `.git` lies outside), every control path it has — existing or not yet — is
 * (a) refused to the file tools without a person (irreversible in effect), and (b) after a
 * sandboxed command that writes, creates, swaps or renames it, never new or changed (a command may
 * destroy a repository's data, which its undo snapshot restores; it cannot plant anything).
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join, relative } from "node:path";
import { checkSandbox } from "../../src/sandbox/check.ts";
import { workspaceSandbox } from "../../src/sandbox/profile.ts";
import { runSandboxed } from "../../src/sandbox/run.ts";
import { revertGitControl } from "../../src/sandbox/git_guard.ts";
import { gitControl, gitProtectedCover } from "../../src/sandbox/protected_paths.ts";
import { writeTool } from "../../src/tools/write.ts";
import { fixture } from "../tools/tool_ctx.ts";

const sandbox = await checkSandbox();

function git(cwd: string, ...args: string[]): void {
  const r = new Deno.Command("git", {
    args: [
      "-c",
      "user.name=u",
      "-c",
      "user.email=u@x",
      "-c",
      "protocol.file.allow=always",
      ...args,
    ],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  if (r.code !== 0) throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(r.stderr)}`);
}

function commit(dir: string): void {
  Deno.writeTextFileSync(join(dir, "f.txt"), "f\n");
  git(dir, "add", ".");
  git(dir, "commit", "-qm", "c");
}

/** Each layout: builds it in `ws` and names the git dirs whose control paths are probed. */
const LAYOUTS: Record<string, (ws: string, base: string) => string[]> = {
  plain: (ws) => {
    git(ws, "init", "-q");
    commit(ws);
    return [".git"];
  },
  "linked worktree": (ws) => {
    git(ws, "init", "-q");
    commit(ws);
    git(ws, "worktree", "add", "-q", "wt", "-b", "b");
    return [".git/worktrees/wt", "wt/.git"];
  },
  submodule: (ws, base) => {
    const lib = join(base, "lib");
    Deno.mkdirSync(lib);
    git(lib, "init", "-q");
    commit(lib);
    git(ws, "init", "-q");
    commit(ws);
    git(ws, "submodule", "add", "-q", lib, "sm");
    return [".git/modules/sm", "sm/.git"];
  },
  ".git file": (ws) => {
    Deno.mkdirSync(join(ws, "store"));
    git(join(ws, "store"), "init", "-q", "--bare", "repo.git");
    Deno.mkdirSync(join(ws, "tree"));
    Deno.writeTextFileSync(join(ws, "tree/.git"), "gitdir: ../store/repo.git\n");
    return ["store/repo.git", "tree/.git"];
  },
  "bare/commondir": (ws) => {
    git(ws, "init", "-q", "--bare", "main.git");
    Deno.mkdirSync(join(ws, "linked"));
    Deno.writeTextFileSync(join(ws, "linked/HEAD"), "ref: refs/heads/main\n");
    Deno.writeTextFileSync(join(ws, "linked/commondir"), "../main.git\n");
    return ["main.git", "linked"];
  },
  nested: (ws) => {
    git(ws, "init", "-q");
    Deno.mkdirSync(join(ws, "a/b"), { recursive: true });
    git(join(ws, "a/b"), "init", "-q");
    return [".git", "a/b/.git"];
  },
  "inside an outer repo": (ws) => {
    // The workspace is a subdirectory of a repository whose .git lies outside it: a .git made in
    // the workspace would take over.
    git(join(ws, ".."), "init", "-q");
    return ["."];
  },
};

const CONTROL = [
  "config",
  "config.worktree",
  "hooks/pre-commit",
  "info/attributes",
  "commondir",
  "gitdir",
  "objects/info/alternates",
  "remotes/origin",
];

/** Every control path git reads in `ws`, with its identity and contents (a directory: its tree). */
function controlState(ws: string): Map<string, string> {
  const out = new Map<string, string>();
  const digest = (p: string): string => {
    const st = Deno.lstatSync(p);
    if (st.isSymlink) return `l:${Deno.readLinkSync(p)}`;
    if (!st.isDirectory) {
      return `f:${createHash("sha256").update(Deno.readFileSync(p)).digest("hex")}`;
    }
    const names = [...Deno.readDirSync(p)].map((e) => e.name).sort();
    return `d:${names.map((n) => `${n}=${digest(join(p, n))}`).join(",")}`;
  };
  for (const [p, id] of gitControl(ws).identity) {
    // A git dir itself: its identity; its control entries are listed on their own.
    const st = Deno.lstatSync(p);
    const isGitDir = st.isDirectory && !/\/(hooks|info|remotes|branches)$/.test(p);
    out.set(relative(ws, p), isGitDir ? id : `${id} ${digest(p)}`);
  }
  return out;
}

/** Builds a layout in a fresh workspace of fixture `f`, and its control state before anything. */
function layoutIn(
  f: { ws: string; root: string },
  build: (ws: string, base: string) => string[],
): { ws: string; dirs: string[]; before: Map<string, string> } {
  const ws = join(f.ws, "w");
  Deno.mkdirSync(ws);
  const dirs = build(ws, f.root);
  return { ws, dirs, before: controlState(ws) };
}

for (const [name, build] of Object.entries(LAYOUTS)) {
  Deno.test(`git layout "${name}": the file tools ask before writing any control path`, async () => {
    const f = fixture();
    try {
      const ws = join(f.ws, "w");
      Deno.mkdirSync(ws);
      const ctx = { ...f.ctx, workspace: ws };
      const dirs = build(ws, f.root);
      for (const g of dirs) {
        const targets = g === "." ? [".git", ".git/config", ".GIT/config"] : [
          ...CONTROL.map((c) => `${g}/${c}`),
          ...(g.endsWith(".git") ? [g] : []),
        ];
        for (const t of targets) {
          const eff = await writeTool.classify(
            writeTool.schema.parse({ path: t, content: "x" }),
            ctx,
          )
            .catch((e) => ({ class: "refused", reason: String(e) }));
          assert.notEqual(eff.class, "reversible", `${name}: write ${t} is ${eff.class}`);
        }
      }
      // A write that would make a directory a git dir (its HEAD) needs a person too.
      Deno.mkdirSync(join(ws, "x/objects"), { recursive: true });
      assert.notEqual(gitProtectedCover(ws, join(ws, "x/HEAD")), null);
      assert.equal(gitProtectedCover(ws, join(ws, "src/main.ts")), null);
    } finally {
      f.cleanup();
    }
  });

  Deno.test({
    name:
      `git layout "${name}": after any sandboxed write, create, swap or rename, git's files are as they were`,
    ignore: !sandbox.available,
    fn: async () => {
      const f = fixture();
      try {
        const { ws, dirs, before } = layoutIn(f, build);
        assert.ok(before.size > 0 || name === "inside an outer repo", `${name}: nothing found`);
        const attacks: string[] = [];
        for (const g of dirs) {
          for (const c of CONTROL) {
            const p = g === "." ? `.git/${c}` : `${g}/${c}`;
            attacks.push(`mkdir -p "$(dirname ${p})" 2>/dev/null; echo evil >> ${p}`);
          }
          attacks.push(
            `mv ${g === "." ? ".git" : g} moved-away && mkdir -p ${g === "." ? ".git" : g}`,
          );
          attacks.push(
            `rm -rf ${g === "." ? ".git" : g} 2>/dev/null; git init -q ${g === "." ? "." : g}`,
          );
          attacks.push(
            `ln -s /tmp ${g === "." ? ".git" : g}/hooks2; ln -sfn ../evil ${g}/commondir`,
          );
        }
        attacks.push("mkdir -p z && cd z && git init -q && echo evil >> .git/config");
        // Rename every top-level directory away, then plant repositories where they were.
        attacks.push(
          'mkdir -p wrap && for d in */; do [ "$d" = wrap/ ] || mv "$d" wrap/ 2>/dev/null; done; ' +
            'for d in wrap/*/; do n=$(basename "$d"); mkdir -p "$n" && git init -q "$n" && ' +
            'echo evil >> "$n/.git/config"; done',
        );
        attacks.push(
          "mkdir -p y/objects y/refs && echo 'ref: refs/heads/m' > y/HEAD && echo evil > y/config",
        );
        for (const cmd of attacks) {
          const { profile, git } = workspaceSandbox(ws);
          await runSandboxed({ profile, command: cmd, timeoutMs: 20_000 });
          const g = revertGitControl(ws, Object.fromEntries(git.identity));
          assert.deepEqual(g.failed, [], `${name}: ${cmd}`);
          // Nothing new and nothing changed among git's control paths (a command may destroy a
          // repository — HEAD, objects — which the undo snapshot restores; it may not plant).
          // A path may hold the very same file under a new name (a parent was renamed): the
          // user's own, unchanged.
          const known = new Set(before.values());
          for (const [p, v] of controlState(ws)) {
            assert.ok(
              v === before.get(p) || known.has(v),
              `${name}: \`${cmd}\` left ${p} planted or changed`,
            );
          }
        }
      } finally {
        f.cleanup();
      }
    },
  });

  Deno.test({
    name:
      `git layout "${name}": renaming parents away keeps the user's repositories, plants nothing`,
    ignore: !sandbox.available,
    fn: async () => {
      const f = fixture();
      try {
        const { ws, before } = layoutIn(f, build);
        const { profile, git } = workspaceSandbox(ws);
        await runSandboxed({
          profile,
          command: 'mkdir -p wrap && for d in */; do [ "$d" = wrap/ ] || mv "$d" wrap/; done; ' +
            'for d in wrap/*/; do n=$(basename "$d"); mkdir -p "$n" && git init -q "$n"; done',
          timeoutMs: 20_000,
        });
        const g = revertGitControl(ws, Object.fromEntries(git.identity));
        assert.deepEqual(g.failed, []);
        const after = new Set(controlState(ws).values());
        const known = new Set(before.values());
        for (const v of after) assert.ok(known.has(v), `${name}: planted ${v}`);
        // Nothing of the user's was taken away by the check: every control file is still there.
        for (const v of known) assert.ok(after.has(v), `${name}: lost ${v}`);
      } finally {
        f.cleanup();
      }
    },
  });
}
