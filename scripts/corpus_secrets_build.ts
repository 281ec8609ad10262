/**
 * Builds the secret-format corpus from a gitleaks checkout's rule tests
 * (`cmd/generate/config/rules/*.go`): every literal true/false positive, and every generated true
 * positive (`utils.GenerateSampleSecrets(id, "prefix" + secrets.NewSecret(regex))`) instantiated
 * with a seeded random generator and placed in Python, JavaScript, YAML, JSON, .env and Go files
 * the way gitleaks' own sample generator places them. Texts are stored base64-encoded so that the
 * repository does not itself contain secret-shaped literals.
 *
 * Usage: `deno run -A scripts/corpus_secrets_build.ts GITLEAKS_RULES_DIR LITERALS.json COMMIT`
 * (LITERALS.json from the extraction step described in docs/inspector.md).
 *
 * @module
 */
import RandExp from "randexp";

const [dir, literals, commit] = Deno.args;
let seed = 12345;
function rand(): number {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x80000000;
}

function split(s: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  let q: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (q) {
      cur += c;
      if (c === "\\" && q === '"') {
        cur += s[++i];
        continue;
      }
      if (c === q) q = null;
      continue;
    }
    if (c === '"' || c === "`") q = c;
    if (c === "(") depth++;
    if (c === ")") depth--;
    if (c === sep && depth === 0) {
      out.push(cur.trim());
      cur = "";
      continue;
    }
    cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

const UTIL: Record<string, (n: string) => string> = {
  Numeric: (n) => `[0-9]{${n}}`,
  Hex: (n) => `[a-f0-9]{${n}}`,
  AlphaNumeric: (n) => `[a-z0-9]{${n}}`,
  AlphaNumericExtendedShort: (n) => `[a-z0-9_-]{${n}}`,
  AlphaNumericExtended: (n) => `[a-z0-9=_\\-]{${n}}`,
  AlphaNumericExtendedLong: (n) => `[a-z0-9\\/=_\\+\\-]{${n}}`,
  Hex8_4_4_4_12: () => `[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`,
};

function lit(t: string): string | null {
  if (t.startsWith("`") && t.endsWith("`")) return t.slice(1, -1);
  if (t.startsWith('"') && t.endsWith('"')) {
    try {
      return JSON.parse(t);
    } catch {
      return null;
    }
  }
  return null;
}

function regexOf(t: string): string | null {
  const l = lit(t);
  if (l !== null) return l;
  const m = /^utils\.(\w+)\(\s*"?(\d*)"?\s*\)$/.exec(t);
  if (m && UTIL[m[1]]) return UTIL[m[1]](m[2]);
  return null;
}

function evalExpr(e: string): string | null {
  let out = "";
  for (const term of split(e, "+")) {
    const l = lit(term);
    if (l !== null) {
      out += l;
      continue;
    }
    const m = /^secrets\.NewSecret\((.*)\)$/s.exec(term);
    if (!m) return null;
    const re = regexOf(m[1].trim());
    if (re === null) return null;
    const r = new RandExp(re.replace(/^\(\?i\)/, ""));
    r.randInt = (a: number, b: number) => a + Math.floor(rand() * (b - a + 1));
    r.max = 8;
    out += r.gen();
  }
  return out;
}

const VARIANTS: [string, (i: string, s: string) => string][] = [
  ["settings.py", (i, s) => `${i}Token = "${s}"\n`],
  ["config.ts", (i, s) => `export const ${i}Token = "${s}";\n`],
  ["config.yaml", (i, s) => `${i}_token: ${s}\n`],
  ["config.json", (i, s) => `{\n    "${i}_token": "${s}"\n}\n`],
  [".env", (i, s) => `${i.toUpperCase()}_TOKEN=${s}\n`],
  ["main.go", (i, s) => `${i}Token := "${s}"\n`],
];

const cases: { rule: string; path: string; text: string; origin: string }[] = [];
const files = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) =>
  n.endsWith(".go") && !n.endsWith("_test.go")
).sort();
for (const f of files) {
  const src = Deno.readTextFileSync(`${dir}/${f}`);
  const funcs = src.split(/\nfunc /);
  for (const body of funcs) {
    const rid = /RuleID:\s*"([^"]+)"/.exec(body)?.[1];
    if (!rid) continue;
    let k = 0;
    for (const m of body.matchAll(/utils\.GenerateSampleSecrets?\(/g)) {
      const start = (m.index ?? 0) + m[0].length;
      let depth = 1;
      let i = start;
      for (; i < body.length && depth > 0; i++) {
        if (body[i] === "(") depth++;
        else if (body[i] === ")") depth--;
      }
      const args = split(body.slice(start, i - 1), ",");
      if (args.length !== 2) continue;
      const ident = lit(args[0]) ?? "app";
      const secret = evalExpr(args[1]);
      if (!secret) continue;
      const [path, fmt] = VARIANTS[(k++ + cases.length) % VARIANTS.length];
      cases.push({
        rule: rid,
        path,
        text: fmt(ident.replace(/[^\w]/g, "_"), secret),
        origin: `gitleaks ${commit.slice(0, 12)} ${f} (generated)`,
      });
    }
  }
}
const lits = JSON.parse(Deno.readTextFileSync(literals));
const enc = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));
const lines: string[] = [];
for (const c of cases) {
  lines.push(
    JSON.stringify({ kind: "tp", rule: c.rule, path: c.path, origin: c.origin, b64: enc(c.text) }),
  );
}
for (const c of lits.tps) {
  lines.push(
    JSON.stringify({
      kind: "tp",
      rule: c.rule,
      path: "",
      origin: `gitleaks ${commit.slice(0, 12)} ${c.file} (literal)`,
      b64: enc(c.text),
    }),
  );
}
for (const c of lits.fps) {
  lines.push(
    JSON.stringify({
      kind: "fp",
      rule: c.rule,
      path: "",
      origin: `gitleaks ${commit.slice(0, 12)} ${c.file} (literal)`,
      b64: enc(c.text),
    }),
  );
}
Deno.writeTextFileSync("tests/inspect/corpus/secrets_gitleaks.jsonl", lines.join("\n") + "\n");
console.log(`${cases.length} generated, ${lits.tps.length} literal tps, ${lits.fps.length} fps`);
