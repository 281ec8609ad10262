import assert from "node:assert/strict";
import { lineGuardFindings } from "../../src/inspect/guard_lines.ts";
import { inspectTextNoted, loadParsers } from "../../src/inspect/mod.ts";

/**
 * Odd edits of real security code must never throw: every layer of the inspector gets real
 * corpus files cut, spliced, swapped, re-encoded and padded in ways no test wrote by hand
 * (a deterministic generator, so a failure is reproducible from its seed).
 */
const CORPUS = new URL("./corpus/guards.jsonl", import.meta.url);

interface Pair {
  id: string;
  path: string;
  before: string;
  after: string;
}

function pairs(limit: number): Pair[] {
  return Deno.readTextFileSync(CORPUS).split("\n").filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Pair).filter((_, i) => i % 3 === 0).slice(0, limit);
}

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Mutation = (p: Pair, r: () => number) => [string, string];

const at = (s: string, r: () => number) => Math.floor(r() * (s.length + 1));
const lines = (s: string) => s.split("\n");

const MUTATIONS: Record<string, Mutation> = {
  swapped: (p) => [p.after, p.before],
  "cut mid-token": (p, r) => [p.before, p.after.slice(0, at(p.after, r))],
  "lines dropped": (p, r) => {
    const ls = lines(p.after);
    const i = Math.floor(r() * ls.length);
    ls.splice(i, 1 + Math.floor(r() * 6));
    return [p.before, ls.join("\n")];
  },
  "lines duplicated": (p, r) => {
    const ls = lines(p.before);
    const i = Math.floor(r() * ls.length);
    return [ls.join("\n"), [...ls.slice(0, i), ...ls.slice(i, i + 4), ...ls.slice(i)].join("\n")];
  },
  "an exit inserted past the end of the old text": (p, r) => {
    const ls = lines(p.before);
    const tail = ls.slice(-6);
    const grown = [...ls, ...tail, ...tail, ...tail];
    const i = ls.length + Math.floor(r() * tail.length * 2);
    const indent = /^\s*/.exec(grown[i] ?? "")?.[0] ?? "";
    grown.splice(i, 0, `${indent}return`);
    return [p.before, grown.join("\n")];
  },
  crlf: (p) => [p.before.replace(/\n/g, "\r\n"), p.after],
  "astral and control characters": (p, r) => {
    const i = at(p.after, r);
    return [p.before, `${p.after.slice(0, i)}\u{1F512}\u0007\u2028${p.after.slice(i)}`];
  },
  "unbalanced brackets": (p, r) => {
    const i = at(p.after, r);
    return [p.before, `${p.after.slice(0, i)})]}{([${p.after.slice(i)}`];
  },
  "every line commented": (p) => [p.before, lines(p.before).map((l) => `# ${l}`).join("\n")],
  "one huge line": (p) => [p.before, p.after.replace(/\n/g, " ")],
  "empty after": (p) => [p.before, ""],
  "headers only": (p) => [
    p.before,
    lines(p.before).filter((l) => /^\s*(if|elif|def|func|function|return)\b/.test(l)).join("\n"),
  ],
};

Deno.test("odd input: the changed-line signals never throw on mangled real code", () => {
  let n = 0;
  for (const p of pairs(120)) {
    for (const [name, mutate] of Object.entries(MUTATIONS)) {
      const seed = n++;
      const [before, after] = mutate(p, rng(seed));
      try {
        lineGuardFindings(p.path, before, after);
      } catch (e) {
        assert.fail(`${p.id} / ${name} (seed ${seed}) threw: ${(e as Error).stack}`);
      }
    }
  }
  assert.ok(n >= 1000, `only ${n} mangled edits were tried`);
});

Deno.test("odd input: the whole inspector (parser path too) never throws on mangled real code", async () => {
  await loadParsers();
  let n = 0;
  for (const p of pairs(60)) {
    for (const [name, mutate] of Object.entries(MUTATIONS)) {
      const seed = 10_000 + n++;
      const [before, after] = mutate(p, rng(seed));
      let r;
      try {
        r = inspectTextNoted(p.path, before, after);
      } catch (e) {
        assert.fail(`${p.id} / ${name} (seed ${seed}) threw: ${(e as Error).stack}`);
      }
      // A layer that tripped says so; none should have.
      assert.ok(
        !r.notes.some((x) => x.includes("signals skipped")),
        `${p.id} / ${name}: ${r.notes.join("; ")}`,
      );
    }
  }
  assert.ok(n >= 600);
});
