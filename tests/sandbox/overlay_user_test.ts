/** The copy-on-write view for a user who is not root: the overlay mounts, the walls hold. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { prepareOverlayRun } from "../../src/sandbox/overlay_run.ts";
import { ensureEtcView } from "../../src/sandbox/etc_view.ts";
import { isRoot, kv, profileFor } from "./fixture.ts";

Deno.test({
  name: "overlay: an unprivileged user (setpriv uid 65534) runs a command on the view, confined",
  ignore: !isRoot(),
  fn: async () => {
    const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-ov-user-" }));
    const ws = join(base, "ws");
    const stage = join(base, "stage");
    const view = join(base, "etc");
    try {
      Deno.chmodSync(base, 0o755);
      Deno.mkdirSync(ws);
      Deno.writeTextFileSync(join(ws, "a.txt"), "a\n");
      for (const d of ["", "/upper", "/work", "/lower"]) Deno.mkdirSync(stage + d);
      Deno.mkdirSync(view);
      Deno.chmodSync(view, 0o755);
      const owned = [
        ws,
        join(ws, "a.txt"),
        stage,
        `${stage}/upper`,
        `${stage}/work`,
        `${stage}/lower`,
      ];
      for (const p of owned) Deno.chownSync(p, 65534, 65534);
      const field = (f: string) =>
        `echo "${f.toLowerCase()}=$(grep -E '^${f}:' /proc/self/status | tr -d '\\t ' | cut -d: -f2)"`;
      const prep = prepareOverlayRun(
        profileFor(ws),
        [
          'echo "uid=$(id -u)"',
          field("Seccomp"),
          field("CapEff"),
          field("NoNewPrivs"),
          "echo b >> a.txt; rm -f a.txt; echo n > new.txt",
        ].join("; "),
        stage,
        { etcView: ensureEtcView({ root: view }) },
      );
      const child = new Deno.Command("/usr/bin/setpriv", {
        args: ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/bwrap", ...prep.args],
        env: prep.env,
        clearEnv: true,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const w = child.stdin.getWriter();
      await w.write(prep.stdin!);
      await w.close().catch(() => {});
      const out = await child.output();
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      const v = kv(new TextDecoder().decode(out.stdout));
      assert.notEqual(v.uid, "0");
      assert.equal(v.seccomp, "2");
      assert.equal(v.capeff, "0000000000000000");
      assert.equal(v.nonewprivs, "1");
      // The workspace is untouched; the changes are in the upper layer, a whiteout for a.txt.
      assert.equal(Deno.readTextFileSync(join(ws, "a.txt")), "a\n");
      assert.equal(Deno.readTextFileSync(join(stage, "upper", "new.txt")), "n\n");
      const wh = Deno.lstatSync(join(stage, "upper", "a.txt"));
      assert.equal(wh.isCharDevice && wh.rdev === 0, true);
    } finally {
      Deno.removeSync(base, { recursive: true });
    }
  },
});
