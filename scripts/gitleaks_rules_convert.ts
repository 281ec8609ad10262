/**
 * Converts gitleaks' default configuration (`config/gitleaks.toml`, MIT licence) into the data file
 * the `hardcoded-secret` rule loads: `src/inspect/data/gitleaks_rules.json`. Go RE2 syntax becomes
 * JavaScript syntax (`(?i)` prefix → the `i` flag, `(?i)` mid-pattern → a `(?i:…)` group, `\z` → `$`,
 * `(?P<n>` → `(?<n>`, `[[:alnum:]]` → `[a-zA-Z0-9]`); every converted pattern is compiled here and a
 * rule whose pattern does not compile is dropped with a message. Rules bound to a file path
 * (`path =`) are dropped (the inspector counts text, not file types).
 *
 * The TOML is parsed with python3's `tomllib` (run separately: see docs/inspector.md, "Updating the
 * secret rules"); this script reads its JSON dump.
 *
 * Usage: `deno run --allow-read --allow-write scripts/gitleaks_rules_convert.ts DUMP.json VERSION COMMIT`
 *
 * @module
 */

interface TomlAllow {
  regexes?: string[];
  stopwords?: string[];
  regexTarget?: string;
  condition?: string;
  paths?: string[];
}
interface TomlRule {
  id: string;
  regex?: string;
  secretGroup?: number;
  entropy?: number;
  keywords?: string[];
  path?: string;
  allowlists?: TomlAllow[];
}

/** Go RE2 → JavaScript source and flags. */
export function convertRegex(src: string): { source: string; flags: string } {
  let flags = "";
  let s = src;
  if (s.startsWith("(?i)")) {
    flags = "i";
    s = s.slice(4);
  }
  s = s.replaceAll("[[:alnum:]]", "[a-zA-Z0-9]").replaceAll("[:alnum:]", "a-zA-Z0-9");
  s = s.replaceAll("(?P<", "(?<").replaceAll("\\z", "$");
  // Mid-pattern (?i): make it a group reaching to the end of the enclosing group.
  for (let at = s.indexOf("(?i)"); at >= 0; at = s.indexOf("(?i)")) {
    let depth = 0;
    let end = s.length;
    for (let i = at + 4; i < s.length; i++) {
      if (s[i] === "\\") {
        i++;
        continue;
      }
      if (s[i] === "[") {
        while (i < s.length && s[i] !== "]") i += s[i] === "\\" ? 2 : 1;
        continue;
      }
      if (s[i] === "(") depth++;
      else if (s[i] === ")") {
        if (depth === 0) {
          end = i;
          break;
        }
        depth--;
      } else if (s[i] === "|" && depth === 0) {
        end = i;
        break;
      }
    }
    s = s.slice(0, at) + "(?i:" + s.slice(at + 4, end) + ")" + s.slice(end);
  }
  return { source: s, flags };
}

if (import.meta.main) {
  const [dump, version, commit] = Deno.args;
  const toml = JSON.parse(Deno.readTextFileSync(dump));
  const rules = [];
  for (const r of toml.rules as TomlRule[]) {
    if (!r.regex || r.path) continue;
    const { source, flags } = convertRegex(r.regex);
    try {
      new RegExp(source, flags + "g");
    } catch (e) {
      console.error(`dropped ${r.id}: ${(e as Error).message}`);
      continue;
    }
    const allow = (r.allowlists ?? []).map((a) => ({
      regexes: (a.regexes ?? []).map(convertRegex),
      stopwords: a.stopwords ?? [],
      target: a.regexTarget ?? "secret",
      and: a.condition === "AND",
      hasPaths: (a.paths ?? []).length > 0,
    })).filter((a) => !a.hasPaths || a.regexes.length || a.stopwords.length);
    rules.push({
      id: r.id,
      source,
      flags,
      group: r.secretGroup ?? 0,
      entropy: r.entropy ?? 0,
      keywords: (r.keywords ?? []).map((k) => k.toLowerCase()),
      allow,
    });
  }
  const g = toml.allowlist ?? {};
  const out = {
    source: "gitleaks config/gitleaks.toml",
    version,
    commit,
    license: "MIT, Copyright (c) 2019 Zachary Rice",
    rules,
    global: {
      regexes: (g.regexes ?? []).map(convertRegex),
      stopwords: g.stopwords ?? [],
    },
  };
  Deno.writeTextFileSync(
    new URL("../src/inspect/data/gitleaks_rules.json", import.meta.url),
    JSON.stringify(out) + "\n",
  );
  console.log(`${rules.length} rules written`);
}
