/**
 * Rules that earn their place beyond the four core ones: shell injection through interpolated
 * shell commands, unsafe deserialisation, permissive CORS and debug mode switched on.
 *
 * @module
 */
import { byLang, type Rule } from "./rule_types.ts";

/** The `shell-injection` rule. */
export const SHELL_INJECTION: Rule = {
  id: "shell-injection",
  severity: "high",
  mode: "pattern",
  subject: "interpolated shell commands",
  justification:
    "A shell command built by interpolation runs whatever a crafted value says; the list form " +
    "(argv) or proper quoting removes the whole class.",
  langs: ["python", "js"],
  codeOnly: true,
  count: byLang({
    python: [
      // shell=True in the same call as an f-string, .format, % or + built command
      /\bsubprocess\.\w+\s*\(\s*(?:f["']|["'][^"'\n]*["']\s*(?:%|\.format\s*\(|\+))[^\n]*\bshell\s*=\s*True/g,
      /\bos\.(?:system|popen)\s*\(\s*(?:f["']|["'][^"'\n]*["']\s*(?:%|\.format\s*\(|\+))/g,
    ],
    js: [
      /\b(?:exec|execSync)\s*\(\s*`[^`]*\$\{/g,
      /\b(?:exec|execSync)\s*\(\s*["'][^"'\n]*["']\s*\+/g,
      /\bspawn(?:Sync)?\s*\([^)\n]*\bshell\s*:\s*true/g,
    ],
  }),
  examples: {
    positive: [
      {
        name: "f-string with shell=True",
        path: "tools/backup.py",
        before: "import subprocess\n",
        after: 'import subprocess\nsubprocess.run(f"tar czf {name}.tgz {path}", shell=True)\n',
      },
      {
        name: "os.system with concatenation",
        path: "tools/x.py",
        before: "",
        after: 'os.system("rm -rf " + target)\n',
      },
      {
        name: "child_process.exec with template",
        path: "src/convert.js",
        before: "",
        after: "exec(`convert ${input} out.png`, cb);\n",
      },
    ],
    negative: [
      {
        name: "argv list",
        path: "tools/backup.py",
        before: "",
        after: 'subprocess.run(["tar", "czf", name, path], check=True)\n',
      },
      {
        name: "constant shell command",
        path: "src/a.js",
        before: "",
        after: "execSync('git status', { stdio: 'inherit' });\n",
      },
    ],
  },
};

/** The `unsafe-deserialization` rule. */
export const UNSAFE_DESERIALIZATION: Rule = {
  id: "unsafe-deserialization",
  severity: "medium",
  mode: "pattern",
  subject: "unsafe deserialisations",
  justification:
    "pickle, marshal, yaml.load without a safe loader and node-serialize execute code embedded " +
    "in the data; on untrusted input that is remote code execution.",
  langs: ["python", "js"],
  codeOnly: true,
  count: byLang({
    python: [
      /\b(?:pickle|cPickle|dill|marshal|shelve)\.loads?\s*\(/g,
      /\byaml\.(?:unsafe_)?load\s*\((?![^\n]*(?:Safe|Base|CSafe)Loader)/g,
      /\bjsonpickle\.decode\s*\(/g,
    ],
    js: [
      /\bunserialize\s*\(/g,
      /\bnew\s+Function\s*\(/g,
      /\bvm\.runIn(?:New|This)?Context\s*\(/g,
    ],
  }),
  examples: {
    positive: [
      {
        name: "pickle.loads on request body",
        path: "api.py",
        before: "data = json.loads(body)\n",
        after: "data = pickle.loads(body)\n",
      },
      {
        name: "yaml.load without loader",
        path: "cfg.py",
        before: "",
        after: "cfg = yaml.load(open(p))\n",
      },
    ],
    negative: [
      {
        name: "yaml.load with SafeLoader",
        path: "cfg.py",
        before: "",
        after: "cfg = yaml.load(open(p), Loader=yaml.SafeLoader)\n",
      },
    ],
  },
};

/** The `permissive-cors` rule. */
export const PERMISSIVE_CORS: Rule = {
  id: "permissive-cors",
  severity: "medium",
  mode: "pattern",
  subject: "permissive CORS settings",
  justification:
    "Allowing every origin (worse, with credentials) lets any web page call the API with the " +
    "visitor's cookies.",
  langs: ["python", "js", "other"],
  codeOnly: true,
  count: byLang({
    python: [
      /\bCORS_(?:ORIGIN_ALLOW_ALL|ALLOW_ALL_ORIGINS)\s*=\s*True\b/g,
      /\ballow_origins\s*=\s*\[\s*["']\*["']\s*\]/g,
      /\bCORS\s*\(\s*\w+\s*,[^)\n]*origins\s*=\s*["']\*["']/g,
    ],
    js: [
      /\borigin["']?\s*:\s*(?:["']\*["']|true)\s*,\s*credentials["']?\s*:\s*true/g,
    ],
    any: [
      /Access-Control-Allow-Origin["']?\s*[:,]\s*["']\*["']/gi,
    ],
  }),
  examples: {
    positive: [
      {
        name: "Django allow all",
        path: "proj/settings.py",
        before: "DEBUG = False\n",
        after: "DEBUG = False\nCORS_ALLOW_ALL_ORIGINS = True\n",
      },
      {
        name: "wildcard header in Express",
        path: "src/app.js",
        before: "",
        after: "res.setHeader('Access-Control-Allow-Origin', '*');\n",
      },
    ],
    negative: [
      {
        name: "single origin",
        path: "src/app.js",
        before: "",
        after: "res.setHeader('Access-Control-Allow-Origin', 'https://app.example.com');\n",
      },
    ],
  },
};

/** The `debug-enabled` rule. */
export const DEBUG_ENABLED: Rule = {
  id: "debug-enabled",
  severity: "medium",
  mode: "pattern",
  subject: "debug switches",
  justification:
    "Debug mode in a web framework shows stack traces, settings and sometimes an interactive " +
    "console to whoever triggers an error.",
  langs: ["python"],
  codeOnly: true,
  count: byLang({
    python: [/^DEBUG\s*=\s*True\b/gm, /\.run\s*\([^)\n]*\bdebug\s*=\s*True/g],
  }),
  examples: {
    positive: [
      {
        name: "Django DEBUG on",
        path: "proj/settings.py",
        before: "DEBUG = False\n",
        after: "DEBUG = True\n",
      },
    ],
    negative: [
      {
        name: "DEBUG from the environment",
        path: "proj/settings.py",
        before: "",
        after: "DEBUG = os.environ.get('DEBUG') == '1'\n",
      },
    ],
  },
};
