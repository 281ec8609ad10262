/**
 * `retie inspect`: the inspector on its own, for CI and pre-commit hooks.
 *
 * - `--before A --after B [--path NAME]`: one file's two versions (either side may be omitted
 *   for a created or deleted file);
 * - `--git [REV]`: the working tree against REV (default HEAD), git run inside the sandbox;
 * - `--jsonl`: records `{"id","path","before","after"}` on stdin, one result line per record,
 *   in order; a bad line yields `{"id":null,"line":N,"error":"…"}` and processing continues.
 *
 * Exit 0 no high finding, 1 any high finding, 2 bad input (or, with `--jsonl`, bad lines and no
 * high finding).
 *
 * @module
 */
import type { Register } from "./commands.ts";
import { errorMessage, RetieError } from "../core/errors.ts";
import type { FileChange } from "../core/tool.ts";
import type { Finding } from "../inspect/types.ts";

interface InspectOptions {
  before?: string;
  after?: string;
  path?: string;
  git?: string | boolean;
  jsonl?: boolean;
  json?: boolean;
}

/**
 * Registers `retie inspect`.
 *
 * @example
 * ```ts
 * import { Command } from "commander";
 * import { register } from "./inspect.ts";
 * const program = new Command("retie");
 * register(program);
 * ```
 */
export const register: Register = (program) => {
  program
    .command("inspect")
    .description(
      "find what an edit adds (secrets, disabled TLS checks) and removes (auth and signature " +
        "checks); exit 1 on a high finding",
    )
    .option("--before <file>", "the file before the edit (omit for a new file)")
    .option("--after <file>", "the file after the edit (omit for a deleted file)")
    .option("--path <name>", "path that decides the language (default: --after or --before)")
    .option(
      "--git [rev]",
      "inspect the working tree against REV (default HEAD), git in the sandbox",
    )
    .option(
      "--jsonl",
      'read {"id","path","before","after"} lines on stdin, write one result per line',
    )
    .option("--json", "print the result as JSON")
    .action(async (o: InspectOptions) => {
      const modes = [
        o.before !== undefined || o.after !== undefined,
        o.git !== undefined,
        !!o.jsonl,
      ];
      if (modes.filter(Boolean).length !== 1) {
        throw new RetieError("inspect: choose one of --before/--after, --git [REV] or --jsonl", {
          hint: "e.g. retie inspect --before old.py --after new.py",
          exitCode: 2,
        });
      }
      if (o.jsonl) return await jsonlMode();
      let changes: FileChange[];
      if (o.git !== undefined) {
        const { gitChanges } = await import("./inspect_git.ts");
        changes = await gitChanges(Deno.cwd(), typeof o.git === "string" ? o.git : "HEAD");
      } else {
        const path = o.path ?? o.after ?? o.before ?? "";
        changes = [{
          path,
          before: readInput("--before", o.before),
          after: readInput("--after", o.after),
        }];
      }
      const { inspectChanges, formatFinding, loadParsers } = await import("../inspect/mod.ts");
      await loadParsers();
      const result = inspectChanges(changes);
      if (o.json) console.log(JSON.stringify(result, null, 2));
      else console.log(render(result.findings, changes.length, formatFinding));
      if (result.maxSeverity === "high") Deno.exitCode = 1;
    });
};

function readInput(flag: string, file: string | undefined): string | null {
  if (file === undefined) return null;
  try {
    return Deno.readTextFileSync(file);
  } catch (e) {
    throw new RetieError(`${flag} ${file}: ${errorMessage(e)}`, {
      hint: `pass a readable file to ${flag}, or omit it for a created/deleted file`,
      exitCode: 2,
    });
  }
}

function render(findings: Finding[], files: number, format: (f: Finding) => string): string {
  if (findings.length === 0) {
    return `no findings (${files} file${files === 1 ? "" : "s"} inspected)`;
  }
  const lines: string[] = [];
  let last = "";
  for (const f of findings) {
    if (f.path !== last) lines.push(f.path || "(input)");
    last = f.path;
    lines.push(`  ${format(f)}  ${f.message}`);
  }
  return lines.join("\n");
}

async function readStdin(): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const c of Deno.stdin.readable) chunks.push(c);
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.length;
  }
  return new TextDecoder().decode(all);
}

function isTextOrNull(v: unknown): v is string | null {
  return v === null || typeof v === "string";
}

async function jsonlMode(): Promise<void> {
  const { inspectAll } = await import("../inspect/pool.ts");
  const lines = (await readStdin()).split("\n");
  let high = false;
  let bad = false;
  // Each line's output in place: an error now, or the index of its edit among those inspected.
  const out: (string | number)[] = [];
  const edits: { id: unknown; path: string; before: string | null; after: string | null }[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(line);
      if (rec === null || typeof rec !== "object" || Array.isArray(rec)) {
        throw new Error("not an object");
      }
    } catch (e) {
      bad = true;
      out.push(
        JSON.stringify({
          id: null,
          line: i + 1,
          error: `line ${i + 1}: invalid JSON (${errorMessage(e)})`,
        }),
      );
      return;
    }
    const id = rec.id ?? null;
    const problem = typeof rec.path !== "string"
      ? '"path" must be a string'
      : !isTextOrNull(rec.before) || !isTextOrNull(rec.after)
      ? '"before" and "after" must be strings or null'
      : null;
    if (problem) {
      bad = true;
      out.push(JSON.stringify({ id, line: i + 1, error: `line ${i + 1}: ${problem}` }));
      return;
    }
    out.push(edits.length);
    edits.push({
      id,
      path: rec.path as string,
      before: rec.before as string | null,
      after: rec.after as string | null,
    });
  });
  // Many edits are shared among a few workers when the machine has the cores (`pool.ts`).
  const found = await inspectAll(edits);
  const text = out.map((o) => {
    if (typeof o === "string") return o;
    const findings = found[o];
    if (findings.some((f) => f.severity === "high")) high = true;
    return JSON.stringify({
      id: edits[o].id,
      findings: findings.map((f) => ({
        rule: f.rule,
        severity: f.severity,
        before: f.before,
        after: f.after,
      })),
    });
  });
  if (text.length > 0) console.log(text.join("\n"));
  Deno.exitCode = high ? 1 : bad ? 2 : 0;
}
