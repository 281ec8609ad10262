/**
 * Builds the ordinary-commit corpus: real, small edits from the histories of the projects the
 * guard corpus comes from (auth libraries, web frameworks, identity servers). Most such commits
 * change security code without weakening it, which makes them the hard benign case: what share of
 * ordinary work on security code draws a guard finding, and negatives for the learned signal.
 *
 * The list, `tests/inspect/corpus/commits.tsv` (repo, commit, path: small, committed), is rebuilt
 * into texts at `$OUT` (default `/work/data/commits.jsonl`: large, not committed) from local
 * mirrors (`$MIRRORS/owner+name/repo`). With `--sample` the list is picked anew: for each project
 * of the guard corpus, the newest 400 non-merge commits, up to 12 spread evenly that modify one
 * source file (not a test) by at most 40 lines, reversed fixes of the guard corpus left out.
 *
 * Run: `MIRRORS=/work/.mirror deno run -A scripts/corpus_commits_build.ts [--sample]`
 *
 * @module
 */
import { existsSync } from "node:fs";
import { run } from "../src/exec.ts";
import { REVERSED_FIXES } from "./corpus_guards_spec.ts";

const MIRRORS = Deno.env.get("MIRRORS") ?? "/work/.mirror";
const OUT = Deno.env.get("OUT") ?? "/work/data/commits.jsonl";
const LIST = new URL("../tests/inspect/corpus/commits.tsv", import.meta.url).pathname;
const CODE = /\.(py|js|mjs|cjs|jsx|ts|mts|cts|tsx|go)$/;
const TEST =
  /(^|\/)(tests?|__tests__|spec|specs|testing|fixtures?|examples?|docs?)\/|[._-](test|spec)\.\w+$|(^|\/)test_\w+\.py$|_test\.go$|conftest\.py$/i;
const PER_REPO = 12;

const dec = new TextDecoder();
async function git(dir: string, ...args: string[]): Promise<string | null> {
  const r = await run({ cmd: "git", args: ["-C", dir, ...args] });
  return r.code === 0 ? dec.decode(r.stdout) : null;
}

/** The texts of one listed commit's file, or null when the mirror lacks it. */
async function texts(repo: string, commit: string, path: string) {
  const dir = `${MIRRORS}/${repo.replace("/", "+")}/repo`;
  const before = await git(dir, "show", `${commit}^:${path}`);
  const after = await git(dir, "show", `${commit}:${path}`);
  if (before === null || after === null || before === after) return null;
  if (before.length > 200_000 || after.length > 200_000 || before.includes("\0")) return null;
  return { repo, commit, path, before, after };
}

/** Picks the commits anew from the mirrors (`--sample`): the list changes with the corpus. */
async function sample(): Promise<string[]> {
  const repos = new Set<string>();
  const corpus = new URL("../tests/inspect/corpus/guards.jsonl", import.meta.url);
  for (const line of Deno.readTextFileSync(corpus).split("\n")) {
    if (line.trim()) repos.add(JSON.parse(line).repo);
  }
  const fixes = new Set(REVERSED_FIXES.map((f) => f.commit.slice(0, 7)));
  const list: string[] = [];
  for (const repo of [...repos].sort()) {
    const dir = `${MIRRORS}/${repo.replace("/", "+")}/repo`;
    if (!existsSync(dir)) continue;
    const log = await git(dir, "log", "--no-merges", "-n", "400", "--numstat", "--format=@%H");
    if (!log) continue;
    // Commits that modify exactly one source file, by few lines.
    const picks: { commit: string; path: string }[] = [];
    for (const block of log.split("@").slice(1)) {
      const [head, ...rest] = block.split("\n");
      const files = rest.map((l) => l.split("\t")).filter((p) => p.length === 3);
      const code = files.filter(([, , p]) => CODE.test(p) && !TEST.test(p));
      if (code.length !== 1) continue;
      const [a, d, path] = code[0];
      const n = Number(a) + Number(d);
      if (!(n > 0 && n <= 40) || fixes.has(head.slice(0, 7))) continue;
      picks.push({ commit: head.trim(), path });
    }
    const step = Math.max(1, Math.floor(picks.length / PER_REPO));
    let taken = 0;
    for (let i = 0; i < picks.length && taken < PER_REPO; i += step) {
      const { commit, path } = picks[i];
      if (!(await texts(repo, commit, path))) continue;
      list.push(`${repo}\t${commit}\t${path}`);
      taken++;
    }
  }
  Deno.writeTextFileSync(LIST, list.join("\n") + "\n");
  return list;
}

// By default the committed list is rebuilt as it is; `--sample` picks anew.
const list = Deno.args.includes("--sample")
  ? await sample()
  : Deno.readTextFileSync(LIST).split("\n").filter((l) => l.trim());
const out: string[] = [];
for (const line of list) {
  const [repo, commit, path] = line.split("\t");
  const t = await texts(repo, commit, path);
  if (t) out.push(JSON.stringify(t));
  else console.error(`${repo} ${commit} ${path}: not in the mirror, skipped`);
}
Deno.writeTextFileSync(OUT, out.join("\n") + "\n");
console.log(
  `${out.length} commits from ${new Set(list.map((l) => l.split("\t")[0])).size} projects`,
);
