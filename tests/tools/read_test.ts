import assert from "node:assert/strict";
import { readTool } from "../../src/tools/read.ts";
import { call, fixture, plant } from "./tool_ctx.ts";

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

Deno.test("read shows numbered lines and pages with offset/limit", async () => {
  const f = fixture();
  try {
    plant(f.ws, { "a.txt": lines(10) });
    const all = await call(readTool, f.ctx, { path: "a.txt" });
    assert.equal(all.ok, true);
    assert.equal(all.output.split("\n").length, 10);
    assert.equal(all.output.split("\n")[0], "     1\tline 1");
    const page = await call(readTool, f.ctx, { path: "a.txt", offset: 4, limit: 3 });
    assert.equal(
      page.output,
      "     4\tline 4\n     5\tline 5\n     6\tline 6\n[lines 4-6 of 10; next page: read with offset=7]",
    );
    assert.equal(page.detail?.next, 7);
    const past = await call(readTool, f.ctx, { path: "a.txt", offset: 50 });
    assert.equal(past.ok, false);
    assert.match(past.output, /offset 50 is past the end of a.txt \(10 lines\)/);
  } finally {
    f.cleanup();
  }
});

Deno.test("read pages a long file by default and says how to get the next page", async () => {
  const f = fixture();
  try {
    plant(f.ws, { "big.txt": lines(2500) });
    const r = await call(readTool, f.ctx, { path: "big.txt" });
    assert.match(r.output, /\[lines 1-2000 of 2500; next page: read with offset=2001\]$/);
    const next = await call(readTool, f.ctx, { path: "big.txt", offset: 2001 });
    assert.ok(next.output.startsWith("  2001\tline 2001\n"));
    assert.doesNotMatch(next.output, /next page/);
  } finally {
    f.cleanup();
  }
});

Deno.test("read of a huge file stops after the page instead of reading it all", async () => {
  const f = fixture();
  try {
    const row = "x".repeat(99) + "\n";
    const chunk = new TextEncoder().encode(row.repeat(10_000)); // 1 MB
    const file = Deno.openSync(`${f.ws}/huge.log`, { write: true, create: true });
    for (let i = 0; i < 12; i++) file.writeSync(chunk);
    file.close();
    const r = await call(readTool, f.ctx, { path: "huge.log", limit: 5 });
    assert.match(
      r.output,
      /\[lines 1-5 of a 11\.4 MB file; more follows; next page: read with offset=6\]/,
    );
    assert.equal(r.detail?.lines, null);
  } finally {
    f.cleanup();
  }
});

Deno.test("read caps a page by characters and cuts very long lines", async () => {
  const f = fixture();
  try {
    plant(f.ws, { "wide.txt": ("y".repeat(5000) + "\n").repeat(40) });
    const r = await call(readTool, f.ctx, { path: "wide.txt" });
    assert.match(r.output, /\[line cut: 5000 chars\]/);
    assert.match(r.output, /next page: read with offset=\d+\]$/);
    assert.ok(r.output.length < 70_000);
  } finally {
    f.cleanup();
  }
});

Deno.test("read describes binary files instead of dumping them", async () => {
  const f = fixture();
  try {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    plant(f.ws, { "logo.png": png, "latin1.txt": new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
    const r = await call(readTool, f.ctx, { path: "logo.png" });
    assert.equal(r.output, "logo.png: binary file, 12 B, PNG image; contents not shown");
    const l = await call(readTool, f.ctx, { path: "latin1.txt" });
    assert.match(l.output, /binary file, 5 B, binary data \(\.txt\)/);
  } finally {
    f.cleanup();
  }
});

Deno.test("read: UTF-8 split across chunks, CRLF, empty files, directories, missing files", async () => {
  const f = fixture();
  try {
    const text = ("é".repeat(40_000) + "\r\n").repeat(3); // 80 KB lines: chunk edges split a char
    plant(f.ws, { "u.txt": text, "empty.txt": "", "d/x.txt": "x" });
    const u = await call(readTool, f.ctx, { path: "u.txt", limit: 1 });
    assert.ok(u.output.startsWith("     1\t" + "é".repeat(2000) + "… [line cut: 40000 chars]"));
    assert.doesNotMatch(u.output, /\uFFFD|\r/);
    const e = await call(readTool, f.ctx, { path: "empty.txt" });
    assert.equal(e.output, "empty.txt: (empty file)");
    const d = await call(readTool, f.ctx, { path: "d" });
    assert.equal(d.ok, false);
    assert.match(d.output, /is a directory; use ls/);
    const m = await call(readTool, f.ctx, { path: "nope.txt" });
    assert.equal(m.ok, false);
    assert.match(m.output, /cannot open \(nope.txt\): no such file or directory/);
  } finally {
    f.cleanup();
  }
});

Deno.test("read of an approved outside file works; a FIFO does not hang", async () => {
  const f = fixture();
  try {
    const r = await call(readTool, f.ctx, { path: `${f.outside}/secret.txt` });
    assert.equal(r.ok, true);
    assert.match(r.output, /TOP SECRET/);
    const fifo = `${f.ws}/pipe`;
    const mk = new Deno.Command("mkfifo", { args: [fifo] }).outputSync();
    assert.equal(mk.success, true);
    const p = await call(readTool, f.ctx, { path: "pipe" });
    assert.equal(p.ok, false);
    assert.match(p.output, /not a regular file/);
  } finally {
    f.cleanup();
  }
});
