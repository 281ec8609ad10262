import {
  deepStrictEqual as assertEquals,
  ok as assert,
  throws as assertThrows,
} from "node:assert/strict";
import { join } from "node:path";
import { writeFileAtomicSync } from "../../src/core/atomic_write.ts";

function entries(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

Deno.test("writeFileAtomicSync replaces the file whole with the exact mode and leaves no temp", () => {
  const dir = Deno.makeTempDirSync();
  const path = join(dir, "state.json");
  Deno.writeTextFileSync(path, "old");
  Deno.chmodSync(path, 0o644);
  // A mode the usual umask (022) would cut on create: only an explicit chmod gives it whole. The
  // umask itself is not changed here: it is process-wide, and test files run side by side.
  writeFileAtomicSync(path, new TextEncoder().encode("new bytes"), { mode: 0o666 });
  assertEquals(Deno.readTextFileSync(path), "new bytes");
  assertEquals(Deno.statSync(path).mode! & 0o777, 0o666);
  assertEquals(entries(dir), ["state.json"]);
});

Deno.test("writeFileAtomicSync defaults to 0600 and creates parents only when asked", () => {
  const dir = Deno.makeTempDirSync();
  const path = join(dir, "a", "b", "f.txt");
  assertThrows(() => writeFileAtomicSync(path, "x"), Deno.errors.NotFound);
  writeFileAtomicSync(path, "x", { mkdirMode: 0o700 });
  assertEquals(Deno.readTextFileSync(path), "x");
  assertEquals(Deno.statSync(path).mode! & 0o777, 0o600);
  assertEquals(Deno.statSync(join(dir, "a")).mode! & 0o777, 0o700);
});

Deno.test("writeFileAtomicSync that cannot rename leaves the target and no temp file", () => {
  const dir = Deno.makeTempDirSync();
  const target = join(dir, "taken");
  Deno.mkdirSync(target);
  Deno.writeTextFileSync(join(target, "inside"), "keep");
  assertThrows(() => writeFileAtomicSync(target, "data"));
  assert(Deno.statSync(target).isDirectory);
  assertEquals(Deno.readTextFileSync(join(target, "inside")), "keep");
  assertEquals(entries(dir), ["taken"]);
});
