/**
 * `deno test --parallel` runs test files as isolates of ONE process: they share its environment.
 * A test that sets HOME, XDG_* or DENO_DIR moves the state, and the module cache that child
 * processes are given, of every test running beside it; so does one that changes the umask or the
 * working directory (a child then downloads every npm
 * package again, or fails offline). Such tests use `withBaseDirs` (this isolate only) or pass an
 * `env` to the child instead.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SHARED =
  /Deno\.env\.(?:set|delete)\(\s*["'`](HOME|XDG_[A-Z_]+|DENO_DIR)["'`]|Deno\.(umask|chdir)\(/g;

/** `path:line name` for every write of a shared variable in `text`. */
export function sharedEnvWrites(path: string, text: string): string[] {
  return [...text.matchAll(SHARED)].map((m) =>
    `${path}:${text.slice(0, m.index).split("\n").length} ${m[1] ?? m[2]}`
  );
}

function* tsFiles(dir: string): Generator<string> {
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory && e.name !== "fixtures") yield* tsFiles(p);
    else if (e.isFile && p.endsWith(".ts")) yield p;
  }
}

Deno.test("tests never change the process-wide base directories, module cache, umask or cwd", () => {
  const self = fileURLToPath(import.meta.url);
  const found = [...tsFiles(join(ROOT, "tests")), ...tsFiles(join(ROOT, "bench"))]
    .filter((p) => p !== self)
    .flatMap((p) => sharedEnvWrites(relative(ROOT, p), Deno.readTextFileSync(p)));
  assert.deepEqual(found, []);
});

Deno.test("the scan finds a planted write of each shared variable, and nothing else", () => {
  const planted = [
    `Deno.env.set("XDG_CACHE_HOME", dir);`,
    `Deno.env.delete('XDG_STATE_HOME');`,
    "Deno.env.set(`HOME`, d);",
    `Deno.env.set( "DENO_DIR", d);`,
    `Deno.env.set("RETIE_TEST_SECRET", "x");`,
    `Deno.env.get("XDG_CACHE_HOME");`,
    `const old = Deno.umask(0o077);`,
    `Deno.chdir(dir);`,
  ].join("\n");
  assert.deepEqual(sharedEnvWrites("t.ts", planted), [
    "t.ts:1 XDG_CACHE_HOME",
    "t.ts:2 XDG_STATE_HOME",
    "t.ts:3 HOME",
    "t.ts:4 DENO_DIR",
    "t.ts:7 umask",
    "t.ts:8 chdir",
  ]);
});
