import assert from "node:assert/strict";
import { BlobStore } from "../../src/core/blob_store.ts";
import { planUndo } from "../../src/plane/undo_plan.ts";
import { DirSnapshotStore } from "../../src/snapshot/store.ts";
import { bashProfile, bashTool } from "../../src/tools/bash.ts";
import { call, fixture, plant } from "./tool_ctx.ts";

function bwrapWorks(): string | null {
  try {
    const r = new Deno.Command("/usr/bin/bwrap", {
      args: ["--unshare-all", "--ro-bind", "/", "/", "true"],
      stdout: "null",
      stderr: "piped",
    }).outputSync();
    return r.success
      ? null
      : `bwrap cannot create a sandbox here: ${new TextDecoder().decode(r.stderr)}`;
  } catch (e) {
    return `bwrap is absent (${(e as Error).message})`;
  }
}
const NO_BWRAP = bwrapWorks();
if (NO_BWRAP) console.warn(`skipping the real sandbox runs: ${NO_BWRAP}`);

Deno.test("bash in an available sandbox without network is reversible by snapshot", async () => {
  const f = fixture({ protectInside: true });
  try {
    plant(f.ws, { ".git/config": "[core]\n", ".git/hooks/pre-commit": "#!/bin/sh\n" });
    const eff = await bashTool.classify(bashTool.schema.parse({ command: "make test" }), f.ctx);
    assert.equal(eff.class, "reversible");
    assert.equal(eff.sandboxed, true);
    assert.equal(eff.network, false);
    assert.equal(
      eff.consequence,
      "runs `make test` in the sandbox (no network; workspace restorable)",
    );
    assert.equal(eff.undo.kind, "snapshot");
    if (eff.undo.kind === "snapshot") {
      assert.equal(eff.undo.root, f.ws);
      // Relative to the root: the snapshot store refuses absolute excludes.
      assert.ok(eff.undo.readOnly.includes(".git/config"), JSON.stringify(eff.undo));
      assert.ok(eff.undo.readOnly.includes(".git/hooks"));
    }
    const profile = bashProfile(eff, f.ctx);
    assert.equal(profile.confined, true);
    assert.equal(profile.network, false);
    assert.deepEqual(profile.hidden, [`${f.ws}/.retie`]);
    // Everything the snapshot leaves out is read-only in the sandbox (the undo plan covers what
    // the command can write).
    assert.deepEqual(
      profile.readOnly,
      eff.undo.kind === "snapshot" ? eff.undo.readOnly.map((p) => `${f.ws}/${p}`) : null,
    );
  } finally {
    f.cleanup();
  }
});

Deno.test("bash in a git repository: the undo snapshot can be planned (git files left out)", async () => {
  const f = fixture();
  const store = new DirSnapshotStore(`${f.state}/snapshots.db`);
  try {
    plant(f.ws, {
      ".git/config": "[core]\n",
      ".git/hooks/pre-commit": "#!/bin/sh\n",
      ".git/HEAD": "ref: refs/heads/main\n",
      "src/a.txt": "a\n",
    });
    const eff = await bashTool.classify(bashTool.schema.parse({ command: "make" }), f.ctx);
    const plan = await planUndo(eff, { blobs: new BlobStore(":memory:"), snapshots: store });
    assert.equal(plan.kind, "snapshot");
  } finally {
    store.close();
    f.cleanup();
  }
});

Deno.test("bash with sandbox:false is irreversible and says it runs without the sandbox", async () => {
  const f = fixture();
  try {
    const args = bashTool.schema.parse({ command: "rm -rf build", sandbox: false });
    const eff = await bashTool.classify(args, f.ctx);
    assert.equal(eff.class, "irreversible");
    assert.equal(eff.sandboxed, false);
    assert.equal(eff.consequence, "not reversible: runs `rm -rf build` without the sandbox");
    assert.equal(eff.undo.kind, "impossible");
    assert.equal(bashProfile(eff, f.ctx).confined, false);
  } finally {
    f.cleanup();
  }
});

Deno.test("bash with the sandbox unavailable is irreversible and says why, never silently", async () => {
  const f = fixture({ sandbox: { available: false, unavailableReason: "bwrap is not installed" } });
  try {
    const args = bashTool.schema.parse({ command: "ls" });
    const eff = await bashTool.classify(args, f.ctx);
    assert.equal(eff.class, "irreversible");
    assert.equal(eff.sandboxed, false);
    assert.equal(
      eff.consequence,
      "not reversible: runs `ls` without the sandbox (the sandbox is unavailable: bwrap is not installed)",
    );
    assert.equal(eff.undo.kind, "impossible");
    assert.equal(bashProfile(eff, f.ctx).confined, false);
  } finally {
    f.cleanup();
  }
});

Deno.test("bash in a sandbox with --network is irreversible (network access)", async () => {
  const f = fixture({ sandbox: { network: true } });
  try {
    const args = bashTool.schema.parse({ command: "npm install" });
    const eff = await bashTool.classify(args, f.ctx);
    assert.equal(eff.class, "irreversible");
    assert.equal(eff.sandboxed, true);
    assert.equal(eff.network, true);
    assert.equal(
      eff.consequence,
      "not reversible: runs `npm install` in the sandbox with network access",
    );
    const profile = bashProfile(eff, f.ctx);
    assert.equal(profile.confined, true);
    assert.equal(profile.network, true);
  } finally {
    f.cleanup();
  }
});

Deno.test({
  name: "bash runs a real command in the sandbox: workspace writable, outside and state invisible",
  ignore: NO_BWRAP !== null,
  async fn() {
    const f = fixture({ protectInside: true });
    try {
      const r = await call(bashTool, f.ctx, {
        command: `echo made > out.txt; cat out.txt; echo oops >&2; ` +
          `cat ${f.outside}/secret.txt 2>/dev/null || echo no-secret; ` +
          `cat .retie/ledger.db 2>/dev/null || echo no-ledger; exit 3`,
      });
      assert.equal(r.ok, false);
      assert.equal(
        r.output,
        "stdout:\nmade\nno-secret\nno-ledger\nstderr:\noops\nexit code 3",
      );
      assert.equal(r.detail?.sandboxed, true);
      assert.equal(Deno.readTextFileSync(`${f.ws}/out.txt`), "made\n");
      const ok = await call(bashTool, f.ctx, { command: "true" });
      assert.equal(ok.ok, true);
      assert.equal(ok.output, "(no output)\nexit code 0");
    } finally {
      f.cleanup();
    }
  },
});

Deno.test({
  name: "bash kills a command at its timeout and says so",
  ignore: NO_BWRAP !== null,
  async fn() {
    const f = fixture();
    try {
      const r = await call(bashTool, f.ctx, { command: "sleep 30", timeout_seconds: 1 });
      assert.equal(r.ok, false);
      assert.match(r.output, /exit code \d+ \(timed out after 1s\)$/);
      assert.equal(r.detail?.timedOut, true);
    } finally {
      f.cleanup();
    }
  },
});

Deno.test({
  name: "bash with sandbox:false still goes through bwrap, unconfined (host files visible)",
  ignore: NO_BWRAP !== null,
  async fn() {
    const f = fixture();
    try {
      const r = await call(bashTool, f.ctx, {
        command: `cat ${f.outside}/secret.txt`,
        sandbox: false,
      });
      assert.equal(r.output, "stdout:\nTOP SECRET\nexit code 0");
      assert.equal(r.detail?.sandboxed, false);
    } finally {
      f.cleanup();
    }
  },
});

Deno.test({
  name: "bash runs under the confinement it was approved with, never one computed again",
  ignore: NO_BWRAP !== null,
  fn: async () => {
    const f = fixture();
    try {
      plant(f.ws, { "locked/a.txt": "a\n", "open/b.txt": "b\n" });
      const args = bashTool.schema.parse({
        command: "echo x >> locked/a.txt; echo y >> open/b.txt; true",
      });
      const approved = await bashTool.classify(args, f.ctx);
      assert.ok(approved.confinement, "a sandboxed effect carries its mounts");
      // The handler acts on the approved effect: a path it lists read-only stays so.
      const withLock = {
        ...approved,
        confinement: {
          ...approved.confinement!,
          readOnly: [...approved.confinement!.readOnly, `${f.ws}/locked`],
        },
      };
      const r = await bashTool.handler(args, f.ctx, withLock);
      assert.equal(r.ok, true, r.output);
      assert.equal(Deno.readTextFileSync(`${f.ws}/locked/a.txt`), "a\n");
      assert.equal(Deno.readTextFileSync(`${f.ws}/open/b.txt`), "b\ny\n");
      // An effect approved as unsandboxed runs unconfined; a sandboxed one without mounts is refused.
      const bare = { ...approved, confinement: undefined };
      const refused = await bashTool.handler(args, f.ctx, bare);
      assert.equal(refused.ok, false);
      assert.match(refused.output, /says nothing of its mounts/);
    } finally {
      f.cleanup();
    }
  },
});

Deno.test("bash: a command that only reads is class none, with the workspace read-only", async () => {
  const f = fixture({ protectInside: true });
  try {
    const eff = await bashTool.classify(
      bashTool.schema.parse({ command: "grep -rn TODO src | head" }),
      f.ctx,
    );
    assert.equal(eff.class, "none");
    assert.equal(eff.sandboxed, true);
    assert.deepEqual(eff.writes, []);
    assert.deepEqual(eff.undo, { kind: "none" });
    assert.equal(eff.confinement?.workspaceReadOnly, true);
    const profile = bashProfile(eff, f.ctx);
    assert.equal(profile.workspaceReadOnly, true);
    assert.equal(profile.confined, true);
    // With the network shared, a reader could still send what it reads: not class none.
    const net = await bashTool.classify(bashTool.schema.parse({ command: "ls" }), {
      ...f.ctx,
      sandbox: { available: true, network: true },
    });
    assert.equal(net.class, "irreversible");
  } finally {
    f.cleanup();
  }
});

Deno.test({
  name: "bash: the read-only mount, not the recogniser, keeps a reader from writing",
  ignore: NO_BWRAP !== null,
  async fn() {
    const f = fixture({ protectInside: true });
    try {
      plant(f.ws, { "a.txt": "a\n" });
      const reader = await bashTool.classify(
        bashTool.schema.parse({ command: "cat a.txt" }),
        f.ctx,
      );
      // The same approved confinement handed a command that writes (as if the recogniser erred).
      const r = await bashTool.handler(
        bashTool.schema.parse({ command: "cat a.txt; echo x > a.txt; touch b.txt" }),
        f.ctx,
        reader,
      );
      assert.equal(r.ok, false);
      assert.match(r.output, /^stdout:\na\n/);
      assert.match(r.output, /Read-only file system/);
      assert.match(r.output, /ran this command with the workspace read-only/);
      assert.equal(Deno.readTextFileSync(`${f.ws}/a.txt`), "a\n");
      assert.throws(() => Deno.statSync(`${f.ws}/b.txt`));
      assert.equal(r.detail?.workspaceReadOnly, true);
      // The project's .retie/ is still covered where it exists, and made nowhere where it does not.
      assert.throws(() => Deno.statSync(`${f.ws}/.retie/x`));
      const ok = await bashTool.handler(bashTool.schema.parse({ command: "ls" }), f.ctx, reader);
      assert.equal(ok.ok, true, ok.output);
      assert.match(ok.output, /a\.txt/);
    } finally {
      f.cleanup();
    }
  },
});
