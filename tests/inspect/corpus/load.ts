/**
 * Loads the real-code corpora of the inspector (see docs/inspector.md, "Measured on real code"):
 * `guards.jsonl` (guard removals in excerpts of real files), `secrets_gitleaks.jsonl` (gitleaks'
 * rule tests: true positives and its false positives) and `negatives.jsonl` (placeholders,
 * examples and redacted values from real projects). Secret texts are stored base64-encoded.
 *
 * @module
 */

/** One before/after case. */
/** The guard family: a guard edit counts as found when any of these findings is reported. */
export const GUARD_RULES: ReadonlySet<string> = new Set([
  "auth-check-removed",
  "crypto-verification-removed",
  "tls-check-removed",
  "secure-default-weakened",
  "tls-verify-disabled",
  "crypto-verification-disabled",
]);

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
