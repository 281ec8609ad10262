/**
 * `hardcoded-secret`: well-known token formats, private key blocks, connection strings with a
 * password, and secret-named assignments of high-entropy literals. Silent on placeholders,
 * environment lookups and obvious fake values.
 *
 * @module
 */
import type { Lang, Rule, RuleItem } from "./rule_types.ts";
import { fakeTokens } from "./fake_token.ts";
import {
  genericAllowed,
  isPlaceholder,
  lineStarts,
  scanSecrets,
  type SecretHit,
} from "./secret_scan.ts";
import { contextSecrets } from "./secret_context.ts";
import { type Grammar, grammarOf, isLoaded, isParsed, parse, parseShared } from "./parser.ts";
import { knownChangedStatements, newLinesOnly, splitTopLevel } from "./chunk.ts";
import { windowStart } from "./chunk_lex.ts";

/** Token formats whose shape alone identifies a live credential. */
const FORMATS: RegExp[] = [
  // The provider formats come from the gitleaks rule set (secret_scan.ts); these few stay because
  // they are written in ways that rule set does not cover.
  /aws_?secret_?access_?key["']?\s*[:=]\s*["']?[A-Za-z0-9/+]{40}\b/gi,
  /\bAccountKey=[A-Za-z0-9+/]{80,}={0,2}/g, // Azure storage connection strings
  // A private key block with a body (a bare header is documentation).
  /-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?-----\s*[A-Za-z0-9+/=\r\n]{64,}/g,
];

/** Connection strings with an inline password: `scheme://user:password@host`. */
const CONN =
  /\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|amqps?|mssql|sqlserver|oracle|ftp|smtps?):\/\/([^\s:/@"'`]+):([^\s@"'`/]+)@[^\s"'`]+/gi;

/** Names that say "this holds a credential". */
const NAME =
  /(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|client[_-]?secret|auth[_-]?token|private[_-]?key|credentials?)(?:[_-][\w$]*)?["']?\]?\s*(?::|=|:=|=>)\s*[rbu]?(["'`])([^"'`\n]{12,200})\1/gi;

/** A word every {@link NAME} match holds (a cheap test before the slow one). */
const NAME_HINT = /passw|pwd|secret|token|key|credential/i;

/** Unquoted `key: value` / `KEY=value` lines of config files (YAML, .env, INI, properties). */
const CONFIG_LINE =
  /^[ \t]*(?:export[ \t]+)?[\w.-]*(?:password|passwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key)[\w.-]*[ \t]*[:=][ \t]*([A-Za-z0-9+/=_.!@#$%^&*~-]{12,200})[ \t]*$/gim;

/** Values that are placeholders, templates or obviously fake. */
const PLACEHOLDER =
  /example|sample|dummy|fake|placeholder|changeme|change[_-]me|your[_-]|xxxx|\*\*\*|<[^>]*>|\$\{|\{\{|%\(|%s|test|mock|redacted|insert|replace|secret[_-]?here|^[.\w-]*(password|secret|token|key)[.\w-]*$/i;

/**
 * Shannon entropy of a string, in bits per character.
 *
 * @example
 * ```ts
 * entropy("aaaa"); // 0
 * entropy("abcd"); // 2
 * ```
 */
export function entropy(s: string): number {
  const freq = new Map<string, number>();
  for (const ch of s) freq.set(ch, (freq.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of freq.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** Whether a literal looks like a real credential: long, mixed, random-looking, no spaces. */
function looksSecret(v: string): boolean {
  if (/\s/.test(v) || PLACEHOLDER.test(v) || isPlaceholder(v)) return false;
  if (!/[A-Za-z]/.test(v) || !/[0-9]/.test(v)) return false;
  if (/^[a-z]+(?:[._-][a-z0-9]+)*$/i.test(v) && entropy(v) < 3.8) return false; // identifiers
  if (/^(?:https?|wss?|file):\/\//i.test(v) || /^[./~]/.test(v)) return false; // URLs, paths
  if (/^\d+(?:\.\d+)*$/.test(v)) return false; // versions
  return entropy(v) >= 3.3;
}

function lineAround(text: string, i: number): string {
  const s = text.lastIndexOf("\n", i) + 1;
  const e = text.indexOf("\n", i);
  return text.slice(s, e < 0 ? text.length : e);
}

function lineOf(starts: number[], i: number): number {
  let n = 0;
  while (n + 1 < starts.length && starts[n + 1] <= i) n++;
  return n + 1;
}

/**
 * Every secret in a text, once per value: the gitleaks rule set, the built-in formats and
 * connection strings, keyword-context literals (parser for Python/JS/TS/Go, regular expressions
 * otherwise) and, in config files, unquoted `KEY=value` lines.
 */
function secretItems(
  whole: string,
  lang: Lang,
  path = "",
  window?: readonly [number, number],
  prior?: string,
): RuleItem[] {
  const out = new Map<string, RuleItem>();
  // With a window, the patterns run on that slice only; offsets are mapped back to the file.
  const base = window ? window[0] : 0;
  // With the before-text, only the lines it lacks (and a few around) can bring a new value: the
  // others are blanked, keeping every line where it was.
  const fresh = prior === undefined ? null : newLinesOnly(whole, prior);
  const full = fresh ? fresh.text : whole;
  const text = window ? full.slice(window[0], window[1]) : full;
  let starts: number[] | null = null;
  const add = (value: string, index: number, label: string) => {
    if (out.has(value)) return;
    starts ??= lineStarts(full);
    out.set(value, { value, line: lineOf(starts, base + index), label });
  };
  for (const re of FORMATS) {
    re.lastIndex = 0;
    for (const m of text.matchAll(re)) {
      if (!/EXAMPLE|FAKE|DUMMY/i.test(m[0]) && !isPlaceholder(m[0])) {
        add(m[0], m.index ?? 0, "token");
      }
    }
  }
  CONN.lastIndex = 0;
  for (const m of text.matchAll(CONN)) {
    const pw = m[2];
    if (
      !PLACEHOLDER.test(pw) &&
      !/^(?:pass(?:word)?|pw|pwd|secret|root|admin|user|guest|\W+|:\w+|\$\w+)$/i.test(pw)
    ) add(m[0], m.index ?? 0, "connection string with password");
  }
  const baseLine = base === 0 ? 0 : (full.slice(0, base).match(/\n/g)?.length ?? 0);
  for (const h of scanSecrets(text)) {
    if (!out.has(h.value)) {
      out.set(h.value, { value: h.value, line: baseLine + h.line, label: h.rule });
    }
  }
  const g = path ? grammarOf(path) : null;
  const ctx = g ? parsedContextSecrets(whole, g, window, prior, fresh?.fresh, fresh?.lines) : null;
  if (ctx) {
    for (const h of ctx) {
      if (!out.has(h.value)) {
        out.set(h.value, { value: h.value, line: h.line, label: "credential literal" });
      }
    }
  } else {
    NAME.lastIndex = 0;
    for (const m of (NAME_HINT.test(text) ? text : "").matchAll(NAME)) {
      if (looksSecret(m[2]) && !genericAllowed(lineAround(text, m.index ?? 0), m[2])) {
        add(m[2], m.index ?? 0, "credential literal");
      }
    }
  }
  if (lang === "other") {
    CONFIG_LINE.lastIndex = 0;
    for (const m of text.matchAll(CONFIG_LINE)) {
      if (looksSecret(m[1]) && !genericAllowed(lineAround(text, m.index ?? 0), m[1])) {
        add(m[1], m.index ?? 0, "credential in config");
      }
    }
  }
  // gitleaks' inline suppression, honoured for every source of secrets.
  if (text.includes("gitleaks:allow")) {
    const lines = full.split("\n");
    for (const [k, v] of out) if (lines[v.line - 1]?.includes("gitleaks:allow")) out.delete(k);
  }
  return [...out.values()];
}

/**
 * Words every credential name and signing call of `secret_context.ts` holds (`secret_or_key`,
 * `accessToken`, `API_KEY`, `jwt.sign`, `hmac.new`); keep in step with its CRED_NAME and SIGNING.
 * (`pass` alone would take Python's `pass` and every `bypass`; a signing call is named with its
 * receiver, as SIGNING reads it.)
 */
const CONTEXT_HINT =
  /pass(?:w|phrase)|db_?pass\b|pwd|secret|credential|(?:api|access|private|signing|jwt|encryption|master|hmac)[_-]?key|(?:access|auth|refresh|bearer|bot)[_-]?token|token[_-]?secret|\b(?:jwt|jws|jsonwebtoken|jose)\s*\.\s*(?:sign|verify|encode|decode)\b|hmac/i;
/** Quoted text (a superset of the string literals of Python, JS/TS and Go). */
const QUOTED = /(["'`])((?:\\[\s\S]|(?!\1)[^\\])*?)\1/g;

/** Whether `text` quotes anything of three or more characters that `prior` does not contain. */
function quotesNew(text: string, prior?: string, seen?: Map<string, boolean>): boolean {
  if (prior === undefined) return true;
  QUOTED.lastIndex = 0;
  for (const m of text.matchAll(QUOTED)) {
    if (m[2].length < 3) continue;
    // Neighbouring windows quote the same literals: search the before-text once per literal.
    let known = seen?.get(m[2]);
    if (known === undefined) {
      known = prior.includes(m[2]);
      seen?.set(m[2], known);
    }
    if (!known) return true;
  }
  return false;
}

/**
 * Keyword-context literals found with the parser, or null when it cannot be used. Each top-level
 * statement is parsed on its own, and only when it holds a credential word and quotes something
 * `prior` (the before-text) lacks: a literal the before-text already holds is not new, and no
 * literal can be given to a credential name without one.
 */
function parsedContextSecrets(
  full: string,
  g: Grammar,
  window?: readonly [number, number],
  prior?: string,
  fresh?: Uint8Array,
  fileLines?: readonly string[],
): SecretHit[] | null {
  if (!isLoaded(g)) return null;
  const out: SecretHit[] = [];
  // Only a new line can bring a new literal: a statement is parsed when one of its new lines,
  // with two lines around, names a credential or a signing call and quotes something the
  // before-text lacks.
  let hot: Uint8Array | null = null;
  const lang = g === "python" ? "python" : g === "go" ? "go" : "js";
  let lexWindow: { from: number; stop: number } | undefined;
  if (fresh) {
    const lines = fileLines ?? full.split("\n");
    hot = new Uint8Array(fresh.length);
    let first = -1, last = -1;
    const seen = new Map<string, boolean>();
    // Lines naming a credential, tested once each; a window is looked at only when one does.
    const named = new Uint8Array(lines.length);
    for (let i = fresh.indexOf(1); i >= 0; i = fresh.indexOf(1, i + 1)) {
      for (let j = Math.max(0, i - 2); j < Math.min(lines.length, i + 3); j++) {
        if (named[j] === 0) named[j] = CONTEXT_HINT.test(lines[j]) ? 2 : 1;
      }
    }
    for (let i = fresh.indexOf(1); i >= 0; i = fresh.indexOf(1, i + 1)) {
      const lo = Math.max(0, i - 2);
      const hi = Math.min(lines.length, i + 3);
      if (named.subarray(lo, hi).indexOf(2) < 0) continue;
      const near = lines.slice(lo, hi).join("\n");
      if (CONTEXT_HINT.test(near) && quotesNew(near, prior, seen)) {
        hot[i] = 1;
        if (first < 0) first = i;
        last = i;
      }
    }
    if (first < 0) return out;
    // The splitter's lexer runs from the declaration above the first hot line to past the last.
    let at = 0, from = 0;
    for (let i = 0; i <= last; i++) {
      if (i === first) from = at;
      at += lines[i].length + 1;
    }
    lexWindow = { from: windowStart(full, from, lang), stop: at };
  }
  const sts = splitTopLevel(full, lang, lexWindow);
  const known = prior === undefined ? null : knownChangedStatements(prior, full, lang);
  for (let k = 0; k < sts.length; k++) {
    const st = sts[k];
    if (window && (st.end <= window[0] || st.start >= window[1])) continue;
    if (hot) {
      const end = k + 1 < sts.length ? sts[k + 1].line : hot.length;
      if (hot.subarray(st.line, end).indexOf(1) < 0) continue;
    } else if (!CONTEXT_HINT.test(st.text) || !quotesNew(st.text, prior)) continue;
    // A statement the edit changed inside re-parses from its before-version's tree when the
    // parser path has just parsed that.
    const base = known ? pairedBefore(known, st.text) : undefined;
    const tree = base ? parseShared(st.text, g, base) : parse(st.text, g);
    if (!tree.ok) return null;
    try {
      for (const h of contextSecrets(tree.root, g)) out.push({ ...h, line: h.line + st.line });
    } finally {
      tree.release();
    }
  }
  return out;
}

/**
 * The before-version of a changed statement (the first changed one of the before-text with the
 * same first line) when the parser already holds its tree, else undefined.
 */
function pairedBefore(d: { before: { text: string }[] }, text: string): string | undefined {
  const head = text.slice(0, text.indexOf("\n") + 1 || undefined);
  for (const b of d.before) if (b.text.startsWith(head) && isParsed(b.text)) return b.text;
  return undefined;
}

function countSecrets(text: string, lang: Lang): number {
  return secretItems(text, lang).length;
}

const t = fakeTokens(7);

/** The `hardcoded-secret` rule. */
export const HARDCODED_SECRET: Rule = {
  id: "hardcoded-secret",
  severity: "high",
  mode: "pattern",
  subject: "hardcoded secrets",
  justification:
    "A credential written into a file ends up in version control, logs and the model's context; " +
    "it stays valid after the edit is undone and must be rotated.",
  langs: ["python", "js", "other"],
  codeOnly: false, // a key in a comment leaks just the same
  count: countSecrets,
  items: secretItems,
  examples: {
    positive: [
      {
        name: "AWS key id in settings",
        path: "app/settings.py",
        before: "DEBUG = False\n",
        after: `DEBUG = False\nAWS_ACCESS_KEY_ID = "${t.awsKeyId}"\n`,
      },
      {
        name: "GitHub token in JS config",
        path: "src/config.js",
        before: "module.exports = {};\n",
        after: `module.exports = { githubToken: "${t.github}" };\n`,
      },
      {
        name: "Stripe key in TS",
        path: "src/pay.ts",
        before: "",
        after: `const stripe = new Stripe("${t.stripe}");\n`,
      },
      {
        name: "private key block",
        path: "deploy/key.txt",
        before: null,
        after: `${t.privateKeyHeader}\n${t.keyBody}\n${t.privateKeyFooter}\n`,
      },
      {
        name: "connection string with password",
        path: "db.py",
        before: "import psycopg\n",
        after: `import psycopg\nDSN = "postgresql://app:${t.password}@db.internal:5432/app"\n`,
      },
      {
        name: "high-entropy password assignment",
        path: "client.py",
        before: "",
        after: `password = "${t.password}"\n`,
      },
    ],
    negative: [
      {
        name: "environment lookup",
        path: "app/settings.py",
        before: "",
        after: `SECRET_KEY = os.environ["SECRET_KEY"]\nAPI_TOKEN = os.getenv("API_TOKEN")\n`,
      },
      {
        name: "placeholder value",
        path: "config.js",
        before: "",
        after: `const apiKey = "your-api-key-here-0000";\nconst password = "<password>";\n`,
      },
      {
        name: "AWS documentation example key",
        path: "docs.py",
        before: "",
        after: `KEY = "${"AKIA" + "IOSFODNN7" + "EXAMPLE"}"\n`,
      },
      {
        name: "connection string with template password",
        path: "db.ts",
        before: "",
        after: "const url = `postgres://app:${process.env.PGPASS}@db/app`;\n",
      },
      {
        name: "existing key kept while editing nearby",
        path: "cfg.py",
        before: `TOKEN = "${t.github}"\nA = 1\n`,
        after: `TOKEN = "${t.github}"\nA = 2\n`,
      },
      {
        name: "token name with identifier value",
        path: "auth.py",
        before: "",
        after: `token_type = "refresh_token_v2"\nTOKEN_HEADER = "X-Auth-Token-2"\n`,
      },
    ],
  },
};
