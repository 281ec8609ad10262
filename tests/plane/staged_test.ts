/**
 * Staged sandboxed commands end to end: the real guard runs the real `bash` tool in bubblewrap over
 * an overlay; what the command changed is recorded in the ledger, then applied; undo restores it
 * byte for byte.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { stagedFixture, treeOf } from "./staged_fixture.ts";
import { guardFor } from "./plane_fixture.ts";
import { storePaths } from "../../src/core/dirs.ts";
import { DirSnapshotStore, OverlayStaging } from "../../src/snapshot/mod.ts";
import { bashTool } from "../../src/tools/bash.ts";
import { undoAction } from "../../src/plane/undo.ts";

function write(p: string, text: string, mode = 0o644) {
  Deno.mkdirSync(join(p, ".."), { recursive: true });
  Deno.writeTextFileSync(p, text);
  Deno.chmodSync(p, mode);
}

Deno.test("staged: edits, deletions, renames, directory replacement, modes, symlinks, undo", async () => {
  const s = stagedFixture();
  try {
    const ws = s.ws;
    write(join(ws, "a.txt"), "a1\n");
    write(join(ws, "keep.txt"), "untouched\n");
    write(join(ws, "gone.txt"), "bye\n");
    write(join(ws, "old/name.txt"), "moved\n");
    write(join(ws, "dir/x.txt"), "x\n");
    write(join(ws, "dir/sub/y.txt"), "y\n");
    write(join(ws, "run.sh"), "#!/bin/sh\n", 0o644);
    Deno.symlinkSync("a.txt", join(ws, "link"));
    const before = treeOf(ws);

    const out = await s.bash(
      "echo a2 >> a.txt; rm gone.txt; mv old/name.txt new.txt; rm -rf dir; mkdir dir; " +
        "echo z > dir/z.txt; chmod 755 run.sh; ln -sfn keep.txt link; ln -s nowhere dangling",
    );
    assert.equal(out.status, "ok", out.result.output);
    assert.equal(Deno.readTextFileSync(join(ws, "a.txt")), "a1\na2\n");
    assert.throws(() => Deno.lstatSync(join(ws, "gone.txt")));
    assert.equal(Deno.readTextFileSync(join(ws, "new.txt")), "moved\n");
    assert.deepEqual([...Deno.readDirSync(join(ws, "dir"))].map((e) => e.name), ["z.txt"]);
    assert.equal((Deno.statSync(join(ws, "run.sh")).mode ?? 0) & 0o777, 0o755);
    assert.equal(Deno.readLinkSync(join(ws, "link")), "keep.txt");
    assert.equal(Deno.readLinkSync(join(ws, "dangling")), "nowhere");

    // The undo data is in the ledger, before the outcome, and names exactly what changed.
    const entries = s.f.ledger.entries({ actionId: out.actionId! });
    const kinds = entries.map((e) => e.kind === "event" ? String(e.payload.type) : e.kind);
    assert.deepEqual(kinds, ["intent", "staged-changes", "outcome"]);
    assert.equal((entries[0].payload.undo as { kind: string }).kind, "staged");
    const record = entries[1].payload.record as { paths: { path: string }[] };
    assert.deepEqual(
      record.paths.map((p) => p.path).sort(),
      ["a.txt", "dangling", "dir", "gone.txt", "link", "new.txt", "old/name.txt", "run.sh"],
    );

    const u = await s.undo(out.actionId!);
    assert.equal(u.status, "undone", u.reason);
    assert.deepEqual(treeOf(ws), before);
  } finally {
    s.close();
  }
});

Deno.test("staged: a command that changes nothing records no undo data", async () => {
  const s = stagedFixture();
  try {
    write(join(s.ws, "a.txt"), "a\n");
    // Not a plain reader (those run with the workspace read-only, unstaged): a shell it starts.
    const out = await s.bash("sh -c 'cat a.txt; true'");
    assert.equal(out.status, "ok", out.result.output);
    const kinds = s.f.ledger.entries({ actionId: out.actionId! }).map((e) => e.kind);
    assert.deepEqual(kinds, ["intent", "outcome"]);
    const u = await s.undo(out.actionId!);
    assert.equal(u.status, "skipped");
    assert.match(u.reason, /changed nothing/);
  } finally {
    s.close();
  }
});

Deno.test("staged: undo refuses when the workspace changed since, and --force restores", async () => {
  const s = stagedFixture();
  try {
    write(join(s.ws, "a.txt"), "v1\n");
    const out = await s.bash("echo v2 > a.txt");
    assert.equal(Deno.readTextFileSync(join(s.ws, "a.txt")), "v2\n");
    await new Promise((r) => setTimeout(r, 5));
    Deno.writeTextFileSync(join(s.ws, "a.txt"), "edited by the person\n");
    const refused = await s.undo(out.actionId!);
    assert.equal(refused.status, "refused");
    assert.match(refused.reason, /a\.txt: changed since the action/);
    assert.equal(Deno.readTextFileSync(join(s.ws, "a.txt")), "edited by the person\n");
    const forced = await s.undo(out.actionId!, true);
    assert.equal(forced.status, "undone", forced.reason);
    assert.equal(Deno.readTextFileSync(join(s.ws, "a.txt")), "v1\n");
  } finally {
    s.close();
  }
});

Deno.test("staged: a file the person changes while the command runs is kept", async () => {
  const s = stagedFixture();
  try {
    write(join(s.ws, "a.txt"), "v1\n");
    write(join(s.ws, "b.txt"), "b1\n");
    // The command writes both files, then waits; meanwhile the person edits a.txt.
    const running = s.bash("echo cmd > a.txt; echo cmd > b.txt; sleep 0.6");
    await new Promise((r) => setTimeout(r, 300));
    Deno.writeTextFileSync(join(s.ws, "a.txt"), "person\n");
    const out = await running;
    assert.equal(Deno.readTextFileSync(join(s.ws, "a.txt")), "person\n");
    assert.equal(Deno.readTextFileSync(join(s.ws, "b.txt")), "cmd\n");
    assert.match(out.result.output, /kept as the person left them.*a\.txt/s);
    const u = await s.undo(out.actionId!);
    assert.equal(u.status, "undone", u.reason);
    assert.equal(Deno.readTextFileSync(join(s.ws, "a.txt")), "person\n");
    assert.equal(Deno.readTextFileSync(join(s.ws, "b.txt")), "b1\n");
  } finally {
    s.close();
  }
});

Deno.test("staged: where no overlay can be mounted, the snapshot store plans and undoes the command", async () => {
  const s = stagedFixture();
  const stores = storePaths(s.f.ledgerPath);
  const snapshots = new DirSnapshotStore(stores.snapshots);
  try {
    const staging = new OverlayStaging(
      stores.staging,
      () => Promise.resolve({ ok: false, why: "overlayfs: not supported here" }),
    );
    const guard = guardFor(s.f, { staging, snapshots, headless: true, yes: true });
    const ctx = { ...s.f.ctx, sandbox: { available: true, network: false } };
    write(join(s.ws, "a.txt"), "v1\n");
    const out = await guard.run({
      name: "bash",
      tool: bashTool,
      args: { command: "echo v2 > a.txt" },
      ctx,
    });
    assert.equal(out.status, "ok", out.result.output);
    const intent = s.f.ledger.entries({ actionId: out.actionId!, kinds: ["intent"] })[0];
    assert.equal((intent.payload.undo as { kind: string }).kind, "snapshot");
    const u = await undoAction(out.actionId!, {
      ledger: s.f.ledger,
      sink: s.f.sink,
      blobs: s.f.blobs,
      snapshots,
      staging,
    });
    assert.equal(u.status, "undone", u.reason);
    assert.equal(Deno.readTextFileSync(join(s.ws, "a.txt")), "v1\n");
  } finally {
    snapshots.close();
    s.close();
  }
});

Deno.test("staged: a git commit made in the sandbox lands in the repository, and undo takes it back", async () => {
  const s = stagedFixture();
  try {
    const git = (args: string[]) =>
      new Deno.Command("git", { args, cwd: s.ws, stdout: "piped", stderr: "piped" }).outputSync();
    write(join(s.ws, "a.txt"), "a\n");
    git(["init", "-q"]);
    git(["add", "-A"]);
    git(["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"]);
    const before = treeOf(s.ws);
    const head = new TextDecoder().decode(git(["rev-parse", "HEAD"]).stdout);
    const out = await s.bash(
      "echo b >> a.txt && git -c user.name=t -c user.email=t@t commit -qam two && git log --oneline | wc -l",
    );
    assert.equal(out.status, "ok", out.result.output);
    assert.match(out.result.output, /stdout:\n2/);
    const log = new TextDecoder().decode(git(["log", "--oneline"]).stdout);
    assert.equal(log.trim().split("\n").length, 2, log);
    // (no `git status` here: it refreshes .git/index, which undo would then see as changed)
    const u = await s.undo(out.actionId!);
    assert.equal(u.status, "undone", u.reason);
    assert.equal(new TextDecoder().decode(git(["rev-parse", "HEAD"]).stdout), head);
    assert.deepEqual(treeOf(s.ws), before);
    assert.equal(new TextDecoder().decode(git(["status", "--porcelain"]).stdout), "");
  } finally {
    s.close();
  }
});

Deno.test("staged: a file or a symlink replaced by a directory, and a directory by a symlink", async () => {
  const s = stagedFixture();
  try {
    write(join(s.ws, "f"), "file\n");
    Deno.symlinkSync("f", join(s.ws, "l"));
    write(join(s.ws, "d/inner.txt"), "inner\n");
    const before = treeOf(s.ws);
    const out = await s.bash(
      "rm f && mkdir f && echo x > f/x; rm l && mkdir l; rm -r d && ln -s f d",
    );
    assert.equal(out.status, "ok", out.result.output);
    assert.equal(Deno.readTextFileSync(join(s.ws, "f/x")), "x\n");
    assert.equal(Deno.lstatSync(join(s.ws, "l")).isDirectory, true);
    assert.equal(Deno.readLinkSync(join(s.ws, "d")), "f");
    const u = await s.undo(out.actionId!);
    assert.equal(u.status, "undone", u.reason);
    assert.deepEqual(treeOf(s.ws), before);
  } finally {
    s.close();
  }
});

Deno.test("staged: a command cannot create or change retie's protected paths (.retie/), even new ones", async () => {
  const s = stagedFixture();
  try {
    const guard = guardFor(s.f, { staging: s.staging, headless: true, yes: true });
    const ctx = {
      ...s.f.ctx,
      protectedPaths: [...s.f.ctx.protectedPaths, join(s.ws, ".retie")],
      sandbox: { available: true, network: false },
    };
    write(join(s.ws, "a.txt"), "a\n");
    const out = await guard.run({
      name: "bash",
      tool: bashTool,
      args: { command: "mkdir -p .retie && echo '{}' > .retie/policy.json; echo b > a.txt" },
      ctx,
    });
    // .retie is reserved in the sandbox even before it exists (an empty, read-only mount): the
    // command cannot write it, and nothing of it reaches the workspace.
    assert.match(out.result.output, /\.retie\/policy\.json: Read-only file system/);
    assert.throws(() => Deno.lstatSync(join(s.ws, ".retie")));
    assert.equal(Deno.readTextFileSync(join(s.ws, "a.txt")), "b\n");
  } finally {
    s.close();
  }
});
