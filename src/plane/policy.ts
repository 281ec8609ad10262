/**
 * The policy engine: compiles a policy document and turns a call's facts into `allow | ask | deny`.
 *
 * Among matching rules the strictest decision wins (`deny` > `ask` > `allow`; ties go to the first
 * rule in file order); no match means deny. Headless sessions turn `ask` into `deny` unless `--yes`,
 * which turns `ask` into `allow` everywhere (recorded as approved by "--yes").
 *
 * @module
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  type Stats,
} from "node:fs";
import { dirname, join } from "node:path";
import { canonicalJson } from "../core/canonical_json.ts";
import { sha256Hex } from "../core/hash.ts";
import { errorMessage, RetieError } from "../core/errors.ts";
import type { ReversibilityClass } from "../core/effect.ts";
import type { Severity } from "../inspect/types.ts";
import { DEFAULT_POLICY } from "./default_policy.ts";
import { toolPatternMatches } from "./tool_class.ts";
import {
  type Decision,
  type Mode,
  parsePolicy,
  parsePolicyText,
  type PolicyDoc,
  type Rule,
} from "./policy_schema.ts";

/** The facts about one call that the gate decides on. */
export interface GateInput {
  class: ReversibilityClass;
  tool: string;
  maxSeverity: Severity | null;
  risk: number;
  mode: Mode;
  readsOutside: boolean;
  writesOutside: boolean;
  headless: boolean;
  yes: boolean;
  /** Why the call is outside the delegation, or null when within it. */
  outOfScope: string | null;
  untrustedInput: boolean;
  network: boolean;
  external: boolean;
  sandboxed: boolean;
}

/** The gate's verdict. */
export interface GateDecision {
  /** Final decision after the headless / `--yes` adjustment. */
  decision: Decision;
  /** What the rules said before that adjustment. */
  ruleDecision: Decision;
  /** Id of the deciding rule, or null when no rule matched. */
  rule: string | null;
  /** Why, in words: the rule's justification, plus the adjustment if any. */
  justification: string;
  /** Who allowed it: the policy, or `--yes` turning an ask into allow. (`user` is set by the guard.) */
  approvedBy: "policy" | "--yes" | null;
  /** Ids of every matching rule, in file order. */
  matched: string[];
}

/** A validated policy ready to evaluate. */
export interface CompiledPolicy {
  /** The effective document (built-in rules plus any project rules). */
  readonly doc: PolicyDoc;
  readonly name: string;
  /** First 12 hex of sha256 of the document's canonical JSON. */
  readonly digest: string;
  /** `name@digest`: how the policy is named in the ledger and the terminal. */
  readonly identity: string;
  /** Where the rules came from, for `retie policy`. */
  readonly sources: string[];
  /** The project file read, with the sha256 of its bytes (for the genesis entry). */
  readonly inputs?: { kind: string; path: string; digest: string | null }[];
  evaluate(input: GateInput): GateDecision;
}

const SEVERITY_RANK: Record<Severity, number> = { low: 1, medium: 2, high: 3 };
const STRICTNESS: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };

/**
 * Whether one rule's conditions all hold for `input`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ruleMatches } from "./policy.ts";
 * import { DEFAULT_POLICY } from "./default_policy.ts";
 * const r = DEFAULT_POLICY.rules.find((x) => x.id === "reversible")!;
 * const input = { class: "reversible", tool: "edit", maxSeverity: null, risk: 0, mode: "default",
 *   readsOutside: false, writesOutside: false, headless: false, yes: false, outOfScope: null,
 *   untrustedInput: false, network: false, external: false, sandboxed: false } as const;
 * assert.equal(ruleMatches(r, input), true);
 * ```
 */
export function ruleMatches(rule: Rule, input: GateInput): boolean {
  const m = rule.match;
  if (m.classes && !m.classes.includes(input.class)) return false;
  if (m.tools && !m.tools.some((t) => toolPatternMatches(t, input.tool))) return false;
  if (m.modes && !m.modes.includes(input.mode)) return false;
  if (m.minSeverity !== undefined) {
    if (!input.maxSeverity || SEVERITY_RANK[input.maxSeverity] < SEVERITY_RANK[m.minSeverity]) {
      return false;
    }
  }
  if (m.minRisk !== undefined && input.risk < m.minRisk) return false;
  if (m.readsOutside !== undefined && m.readsOutside !== input.readsOutside) return false;
  if (m.writesOutside !== undefined && m.writesOutside !== input.writesOutside) return false;
  if (m.headless !== undefined && m.headless !== input.headless) return false;
  if (m.untrustedInput !== undefined && m.untrustedInput !== input.untrustedInput) return false;
  if (m.network !== undefined && m.network !== input.network) return false;
  if (m.external !== undefined && m.external !== input.external) return false;
  if (m.sandboxed !== undefined && m.sandboxed !== input.sandboxed) return false;
  if (m.outOfScope !== undefined && m.outOfScope !== (input.outOfScope !== null)) return false;
  return true;
}

/**
 * The policy's identity digest: first 12 hex of sha256 of the canonical JSON of `doc`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { policyDigest } from "./policy.ts";
 * import { DEFAULT_POLICY } from "./default_policy.ts";
 * assert.deepEqual(policyDigest(DEFAULT_POLICY).length, 12);
 * ```
 */
export function policyDigest(doc: PolicyDoc): string {
  return sha256Hex(canonicalJson(doc)).slice(0, 12);
}

/**
 * Validates and compiles a policy document (throws RetieError exit 2 naming the bad rule).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compilePolicy } from "./policy.ts";
 * import { DEFAULT_POLICY } from "./default_policy.ts";
 * assert.match(compilePolicy(DEFAULT_POLICY).identity, /^retie-default@[0-9a-f]{12}$/);
 * ```
 */
export function compilePolicy(raw: unknown, source = "(built-in)"): CompiledPolicy {
  const doc = parsePolicy(raw, source);
  const digest = policyDigest(doc);
  const rules = doc.rules;
  return {
    doc,
    name: doc.name,
    digest,
    identity: `${doc.name}@${digest}`,
    sources: [source],
    evaluate(input: GateInput): GateDecision {
      let best: Rule | null = null;
      const matched: string[] = [];
      for (const r of rules) {
        if (!ruleMatches(r, input)) continue;
        matched.push(r.id);
        if (!best || STRICTNESS[r.decision] > STRICTNESS[best.decision]) best = r;
      }
      if (!best) {
        return {
          decision: "deny",
          ruleDecision: "deny",
          rule: null,
          justification:
            `no rule matches (class ${input.class}, tool ${input.tool}): no match means deny`,
          approvedBy: null,
          matched,
        };
      }
      const out: GateDecision = {
        decision: best.decision,
        ruleDecision: best.decision,
        rule: best.id,
        justification: best.justification,
        approvedBy: best.decision === "allow" ? "policy" : null,
        matched,
      };
      if (best.decision === "ask" && input.yes) {
        out.decision = "allow";
        out.approvedBy = "--yes";
        out.justification += " (ask turned into allow by --yes)";
      } else if (best.decision === "ask" && input.headless) {
        out.decision = "deny";
        out.justification += " (headless: ask becomes deny without --yes)";
      }
      return out;
    },
  };
}

/** The built-in policy, compiled once. */
let builtIn: CompiledPolicy | null = null;

/**
 * The compiled built-in policy `retie-default`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultPolicy } from "./policy.ts";
 * assert.deepEqual(defaultPolicy().name, "retie-default");
 * ```
 */
export function defaultPolicy(): CompiledPolicy {
  builtIn ??= compilePolicy(DEFAULT_POLICY, "(built-in)");
  return builtIn;
}

/** Relative path of a project's policy additions inside the workspace. */
export const PROJECT_POLICY_PATH: string = join(".retie", "policy.json");

/**
 * The effective policy for a workspace: `retie-default`, plus the rules of
 * `<workspace>/.retie/policy.json` when that file exists (validated; an invalid file is refused,
 * never ignored). With project rules the name becomes `retie-default+<project name>`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadEffectivePolicy } from "./policy.ts";
 * // retie's default when the workspace has no .retie/policy.json
 * assert.match(loadEffectivePolicy(Deno.makeTempDirSync()).identity, /^retie-default@/);
 * ```
 */
export function loadEffectivePolicy(workspace: string): CompiledPolicy {
  const path = join(workspace, PROJECT_POLICY_PATH);
  const text = readProjectPolicy(workspace);
  if (text === null) return defaultPolicy();
  const project = parsePolicyText(text, path);
  const builtInIds = new Set(DEFAULT_POLICY.rules.map((r) => r.id));
  const clashes = project.rules.flatMap((r, i) =>
    builtInIds.has(r.id)
      ? [`  rules[${i}] (id "${r.id}").id: duplicates a retie-default rule id`]
      : []
  );
  if (clashes.length) {
    throw new RetieError(`invalid policy ${path}:\n${clashes.join("\n")}`, {
      hint: "project rules add to retie-default; give them their own ids (see `retie policy`)",
      exitCode: 2,
    });
  }
  const merged = {
    name: `${DEFAULT_POLICY.name}+${project.name}`,
    description: project.description ?? DEFAULT_POLICY.description,
    rules: [...DEFAULT_POLICY.rules, ...project.rules],
  };
  const compiled = compilePolicy(merged, `${path} (merged with retie-default)`);
  return {
    ...compiled,
    sources: ["(built-in)", path],
    inputs: [{ kind: "policy", path, digest: sha256Hex(text) }],
  };
}

function policyError(path: string, why: string): RetieError {
  return new RetieError(`cannot read the policy (${path}): ${why}`, {
    hint: "make .retie a plain directory and policy.json a plain JSON file in it (format: " +
      "docs/policy-format.md), or remove it to use retie-default",
    exitCode: 2,
  });
}

/**
 * The project policy's text, or null when there is none. Read without following links: `.retie`
 * must be a plain directory and `policy.json` a plain file in it (a symlink could hand the gate
 * rules from anywhere), checked by identity before and after the open, so neither can be swapped
 * in between. A FIFO or device is refused, never waited on.
 */
function readProjectPolicy(workspace: string): string | null {
  const dir = join(workspace, dirname(PROJECT_POLICY_PATH));
  const path = join(workspace, PROJECT_POLICY_PATH);
  const dst = lstatOrNull(dir);
  if (dst === null) return null;
  if (!dst.isDirectory()) {
    throw policyError(path, `${dir} is ${dst.isSymbolicLink() ? "a symlink" : "not a directory"}`);
  }
  const fst = lstatOrNull(path);
  if (fst === null) return null;
  if (!fst.isFile()) {
    throw policyError(path, fst.isSymbolicLink() ? "it is a symlink" : "not a regular file");
  }
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    throw policyError(path, errorMessage(e));
  }
  try {
    const st = fstatSync(fd);
    const again = lstatOrNull(dir);
    if (
      st.ino !== fst.ino || st.dev !== fst.dev || !again || again.ino !== dst.ino ||
      again.dev !== dst.dev
    ) {
      throw policyError(path, "it changed while it was opened");
    }
    if (st.size > 1024 * 1024) throw policyError(path, `${st.size} bytes, more than 1 MiB`);
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

/**
 * Renders the effective policy for `retie policy`: identity, sources and one line per rule.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultPolicy, formatPolicy } from "./policy.ts";
 * assert.deepEqual(formatPolicy(defaultPolicy()).startsWith("policy retie-default@"), true);
 * ```
 */
export function formatPolicy(p: CompiledPolicy): string {
  const lines = [`policy ${p.identity}`, `sources: ${p.sources.join(", ")}`];
  if (p.doc.description) lines.push(p.doc.description);
  lines.push("no matching rule → deny; strictest matching rule wins (deny > ask > allow)", "");
  const idw = Math.max(...p.doc.rules.map((r) => r.id.length));
  for (const r of p.doc.rules) {
    const cond = Object.entries(r.match).map(([k, v]) =>
      `${k}=${Array.isArray(v) ? v.join("|") : String(v)}`
    ).join(" ");
    lines.push(`${r.decision.padEnd(5)}  ${r.id.padEnd(idw)}  ${cond}`);
    lines.push(`${" ".repeat(7 + idw)}  ${r.justification}`);
  }
  return lines.join("\n");
}
