import assert from "node:assert/strict";
import { buildBwrapArgs, ETC_ALLOWLIST, MERGED_USR_LAYOUT } from "../../src/sandbox/bwrap_args.ts";
import { profileFor } from "./fixture.ts";

function pairs(args: string[], flag: string, n = 2): string[][] {
  const out: string[][] = [];
  args.forEach((a, i) => {
    if (a === flag) out.push(args.slice(i + 1, i + 1 + n));
  });
  return out;
}

Deno.test("bwrap args: confined profile unshares everything, drops caps, blocks nested userns", () => {
  const a = buildBwrapArgs(profileFor("/work/p"), ["/bin/bash", "-c", "make"], { uid: 0, gid: 0 });
  for (
    const f of [
      "--unshare-all",
      "--unshare-user",
      "--disable-userns",
      "--assert-userns-disabled",
      "--new-session",
      "--die-with-parent",
    ]
  ) {
    assert.ok(a.includes(f), f);
  }
  assert.ok(!a.includes("--share-net"));
  assert.deepEqual(pairs(a, "--cap-drop", 1), [["ALL"]]);
  assert.deepEqual(pairs(a, "--uid", 1), [["1000"]], "root maps to a non-root id inside");
  assert.deepEqual(a.slice(-4), ["--", "/bin/bash", "-c", "make"]);
});

Deno.test("bwrap args: mounts — system read-only, /proc/sys read-only, tmpfs /tmp and HOME, workspace the only rw bind", () => {
  const a = buildBwrapArgs(
    profileFor("/work/p", { readOnly: ["/work/p/.git/hooks"], hidden: ["/work/p/.state"] }),
    ["true"],
  );
  assert.deepEqual(pairs(a, "--bind"), [["/work/p", "/work/p"]]);
  assert.ok(!a.includes("--dev-bind"));
  const ro = pairs(a, "--ro-bind");
  assert.deepEqual(ro, [["/usr", "/usr"], ["/proc/sys", "/proc/sys"], [
    "/work/p/.git/hooks",
    "/work/p/.git/hooks",
  ]]);
  const roTry = pairs(a, "--ro-bind-try").map((p) => p[0]);
  assert.ok(
    !roTry.some((p) => /shadow|gshadow|sudoers|ssh|npmrc|pip\.conf|netrc/.test(p)),
    roTry.join(","),
  );
  // No allowlisted path may hold (or be a parent of) a place where hosts keep private keys.
  assert.ok(
    !roTry.some((p) =>
      ["/etc/ssl/private", "/etc/pki"].some((s) => s === p || s.startsWith(p + "/"))
    ),
    roTry.join(","),
  );
  assert.deepEqual(roTry.filter((p) => p.startsWith("/etc")), [...ETC_ALLOWLIST]);
  for (const absent of ["/home", "/root", "/mnt", "/media", "/var", "/run"]) {
    assert.ok(!ro.some((p) => p[1] === absent) && !roTry.includes(absent), absent);
  }
  assert.deepEqual(pairs(a, "--tmpfs", 1).map((x) => x[0]), [
    "/tmp",
    "/home/sandbox",
    "/work/p/.state",
  ]);
  assert.ok(
    a.indexOf("--bind") > a.indexOf("--tmpfs"),
    "workspace mounted after /tmp (works for workspaces under /tmp)",
  );
  assert.ok(
    a.indexOf("/work/p/.git/hooks") > a.indexOf("--bind"),
    "read-only overlays come after the workspace bind",
  );
  assert.deepEqual(
    pairs(a, "--symlink"),
    Object.entries(MERGED_USR_LAYOUT.symlinks).map(([l, t]) => [t, l]),
  );
});

Deno.test("bwrap args: --network adds --share-net only", () => {
  const off = buildBwrapArgs(profileFor("/work/p"), ["true"]);
  const on = buildBwrapArgs(profileFor("/work/p", { network: true }), ["true"]);
  assert.deepEqual(on.filter((x) => !off.includes(x)), ["--share-net"]);
});

Deno.test("bwrap args: unconfined profile binds the host but still runs under bwrap", () => {
  const a = buildBwrapArgs(profileFor("/work/p", { confined: false }), ["true"]);
  assert.deepEqual(pairs(a, "--bind"), [["/", "/"]]);
  assert.ok(!a.includes("--unshare-all"));
});

Deno.test("bwrap args: refuses profiles that would not confine", () => {
  for (const ws of ["relative/dir", "/", "/usr", "/etc", "/tmp", "/a/../b"]) {
    assert.throws(() => buildBwrapArgs(profileFor(ws), ["true"]), /sandbox workspace/, ws);
  }
  assert.throws(
    () => buildBwrapArgs(profileFor("/work/p", { readOnly: ["/etc/passwd"] }), ["true"]),
    /not inside the workspace/,
  );
  assert.throws(() => buildBwrapArgs(profileFor("/work/p"), []), /empty command/);
});

Deno.test("bwrap args: with an etc view, /etc is exactly one read-only bind of it", () => {
  const view = "/var/cache/retie/sandbox-etc/0123";
  const a = buildBwrapArgs(profileFor("/work/p"), ["true"], { etcView: view });
  const toEtc = [...pairs(a, "--ro-bind"), ...pairs(a, "--ro-bind-try"), ...pairs(a, "--bind")]
    .filter((p) => p[1] === "/etc" || p[1].startsWith("/etc/"));
  assert.deepEqual(toEtc, [[view, "/etc"]]);
  assert.deepEqual(pairs(a, "--ro-bind-try").map((p) => p[0]), ["/proc/sysrq-trigger"]);
  assert.ok(!pairs(a, "--bind").some((p) => p[0] === view), "never writable");
  // Everything else is the same argv as with the per-entry binds.
  const old = buildBwrapArgs(profileFor("/work/p"), ["true"]);
  const i = a.indexOf(view) - 1; // its "--ro-bind"
  const j = old.indexOf(ETC_ALLOWLIST[0]) - 1; // the first "--ro-bind-try"
  assert.deepEqual(
    [...a.slice(0, i), ...a.slice(i + 3)],
    [...old.slice(0, j), ...old.slice(j + 3 * ETC_ALLOWLIST.length)],
  );
  // Without the view: one --ro-bind-try per allowlisted entry, as before.
  assert.deepEqual(
    pairs(old, "--ro-bind-try").filter((p) => p[0].startsWith("/etc/")),
    ETC_ALLOWLIST.map((e) => [e, e]),
  );
  // The unconfined profile ignores it.
  const u = buildBwrapArgs(profileFor("/work/p", { confined: false }), ["true"], { etcView: view });
  assert.ok(!u.includes(view));
});

Deno.test("bwrap args: refuses an etc view that is /etc itself or reachable through the workspace", () => {
  for (const v of ["/etc", "/etc/", "/", "/etc/ssl", "relative/view", "/a/../etc"]) {
    assert.throws(
      () => buildBwrapArgs(profileFor("/work/p"), ["true"], { etcView: v }),
      /etc view/,
      v,
    );
  }
  for (const v of ["/work/p/.cache/retie/sandbox-etc/01", "/work/p", "/work"]) {
    assert.throws(
      () => buildBwrapArgs(profileFor("/work/p"), ["true"], { etcView: v }),
      /must not overlap the workspace/,
      v,
    );
  }
});

Deno.test("bwrap args: the seccomp section comes after every mount and before the command", () => {
  const a = buildBwrapArgs(profileFor("/work/p"), ["true"], { seccompFd: 0 });
  const at = a.indexOf("--seccomp");
  assert.equal(a[at + 1], "0");
  assert.ok(at > a.lastIndexOf("--bind"), "after the workspace bind");
  assert.equal(a[at + 2], "--chdir");
  assert.equal(buildBwrapArgs(profileFor("/work/p"), ["true"]).includes("--seccomp"), false);
  assert.throws(
    () => buildBwrapArgs(profileFor("/work/p"), ["true"], { seccompFd: -1 }),
    /seccomp/,
  );
});
