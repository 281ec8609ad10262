/**
 * Builds `tests/inspect/corpus/guards.jsonl` from `scripts/corpus_guards_spec.ts`: for each edit,
 * reads the real file from a local mirror of the repository (a bare git directory at
 * `$MIRRORS/owner+name/repo`, e.g. made with `git clone --mirror`), cuts an excerpt of at most
 * ~120 lines around the snippet (whole lines, starting at a top-level line), applies the edit and
 * records repository, commit and path with the before/after excerpts. Rows keep the committed
 * file's order; rows new to it are appended.
 *
 * Usage: `MIRRORS=/path deno run -A scripts/corpus_guards_build.ts`
 *
 * @module
 */
import { run } from "../src/exec.ts";
import { EDITS, REVERSED_FIXES } from "./corpus_guards_spec.ts";

const MIRRORS = Deno.env.get("MIRRORS") ?? "/work/.mirror";
const git = async (repo: string, ...args: string[]) => {
  const r = await run({
    cmd: "git",
    args: ["-C", `${MIRRORS}/${repo.replace("/", "+")}/repo`, ...args],
  });
  const dec = new TextDecoder();
  if (r.code !== 0) throw new Error(`git ${args.join(" ")}: ${dec.decode(r.stderr)}`);
  return dec.decode(r.stdout);
};

const indent = (l: string) => l.length - l.trimStart().length;
const DEF =
  /^\s*(?:async\s+def\s|def\s|class\s|@|function[\s*]|func\s|export\s|(?:async\s+)?[A-Za-z_$][\w$]*\s*\([^)]*\)\s*\{|const\s|let\s|var\s|module\.exports|type\s)/;

/** An excerpt around lines [first, last): from the enclosing definition, dedented. */
function windowOf(lines: string[], first: number, last: number) {
  let start = first;
  let depth = indent(lines[first] ?? "");
  for (let i = first; i >= Math.max(0, first - 90); i--) {
    const l = lines[i] ?? ""; // (a fix that only appends past the old end)
    if (l.trim() === "" || !DEF.test(l)) continue;
    if (indent(l) <= depth) {
      start = i;
      depth = indent(l);
      if (first - i >= 10) break;
    }
  }
  while (start > 0 && /^\s*@/.test(lines[start - 1])) start--; // keep decorators
  let end = Math.min(lines.length, last + 40);
  for (let i = last + 5; i < Math.min(lines.length, last + 60); i++) {
    if (lines[i].trim() !== "" && indent(lines[i]) <= depth && DEF.test(lines[i])) {
      end = i;
      break;
    }
  }
  const dedented = lines.slice(start, end).map((l) => l.slice(Math.min(depth, indent(l))));
  return { start, end, depth, dedented };
}

const out: string[] = [];
let bad = 0;
for (const e of EDITS) {
  const commit = (await git(e.repo, "rev-parse", "HEAD")).trim();
  const text = await git(e.repo, "show", `${commit}:${e.path}`);
  const at = text.indexOf(e.find);
  if (at < 0 || text.indexOf(e.find, at + 1) >= 0) {
    console.error(`${e.id}: snippet ${at < 0 ? "not found" : "not unique"} in ${e.repo}/${e.path}`);
    bad++;
    continue;
  }
  const lines = text.split("\n");
  const first = text.slice(0, at).split("\n").length - 1;
  const last = first + e.find.split("\n").length;
  const { start, end, depth, dedented } = windowOf(lines, first, last);
  const before = dedented.join("\n") + "\n";
  const dedent = (t: string) =>
    t.split("\n").map((l) => l.slice(Math.min(depth, indent(l)))).join("\n");
  const after = before.replace(dedent(e.find), dedent(e.replace));
  if (after === before) {
    console.error(`${e.id}: edit did not apply to the excerpt`);
    bad++;
    continue;
  }
  out.push(JSON.stringify({
    id: e.id,
    split: e.split,
    cls: e.cls,
    repo: e.repo,
    commit,
    path: e.path,
    lines: `${start + 1}-${end}`,
    before,
    after,
  }));
}
// Reversed security fixes: excerpt around the changed lines, fixed → vulnerable.
for (const f of REVERSED_FIXES) {
  const fixed = (await git(f.repo, "rev-parse", f.commit)).trim();
  const fixedText = await git(f.repo, "show", `${fixed}:${f.path}`);
  const vulnText = await git(f.repo, "show", `${fixed}^:${f.path}`);
  const a = fixedText.split("\n");
  const b = vulnText.split("\n");
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  const wa = windowOf(a, p, a.length - s);
  const wb = windowOf(b, p, b.length - s);
  const from = Math.min(wa.start, wb.start);
  const depth = Math.min(wa.depth, wb.depth);
  const cutA = a.slice(from, Math.max(wa.end, a.length - s + 5)).map((l) =>
    l.slice(Math.min(depth, indent(l)))
  );
  const cutB = b.slice(from, Math.max(wb.end, b.length - s + 5)).map((l) =>
    l.slice(Math.min(depth, indent(l)))
  );
  const before = cutA.join("\n") + "\n";
  const after = cutB.join("\n") + "\n";
  out.push(JSON.stringify({
    id: f.id,
    split: f.split ?? "history",
    cls: f.cls,
    repo: f.repo,
    commit: fixed,
    path: f.path,
    lines: `${from + 1}-${from + cutA.length} (fix reversed: ${f.note})`,
    before,
    after,
  }));
}
// Rows keep the order of the committed file (earlier batches were appended there), and rows new to
// it come at the end in spec order: a rebuild changes only what changed.
const OUT = "tests/inspect/corpus/guards.jsonl";
const committed = (() => {
  try {
    return Deno.readTextFileSync(OUT).split("\n").filter((l) => l.trim() !== "")
      .map((l) => (JSON.parse(l) as { id: string }).id);
  } catch {
    return [] as string[];
  }
})();
const rank = new Map(committed.map((id, i) => [id, i]));
const idOf = (row: string) => (JSON.parse(row) as { id: string }).id;
const ordered = out.map((row, i) => ({ row, key: rank.get(idOf(row)) ?? committed.length + i }))
  .sort((x, y) => x.key - y.key).map((x) => x.row);
Deno.writeTextFileSync(OUT, ordered.join("\n") + "\n");
console.log(`${out.length} edits written, ${bad} skipped`);
if (bad) Deno.exitCode = 1;
