import assert from "node:assert/strict";
import { join } from "node:path";
import {
  closeListingWorker,
  type Listed,
  listTree,
  listTreeSync,
} from "../../src/snapshot/walk.ts";
import { ListingHelper } from "../../src/snapshot/walk_helper.ts";
import { planListing, readPart } from "../../src/snapshot/walk_split.ts";

const REPO = new URL("../../", import.meta.url).pathname;

/** One turn of the event loop. */
const tick = () => new Promise((r) => setTimeout(r, 0));

/** Every field of every entry, sorted by path, so two listings compare whole. */
function keyed(list: Listed[]): string[] {
  return list.map((x) =>
    JSON.stringify([x.rel, x.kind, x.mode, x.size, x.mtime, x.ctime, x.ino, x.target])
  ).sort();
}

/** A few thousand paths: nested dirs, odd names, links of each sort, an empty dir, special modes. */
function makeTree(): string {
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-walk-" }));
  const odd = ["with space", "new\nline", "ünï cødé ✓", "back\\slash", "glob[1]*"];
  const sub = (a: number, b: number) => `pkg${a}/${odd[(a + b) % odd.length]}${b}`;
  for (let a = 0; a < 12; a++) {
    for (let b = 0; b < 10; b++) {
      const dir = join(ws, sub(a, b), "deep");
      Deno.mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 16; f++) Deno.writeTextFileSync(join(dir, `f${f} ${odd[f % 5]}`), "x");
      Deno.writeTextFileSync(join(dir, "..", "top.txt"), "y".repeat(a * b));
    }
  }
  Deno.mkdirSync(join(ws, "empty"));
  Deno.mkdirSync(join(ws, "skip", "x"), { recursive: true });
  Deno.writeTextFileSync(join(ws, "skip", "x", "hidden"), "h");
  Deno.mkdirSync(join(ws, "pkg3", "skip"), { recursive: true });
  Deno.writeTextFileSync(join(ws, "pkg3", "skip", "kept"), "k");
  Deno.writeTextFileSync(join(ws, "s"), "setuid");
  Deno.chmodSync(join(ws, "s"), 0o4755);
  Deno.chmodSync(join(ws, "pkg1"), 0o1750);
  Deno.symlinkSync("../top.txt", join(ws, sub(2, 3), "to-file"));
  Deno.symlinkSync("pkg4", join(ws, "to-dir"));
  Deno.symlinkSync("missing", join(ws, "pkg5", "dangling"));
  Deno.symlinkSync("/etc/hostname", join(ws, "pkg6", "absolute"));
  return ws;
}

const EXCLUDES = [[], ["skip", "pkg2/with space3", "pkg7/new\nline4/deep"]];

Deno.test("listTree in two threads equals the in-process listing (all fields, links, excludes, odd names)", async () => {
  const ws = makeTree();
  const helper = new ListingHelper();
  try {
    for (const ex of EXCLUDES) {
      const serial = keyed(listTreeSync(ws, ex));
      assert.ok(serial.length > 2000);
      assert.equal(serial.some((k) => k.includes("hidden")), ex.length === 0);
      assert.ok(serial.some((k) => k.includes('"pkg3/skip/kept"')), "only the top-level skip");
      // The worker starts after the first listing and may miss a few; go on until it took part.
      const before = helper.parts;
      let runs = 0;
      for (; runs < 5 || (helper.parts === before && runs < 100); runs++) {
        assert.deepEqual(keyed(await listTree(ws, ex, 1, { threshold: 0, helper })), serial);
        await tick(); // the worker starts on a later turn of the event loop
      }
      assert.ok(helper.parts > before, `the worker listed a part (${runs} listings)`);
    }
  } finally {
    await helper.close();
    Deno.removeSync(ws, { recursive: true });
  }
});

Deno.test("the first large listing is done alone; the worker starts on a later turn of the event loop", async () => {
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-walk-" }));
  const helper = new ListingHelper();
  try {
    for (let d = 0; d < 4; d++) Deno.mkdirSync(join(ws, `d${d}`));
    const listed = await listTree(ws, [], 1, { threshold: 0, helper });
    assert.equal(listed.length, 5);
    assert.equal(helper.running, false, "creating a worker would have blocked that listing");
    await tick();
    assert.equal(helper.running, true);
    assert.equal((await listTree(ws, [], 1, { threshold: 10, helper })).length, 5);
  } finally {
    await helper.close();
    Deno.removeSync(ws, { recursive: true });
  }
});

Deno.test("the worker's part alone equals the in-process walk of the same chunks", async () => {
  const ws = makeTree();
  const helper = new ListingHelper();
  try {
    const { listed, chunks } = planListing(ws, new Set(["skip"]), 0);
    const control = new Int32Array(new SharedArrayBuffer(4));
    const id = helper.post({
      root: ws,
      exclude: ["skip"],
      chunks,
      control: control.buffer as SharedArrayBuffer,
    });
    assert.notEqual(id, undefined);
    // This thread claims nothing: the worker walks every chunk.
    const reply = await helper.result(id!, 30_000);
    assert.ok(reply && "count" in reply, JSON.stringify(reply));
    const out = [...listed];
    assert.equal(readPart(reply, out), true);
    assert.deepEqual(keyed(out), keyed(listTreeSync(ws, ["skip"])));
    assert.equal(readPart({ ...reply, count: reply.count + 1 }, []), false, "malformed part");
  } finally {
    await helper.close();
    Deno.removeSync(ws, { recursive: true });
  }
});

/** `big/` holds almost everything; nine small dirs beside it. */
function makeLopsided(): string {
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-walk-" }));
  for (let i = 0; i < 9; i++) {
    Deno.mkdirSync(join(ws, `small${i}`));
    Deno.writeTextFileSync(join(ws, `small${i}`, "f"), "");
  }
  for (let d = 0; d < 40; d++) {
    Deno.mkdirSync(join(ws, "big", `d${d}`, "sub"), { recursive: true });
    for (let f = 0; f < 60; f++) {
      Deno.writeTextFileSync(join(ws, "big", `d${d}`, "sub", `${f}`), "");
    }
  }
  return ws;
}

Deno.test("a directory holding most of the tree is split into its children (hint from the previous listing)", async () => {
  const ws = makeLopsided();
  const helper = new ListingHelper();
  try {
    const serial = listTreeSync(ws, []);
    const previous = new Map(serial.map((s) => [s.rel, s]));
    // Without a hint, ten first-level chunks are enough and big/ stays one chunk.
    assert.ok(planListing(ws, new Set(), serial.length).chunks.includes("big"));
    const { chunks } = planListing(ws, new Set(), serial.length, previous);
    assert.ok(!chunks.includes("big"), "big/ is split");
    assert.ok(chunks.includes("big/d0"));
    assert.equal(chunks.length, 49);
    const byFn = planListing(ws, new Set(), serial.length, (d) => (d === "big" ? 5000 : 2));
    assert.deepEqual(new Set(byFn.chunks), new Set(chunks));
    for (let i = 0; i < 100 && helper.parts < 2; i++) {
      await tick();
      const listed = await listTree(ws, [], serial.length, {
        threshold: 0,
        helper,
        hint: previous,
      });
      assert.deepEqual(keyed(listed), keyed(serial));
    }
    assert.ok(helper.parts >= 2);
  } finally {
    await helper.close();
    Deno.removeSync(ws, { recursive: true });
  }
});

Deno.test("a single first-level directory is listed one level down without a hint", () => {
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-walk-" }));
  try {
    for (let d = 0; d < 10; d++) Deno.mkdirSync(join(ws, "src", `m${d}`), { recursive: true });
    const { listed, chunks } = planListing(ws, new Set(), 0);
    assert.deepEqual(chunks.sort(), [...Array(10).keys()].map((d) => `src/m${d}`).sort());
    assert.equal(listed.length, 12); // ".", src, its ten dirs
  } finally {
    Deno.removeSync(ws, { recursive: true });
  }
});

/** A worker module (plain JS: not type-checked) that claims every chunk it can, notes that in
 * `claimed.txt`, then misbehaves as `how` says. */
function fakeWorker(dir: string, how: "error" | "throw" | "silent" | "load"): URL {
  const path = join(dir, `fake_${how}.mjs`);
  const act = how === "error"
    ? `parentPort.postMessage({ id: job.id, error: "NotFound: gone" });`
    : how === "throw"
    ? `throw new Error("crash");`
    : "";
  Deno.writeTextFileSync(
    path,
    how === "load" ? `throw new Error("cannot load");` : `
import { parentPort } from "node:worker_threads";
parentPort.on("message", (job) => {
  const c = new Int32Array(job.control);
  let n = 0;
  while (Atomics.add(c, 0, 1) < job.chunks.length) n++;
  if (n > 0) Deno.writeTextFileSync(${JSON.stringify(join(dir, "claimed.txt"))}, "${how}");
  ${act}
});`,
  );
  return new URL(`file://${path}`);
}

Deno.test("a worker that errors, crashes or cannot load: the listing is the in-process one", async () => {
  const ws = makeLopsided();
  const dir = Deno.makeTempDirSync({ prefix: "retie-fake-" });
  const claimed = join(dir, "claimed.txt");
  try {
    const serial = keyed(listTreeSync(ws, []));
    // big/ first and not split: this thread is busy there while the worker claims the rest.
    const hint = (d: string) => (d === "big" ? 1e6 : 1);
    for (const how of ["error", "throw", "load"] as const) {
      const helper = new ListingHelper(fakeWorker(dir, how));
      try {
        if (exists(claimed)) Deno.removeSync(claimed);
        for (let i = 0; i < 5 || (how !== "load" && !exists(claimed) && i < 100); i++) {
          await tick();
          const listed = await listTree(ws, [], 1e9, { threshold: 0, helper, hint });
          assert.deepEqual(keyed(listed), serial, how);
        }
        // The worker took chunks and gave nothing back: the listing above was the fallback's.
        assert.equal(exists(claimed), how !== "load", how);
      } finally {
        await helper.close();
      }
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
    Deno.removeSync(ws, { recursive: true });
  }
});

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("a worker that never answers is given up on at the deadline", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "retie-fake-" });
  const helper = new ListingHelper(fakeWorker(dir, "silent"));
  try {
    const control = new SharedArrayBuffer(4);
    const id = helper.post({ root: dir, exclude: [], chunks: ["a"], control });
    const t = performance.now();
    assert.equal(await helper.result(id!, 200), undefined);
    assert.ok(performance.now() - t < 10_000);
    // Closing settles a wait at once, whatever its deadline.
    const id2 = helper.post({ root: dir, exclude: [], chunks: ["a"], control });
    const waiting = helper.result(id2!, 600_000);
    await helper.close();
    assert.equal(await waiting, undefined);
    assert.equal(helper.running, false);
  } finally {
    await helper.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a worker that keeps failing is no longer started", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "retie-fake-" });
  const helper = new ListingHelper(fakeWorker(dir, "load"));
  try {
    const control = new SharedArrayBuffer(4);
    let refused = false;
    for (let i = 0; i < 20 && !refused; i++) {
      const id = helper.post({ root: dir, exclude: [], chunks: ["a"], control });
      if (id === undefined) refused = true;
      else assert.equal(await helper.result(id, 30_000), undefined);
    }
    assert.ok(refused);
  } finally {
    await helper.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a script listing through the shared worker exits on its own, under the shipped permissions", async () => {
  const ws = makeTree();
  const dir = Deno.makeTempDirSync({ prefix: "retie-exit-" });
  try {
    const script = join(dir, "list.ts");
    const mod = new URL("src/snapshot/walk.ts", `file://${REPO}`).href;
    const helperMod = new URL("src/snapshot/walk_helper.ts", `file://${REPO}`).href;
    Deno.writeTextFileSync(
      script,
      `import { listTree } from ${JSON.stringify(mod)};
import { ListingHelper } from ${JSON.stringify(helperMod)};
const root = ${JSON.stringify(ws)};
// The shared worker, never closed:
let n = (await listTree(root, [], 1, { threshold: 0 })).length;
await new Promise((r) => setTimeout(r, 0));
n = (await listTree(root, [], 1, { threshold: 0 })).length;
// A worker of its own (same class), never closed either, used until it took part:
const helper = new ListingHelper();
for (let i = 0; i < 100 && helper.parts === 0; i++) {
  n = (await listTree(root, [], 1, { threshold: 0, helper })).length;
  await new Promise((r) => setTimeout(r, 0));
}
// A worker given a job nobody waits for:
new ListingHelper().post({ root, exclude: [], chunks: [], control: new SharedArrayBuffer(4) });
console.log(JSON.stringify({ n, parts: helper.parts }));
`,
    );
    const flags = Deno.readTextFileSync(join(REPO, "permissions/base.flags")).split(/\s+/)
      .filter((f) => f !== "");
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...flags, script],
      cwd: REPO,
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    const out = await child.output();
    clearTimeout(timer);
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, `exit ${out.code} (killed when hung): ${stderr}`);
    const r = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.equal(r.n, listTreeSync(ws, []).length);
    assert.ok(r.parts > 0, "the worker took part under base.flags");
  } finally {
    Deno.removeSync(dir, { recursive: true });
    Deno.removeSync(ws, { recursive: true });
  }
});

Deno.test("closeListingWorker ends the shared worker; later listings start a new one", async () => {
  const ws = makeTree();
  try {
    const serial = keyed(listTreeSync(ws, []));
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 3; i++) {
        assert.deepEqual(keyed(await listTree(ws, [], 1, { threshold: 0 })), serial);
        await tick();
      }
      await closeListingWorker();
    }
  } finally {
    Deno.removeSync(ws, { recursive: true });
  }
});
