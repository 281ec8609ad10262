/**
 * Loads the real-code corpora of the inspector (see docs/inspector.md, "Measured on real code"):
 * `guards.jsonl` (guard removals in excerpts of real files), `secrets_gitleaks.jsonl` (gitleaks'
 * rule tests: true positives and its false positives) and `negatives.jsonl` (placeholders,
 * examples and redacted values from real projects). Secret texts are stored base64-encoded.
 *
 * @module
 */
import { GUARD_FAMILY } from "../../../src/inspect/types.ts";

/** One before/after case. */
/** The guard family: a guard edit counts as found when any of these findings is reported. */
export const GUARD_RULES: ReadonlySet<string> = GUARD_FAMILY;

/**
 * The batch number of a corpus split (`heldout45` → 45; the first splits, `dev` and `heldout`,
 * count as 0).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { batchOf } from "./load.ts";
 * assert.equal(batchOf("history57"), 57);
 * assert.equal(batchOf("dev"), 0);
 * ```
 */
export function batchOf(split: string): number {
  return Number(/(\d+)$/.exec(split)?.[1] ?? "0");
}

/**
 * How the ordinary commits are split for the learned signal trained through batch `through`:
 * the returned function, called once per commit in file order, says whether a commit is held out
 * (its project is only in later batches, or it is in the odd half of the rest). The training
 * script trains on the others; the measuring scripts report the held-out ones.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commitHeldOut } from "./load.ts";
 * const held = commitHeldOut([{ split: "heldout50", origin: "a/new@1" }, { split: "dev", origin: "a/old@1" }], 45);
 * assert.deepEqual(["a/new", "a/old", "a/old"].map(held), [true, false, true]);
 * ```
 */
export function commitHeldOut(
  guards: readonly { split: string; origin: string }[],
  through: number,
): (repo: string) => boolean {
  const repo = (g: { origin: string }) => g.origin.split("@")[0];
  const later = new Set(guards.filter((g) => batchOf(g.split) > through).map(repo));
  const earlier = new Set(guards.filter((g) => batchOf(g.split) <= through).map(repo));
  let i = 0;
  return (r) => (later.has(r) && !earlier.has(r)) || i++ % 2 === 1;
}

export interface CorpusCase {
  id: string;
  split: string;
  cls: string;
  path: string;
  before: string | null;
  after: string;
  origin: string;
}

const dir = new URL("./", import.meta.url);
const dec = (b: string) =>
  new TextDecoder().decode(Uint8Array.from(atob(b), (c) => c.charCodeAt(0)));
const rows = (name: string): Record<string, string>[] => {
  try {
    return Deno.readTextFileSync(new URL(name, dir)).trim().split("\n").filter(Boolean).map((l) =>
      JSON.parse(l)
    );
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
};

/** Default file name for a secret case without a path, by the shape of its text. */
function pathFor(text: string): string {
  if (/^\s*[{[]/.test(text)) return "config.json";
  if (/^\s*(?:export\s+)?[A-Z_]+=/.test(text)) return ".env";
  if (/\bcurl\b/.test(text)) return "deploy.sh";
  return "settings.txt";
}

/**
 * The three corpora.
 *
 * @example
 * ```ts
 * const { guards } = loadCorpus();
 * guards.length > 0; // true
 * ```
 */
export function loadCorpus(): {
  guards: CorpusCase[];
  secrets: CorpusCase[];
  negatives: CorpusCase[];
} {
  const guards = rows("guards.jsonl").map((r) => ({
    id: r.id,
    split: r.split,
    cls: r.cls,
    path: r.path,
    before: r.before,
    after: r.after,
    origin: `${r.repo}@${r.commit.slice(0, 12)}:${r.path}:${r.lines}`,
  }));
  const secrets: CorpusCase[] = [];
  const negatives: CorpusCase[] = [];
  for (const [i, r] of rows("secrets_gitleaks.jsonl").entries()) {
    const text = dec(r.b64);
    const c = {
      id: `${r.rule}#${i}`,
      split: r.split ?? (r.kind === "tp" ? "gitleaks-tp" : "gitleaks-fp"),
      cls: r.rule,
      path: r.path || pathFor(text),
      before: null,
      after: text,
      origin: r.origin,
    };
    (r.kind === "tp" ? secrets : negatives).push(c);
  }
  for (const [i, r] of rows("negatives.jsonl").entries()) {
    negatives.push({
      id: r.id ?? `neg#${i}`,
      split: r.split ?? "real-placeholders",
      cls: r.cls ?? "placeholder",
      path: r.path,
      before: null,
      after: r.b64 ? dec(r.b64) : r.text,
      origin: r.origin,
    });
  }
  return { guards, secrets, negatives };
}
