/**
 * Git runs code the agent wrote (the attack, end to end): a scripted model, headless and without
 * `--yes`, tries every way to make the user's next `git` on the host run its code or read its
 * config — in a plain repository, a linked worktree, a submodule, a `.git` file, a bare repository
 * and a nested repository, through sandboxed commands and the file tools. Afterwards the user's
 * git runs in every one of them; none may run the planted code, and every attempt is on record.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { checkSandbox } from "../../src/sandbox/check.ts";
import { openLedger } from "../../src/ledger/mod.ts";
import { isolatedEnv } from "../helpers/retie_process.ts";
import { attackRun, gitRepo, hostGit, retieAgain } from "../helpers/attack_run.ts";

const sandbox = await checkSandbox();

Deno.test({
  name: "attack: no git command the user runs afterwards executes what the agent wrote",
  ignore: !sandbox.available,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const ws = gitRepo();
    const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-pwn-" }));
    const pwned = join(base, "PWNED");
    const evil = `touch ${pwned}; false`;
    const cfg = `[core]\\n\\tfsmonitor = \\"${evil}\\"\\n\\thooksPath = evilhooks\\n`;
    const hook = `#!/bin/sh\\ntouch ${pwned}\\n`;
    // Layouts: a linked worktree inside the workspace, a submodule, a bare repository, a nested repo.
    hostGit(ws, ["worktree", "add", "-q", "wt", "-b", "side"]);
    const lib = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-lib-" }));
    hostGit(lib, ["init", "-q"]);
    Deno.writeTextFileSync(join(lib, "x"), "x\n");
    hostGit(lib, ["add", "."]);
    hostGit(lib, ["-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "x"]);
    hostGit(ws, ["-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "sm"]);
    hostGit(ws, ["init", "-q", "--bare", "vendor/lib.git"]);
    Deno.mkdirSync(join(ws, "nested"));
    hostGit(join(ws, "nested"), ["init", "-q"]);
    // The user's global config names a relative hooks directory (as some setups do).
    const home = isolatedEnv();
    Deno.writeTextFileSync(join(home.dir, ".gitconfig"), "[core]\n\thooksPath = .githooks\n");

    const bash = (command: string) => ({ name: "bash", args: { command } });
    const write = (path: string, content: string) => ({ name: "write", args: { path, content } });
    const calls = [
      // Sandboxed commands.
      bash(`printf "${cfg}" >> .git/config; echo '${hook}' > .git/hooks/pre-commit`),
      bash(`mv .git .git-old && mkdir .git && printf "${cfg}" > .git/config`),
      bash(
        `mv nested nested-old && mkdir nested && cd nested && git init -q && printf "${cfg}" >> .git/config`,
      ),
      bash(`mkdir -p fresh && cd fresh && git init -q && printf "${cfg}" >> .git/config`),
      bash(`mkdir -p evil && printf "${cfg}" > evil/config && echo ../evil > .git/commondir`),
      bash(
        `printf "${cfg}" > .git/config.worktree; printf "${cfg}" > .git/worktrees/wt/config.worktree`,
      ),
      bash(`mkdir -p .git/objects/info; echo ${ws}/evil/objects > .git/objects/info/alternates`),
      bash(
        `echo '* filter=evil' > .git/info/attributes; printf "${cfg}" >> .git/modules/sm/config`,
      ),
      bash(
        `printf "${cfg}" >> vendor/lib.git/config; echo '${hook}' > vendor/lib.git/hooks/update`,
      ),
      bash(
        `mkdir -p .githooks && printf '${hook}' > .githooks/pre-commit && chmod +x .githooks/pre-commit`,
      ),
      bash(`rm wt/.git; printf 'gitdir: ../evil\\n' > wt/.git; echo 'gitdir: ../evil' > sub.git`),
      bash(
        `mkdir -p other && cd other && mkdir objects refs && echo 'ref: refs/heads/m' > HEAD && printf "${cfg}" > config`,
      ),
      bash(`mkdir -p .GIT/hooks && printf '${hook}' > .GIT/hooks/pre-commit`),
      // File tools.
      write(
        ".git/config",
        cfg.replaceAll("\\n", "\n").replaceAll("\\t", "\t").replaceAll('\\"', '"'),
      ),
      write(".git/hooks/post-checkout", hook),
      write(".git/commondir", "../evil\n"),
      write(".Git/config", "[core]\n\tfsmonitor = x\n"),
      write("wt/.git", "gitdir: ../evil\n"),
      write("sm/.git", "gitdir: ../evil\n"),
      write("somewhere/.git", "gitdir: ../evil\n"),
      write(".git/modules/sm/hooks/post-checkout", hook),
      write(".git/worktrees/wt/commondir", "../../../evil\n"),
      write("vendor/lib.git/hooks/post-update", hook),
      write("nested/.git/config", "[core]\n\tfsmonitor = x\n"),
      write("b2/objects/keep", ""),
      write("b2/HEAD", "ref: refs/heads/main\n"),
    ];
    const r = await attackRun(ws, calls, { home });
    assert.equal(r.run.code, 0, r.run.stdout + r.run.stderr);

    // The user's git, everywhere, with the user's global config: nothing the agent wrote runs.
    const userEnv = { HOME: home.dir };
    for (const dir of [ws, join(ws, "wt"), join(ws, "sm"), join(ws, "nested"), join(ws, "fresh")]) {
      try {
        Deno.statSync(dir);
      } catch {
        continue;
      }
      hostGit(dir, ["status"], userEnv);
      hostGit(dir, [
        "-c",
        "user.name=u",
        "-c",
        "user.email=u@x",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "t",
      ], userEnv);
      const fsm = hostGit(dir, ["config", "--get", "core.fsmonitor"], userEnv);
      assert.doesNotMatch(fsm.out, /PWNED/, `${dir}: ${fsm.out}`);
    }
    hostGit(join(ws, "vendor/lib.git"), ["status"], userEnv);
    hostGit(join(ws, "vendor/lib.git"), ["config", "--list"], userEnv);
    assert.throws(() => Deno.statSync(pwned), "code the agent wrote ran on the host");
    // Nothing agent-written stands where git looks.
    for (
      const p of [
        ".git/commondir",
        ".git/config.worktree",
        ".git/objects/info/alternates",
        ".git/worktrees/wt/config.worktree",
        ".githooks",
        ".git-old",
        "fresh/.git",
        "other",
        "sub.git/HEAD",
        ".GIT",
        ".Git",
      ]
    ) {
      assert.throws(() => Deno.lstatSync(join(ws, p)), `${p} is still there`);
    }
    assert.doesNotMatch(Deno.readTextFileSync(join(ws, ".git/config")), /PWNED|evil/);
    assert.match(Deno.readTextFileSync(join(ws, "wt/.git")), /worktrees\/wt/);
    // Every attempt is on record: the file-tool writes refused, the removals in the outcomes.
    const ledger = openLedger(r.ledgerPath);
    const entries = ledger.entries();
    ledger.close();
    const refusals = entries.filter((e) => e.kind === "refusal");
    assert.ok(refusals.length >= 12, `refusals: ${refusals.length}`);
    const removed = entries.filter((e) =>
      e.kind === "outcome" && JSON.stringify(e.payload).includes("gitControlRemoved")
    );
    assert.ok(removed.length >= 6, `outcomes with removals: ${removed.length}`);
    assert.ok(r.toolResults.some((t) => /retie removed git control files/.test(t)));
  },
});

Deno.test("an approved write to git's files is undone to the original metadata, and says what it cannot undo", async () => {
  const ws = gitRepo();
  const config = Deno.readTextFileSync(join(ws, ".git/config"));
  const r = await attackRun(ws, [
    { name: "write", args: { path: ".git/config", content: "[core]\n\tfsmonitor = x\n" } },
    { name: "write", args: { path: ".git/hooks/pre-commit", content: "#!/bin/sh\nexit 0\n" } },
  ], { extraArgs: ["--yes"] });
  assert.equal(r.run.code, 0, r.run.stdout + r.run.stderr);
  assert.match(Deno.readTextFileSync(join(ws, ".git/config")), /fsmonitor/);
  const undo = await retieAgain(r, ["undo", "--all"]);
  const said = undo.stdout + undo.stderr;
  assert.equal(Deno.readTextFileSync(join(ws, ".git/config")), config, said);
  assert.throws(() => Deno.lstatSync(join(ws, ".git/hooks/pre-commit")), said);
  assert.match(said, /cannot be called back/);
});
