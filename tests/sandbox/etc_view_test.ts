import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { buildEtcView, ensureEtcView, etcFingerprint } from "../../src/sandbox/etc_view.ts";
import { isRoot } from "./fixture.ts";

const ALLOW = [
  "/etc/passwd",
  "/etc/tool",
  "/etc/ssl/certs",
  "/etc/ssl/openssl.cnf",
  "/etc/perl",
  "/etc/resolv.conf",
  "/etc/missing",
];

/** A fake host /etc with allowlisted entries and planted secrets beside them. */
function fakeEtc(): { base: string; src: string; root: string } {
  const base = Deno.makeTempDirSync({ prefix: "retie-etcv-" });
  const src = join(base, "etc");
  const w = (rel: string, text: string, mode = 0o644) => {
    Deno.mkdirSync(join(src, rel, ".."), { recursive: true });
    Deno.writeTextFileSync(join(src, rel), text);
    Deno.chmodSync(join(src, rel), mode);
  };
  w("passwd", "root:x:0:0::/root:/bin/bash\n");
  w("tool", "#!/bin/sh\n", 0o4755); // setuid bit: dropped in the copy
  w("shadow", "root:SECRET:1::::::\n", 0o600); // not allowlisted
  w("ssl/private/host.key", "PRIVATE KEY\n", 0o600); // sibling of an allowlisted dir
  w("ssl/certs/a.pem", "CERT A\n");
  Deno.symlinkSync("a.pem", join(src, "ssl/certs/1234.0"));
  Deno.symlinkSync("/usr/share/ca-certificates/x.crt", join(src, "ssl/certs/x.pem"));
  w("ssl/openssl.cnf", "[openssl]\n");
  w("perl/sub/x.pm", "1;\n");
  w("run/stub-resolv.conf", "nameserver 10.0.0.1\n"); // outside the allowlist, reached by link
  Deno.symlinkSync("../etc/run/stub-resolv.conf", join(src, "resolv.conf"));
  return { base, src, root: join(base, "cache", "sandbox-etc") };
}

/** Every path under `dir`, with its type and (for links) target. */
function tree(dir: string, rel = ""): string[] {
  const out: string[] = [];
  for (const e of [...Deno.readDirSync(join(dir, rel))].sort((a, b) => a.name < b.name ? -1 : 1)) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isSymlink) out.push(`${r} -> ${Deno.readLinkSync(join(dir, r))}`);
    else if (e.isDirectory) out.push(`${r}/`, ...tree(dir, r));
    else out.push(r);
  }
  return out;
}

Deno.test("etc view: copies exactly the allowlisted entries, links inside dirs kept as links", () => {
  const f = fakeEtc();
  try {
    const view = ensureEtcView({ source: f.src, allowlist: ALLOW, root: f.root });
    assert.ok(view.startsWith(f.root + "/"));
    assert.deepEqual(tree(view), [
      "passwd",
      "perl/",
      "perl/sub/",
      "perl/sub/x.pm",
      "resolv.conf",
      "ssl/",
      "ssl/certs/",
      "ssl/certs/1234.0 -> a.pem",
      "ssl/certs/a.pem",
      "ssl/certs/x.pem -> /usr/share/ca-certificates/x.crt",
      "ssl/openssl.cnf",
      "tool",
    ]);
    assert.equal(Deno.readTextFileSync(join(view, "passwd")), "root:x:0:0::/root:/bin/bash\n");
    // A top-level symlink gives its target's content, as a bind mount of it did.
    assert.ok(Deno.lstatSync(join(view, "resolv.conf")).isFile);
    assert.equal(Deno.readTextFileSync(join(view, "resolv.conf")), "nameserver 10.0.0.1\n");
    assert.equal(Deno.statSync(join(view, "passwd")).mode! & 0o7777, 0o644);
    assert.equal(Deno.statSync(join(view, "tool")).mode! & 0o7777, 0o755);
    assert.equal(Deno.statSync(view).mode! & 0o777, 0o755);
    assert.equal(Deno.statSync(f.root).mode! & 0o777, 0o700, "other users cannot reach copies");
  } finally {
    Deno.removeSync(f.base, { recursive: true });
  }
});

Deno.test("etc view: the fingerprint is stable, and a top-level change (size, mtime) rebuilds", () => {
  const f = fakeEtc();
  const o = { source: f.src, allowlist: ALLOW, root: f.root };
  try {
    const v1 = ensureEtcView(o);
    assert.equal(etcFingerprint(o), etcFingerprint(o));
    assert.equal(ensureEtcView(o), v1, "nothing changed: same view");
    Deno.writeTextFileSync(
      join(f.src, "passwd"),
      "root:x:0:0::/root:/bin/sh\nme:x:1000:1000::/h:/bin/sh\n",
    );
    const v2 = ensureEtcView(o);
    assert.notEqual(v2, v1);
    assert.match(Deno.readTextFileSync(join(v2, "passwd")), /^me:/m);
    Deno.utimeSync(join(f.src, "passwd"), new Date(1e12), new Date(1e12)); // mtime only
    const v3 = ensureEtcView(o);
    assert.notEqual(v3, v2);
    // The target of a top-level link changing counts too (stat follows it).
    Deno.writeTextFileSync(join(f.src, "run/stub-resolv.conf"), "nameserver 10.9.9.9\n");
    assert.equal(
      Deno.readTextFileSync(join(ensureEtcView(o), "resolv.conf")),
      "nameserver 10.9.9.9\n",
    );
    // A nested link replaced (links cannot change in place: its directory's mtime changes).
    Deno.removeSync(join(f.src, "ssl/certs/1234.0"));
    Deno.symlinkSync("b.pem", join(f.src, "ssl/certs/1234.0"));
    assert.equal(Deno.readLinkSync(join(ensureEtcView(o), "ssl/certs/1234.0")), "b.pem");
    // An in-place edit nested in an allowlisted dir waits for the top-level entry to change.
    const v4 = ensureEtcView(o);
    Deno.writeTextFileSync(join(f.src, "perl/sub/x.pm"), "2;\n");
    assert.equal(ensureEtcView(o), v4, "memoized: nested edit not seen yet");
    assert.equal(Deno.readTextFileSync(join(v4, "perl/sub/x.pm")), "1;\n");
    Deno.utimeSync(join(f.src, "perl"), new Date(), new Date(2e12));
    const v5 = ensureEtcView(o);
    assert.equal(Deno.readTextFileSync(join(v5, "perl/sub/x.pm")), "2;\n");
    // Old views stay for a day (a running sandbox may use one), then go on the next build.
    assert.ok(Deno.statSync(v1).isDirectory);
    Deno.utimeSync(v1, new Date(0), new Date(0));
    Deno.writeTextFileSync(join(f.src, "passwd"), "x\n");
    ensureEtcView(o);
    assert.throws(() => Deno.statSync(v1), Deno.errors.NotFound);
    assert.ok(Deno.statSync(v2).isDirectory);
  } finally {
    Deno.removeSync(f.base, { recursive: true });
  }
});

Deno.test("etc view: a view removed under a process is built again", () => {
  const f = fakeEtc();
  const o = { source: f.src, allowlist: ALLOW, root: f.root };
  try {
    const v1 = ensureEtcView(o);
    Deno.removeSync(v1, { recursive: true });
    const v2 = ensureEtcView(o);
    assert.equal(v2, v1, "same content, same name");
    assert.ok(Deno.statSync(join(v2, "passwd")).isFile);
  } finally {
    Deno.removeSync(f.base, { recursive: true });
  }
});

Deno.test("etc view: concurrent builds of the same view both succeed and agree", async () => {
  const f = fakeEtc();
  try {
    for (let round = 0; round < 4; round++) {
      const root = join(f.base, `cache${round}`);
      const workers = [0, 1].map(() =>
        new Worker(new URL("./etc_view_worker.ts", import.meta.url).href, { type: "module" })
      );
      const results = await Promise.all(
        workers.map((w) =>
          new Promise<string>((resolve, reject) => {
            w.onmessage = (
              e,
            ) => (e.data.error ? reject(new Error(e.data.error)) : resolve(e.data.path));
            w.onerror = (e) => reject(e);
            w.postMessage({ source: f.src, allowlist: ALLOW, root });
          })
        ),
      );
      workers.forEach((w) => w.terminate());
      assert.equal(results[0], results[1]);
      const names = [...Deno.readDirSync(root)].map((e) => e.name);
      assert.deepEqual(names, [basename(results[0])], "one view, no temp dir left");
      assert.equal(tree(results[0]).length, 12);
    }
    // And a build racing a finished one reuses it.
    const o = { source: f.src, allowlist: ALLOW, root: f.root };
    assert.equal(buildEtcView(o), buildEtcView(o));
  } finally {
    Deno.removeSync(f.base, { recursive: true });
  }
});

const DENIED = "/proc/sys/vm/drop_caches"; // mode 0200: EACCES even for root
function deniedToRoot(): boolean {
  try {
    Deno.readFileSync(DENIED);
    return false;
  } catch (e) {
    return e instanceof Deno.errors.PermissionDenied;
  }
}

Deno.test({
  name: "etc view: an unreadable entry is skipped, the rest is copied",
  ignore: isRoot() && !deniedToRoot(),
  fn: () => {
    const f = fakeEtc();
    try {
      if (isRoot()) Deno.symlinkSync(DENIED, join(f.src, "secret"));
      else {
        Deno.writeTextFileSync(join(f.src, "secret"), "s\n");
        Deno.chmodSync(join(f.src, "secret"), 0);
        Deno.chmodSync(join(f.src, "perl/sub"), 0); // a nested unreadable dir
      }
      const view = ensureEtcView({
        source: f.src,
        allowlist: [...ALLOW, "/etc/secret"],
        root: f.root,
      });
      assert.throws(() => Deno.lstatSync(join(view, "secret")), Deno.errors.NotFound);
      assert.ok(Deno.statSync(join(view, "passwd")).isFile);
      if (!isRoot()) Deno.chmodSync(join(f.src, "perl/sub"), 0o755);
    } finally {
      Deno.removeSync(f.base, { recursive: true });
    }
  },
});

Deno.test("etc view: refuses allowlist entries that are not plain /etc paths", () => {
  for (const bad of ["/root/.ssh", "/etc/../root", "/etc/", "etc/passwd", "/etc//shadow"]) {
    assert.throws(
      () => etcFingerprint({ source: "/etc", allowlist: [bad] }),
      /allowlist entry/,
      bad,
    );
  }
});
