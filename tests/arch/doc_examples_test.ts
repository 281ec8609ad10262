/**
 * The documentation examples that `deno task test:doc` runs: the list names real files, and every
 * example in them states its result with an assertion (a `// result` comment cannot fail).
 */
import assert from "node:assert/strict";

const root = new URL("../../", import.meta.url).pathname;
const tasks = JSON.parse(Deno.readTextFileSync(`${root}deno.json`)).tasks as Record<string, string>;

Deno.test("test:doc runs the examples of the listed modules, and deno task test runs it", () => {
  const words = tasks["test:doc"].split(/\s+/);
  assert.deepEqual(words.slice(0, 4), ["deno", "test", "--doc", "--allow-all"]);
  const files = words.slice(4);
  assert.ok(files.length >= 30, `only ${files.length} files listed`);
  for (const f of files) {
    assert.match(f, /^src\/.+\.ts$/, f);
    const text = Deno.readTextFileSync(`${root}${f}`);
    const blocks = [...text.matchAll(/\* ```(?:ts|typescript)\s*\n([\s\S]*?)\* ```/g)];
    assert.ok(blocks.length > 0, `${f} has no example`);
    for (const [, body] of blocks) {
      assert.match(body, /\bassert\b/, `an example in ${f} does not assert:\n${body}`);
    }
  }
  assert.match(tasks.test, /deno task test:doc/);
});
