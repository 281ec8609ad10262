/**
 * Costs of the file tools on a generated workspace of 5,000 files (100 dirs, ~2 KB each, a
 * .gitignore): path resolution, read, edit, write, and whole-tree glob and grep.
 */
import type { ToolContext } from "../src/core/tool.ts";
import { resolveToolPath } from "../src/tools/confine.ts";
import { editTool } from "../src/tools/edit.ts";
import { globTool } from "../src/tools/glob.ts";
import { grepTool } from "../src/tools/grep.ts";
import { readTool } from "../src/tools/read.ts";
import { writeTool } from "../src/tools/write.ts";

const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-tools-bench-" }));
const body = Array.from({ length: 60 }, (_, i) => `const v${i} = "value ${i}"; // line ${i}`)
  .join("\n");
for (let d = 0; d < 100; d++) {
  Deno.mkdirSync(`${ws}/pkg${d}/src/deep`, { recursive: true });
  for (let f = 0; f < 50; f++) {
    const where = f % 2 ? `${ws}/pkg${d}/src` : `${ws}/pkg${d}/src/deep`;
    Deno.writeTextFileSync(`${where}/m${f}.ts`, body + (f === 7 ? "\n// TODO fix\n" : "\n"));
  }
}
Deno.writeTextFileSync(`${ws}/.gitignore`, "*.log\ndist/\n");
Deno.writeTextFileSync(`${ws}/long.txt`, `${body}\n`.repeat(40)); // 2,400 lines
const ctx: ToolContext = {
  workspace: ws,
  protectedPaths: ["/nonexistent/retie-state"],
  signal: new AbortController().signal,
  sandbox: { available: true, network: false },
  headless: true,
  sessionId: "bench",
  services: {},
};
globalThis.addEventListener("unload", () => Deno.removeSync(ws, { recursive: true }));

Deno.bench("resolveToolPath: 4-component path", () => {
  resolveToolPath(ctx, "pkg42/src/deep/m8.ts");
});
Deno.bench("read: classify + first page (2,000 lines)", async () => {
  const args = { path: "long.txt" };
  const approved = await readTool.classify(args, ctx);
  await readTool.handler(args, ctx, approved);
});
let n = 0;
Deno.bench("write: classify + 2 KB file (temp + rename, verified)", async () => {
  const args = { path: `out/w${n++ % 50}.ts`, content: body };
  const approved = await writeTool.classify(args, ctx);
  await writeTool.handler(args, ctx, approved);
});
let flip = false;
Deno.bench("edit: classify + preview + one replacement", async () => {
  const [a, b] = flip ? ['value 30"', 'VALUE 30"'] : ['VALUE 30"', 'value 30"'];
  flip = !flip;
  const args = { path: "pkg3/src/m1.ts", old_text: a, new_text: b };
  const approved = await editTool.classify(args, ctx);
  await editTool.preview!(args, ctx);
  await editTool.handler(args, ctx, approved);
});
Deno.bench("glob: *.ts over 5,000 files", async () => {
  await globTool.handler(
    { pattern: "*.ts", limit: 10 },
    ctx,
    await globTool.classify({ pattern: "*.ts", limit: 10 }, ctx),
  );
});
Deno.bench("grep: TODO over 5,000 files (10 MB)", async () => {
  await grepTool.handler(
    { pattern: "TODO" },
    ctx,
    await grepTool.classify({ pattern: "TODO" }, ctx),
  );
});
