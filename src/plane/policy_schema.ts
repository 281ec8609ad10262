/**
 * The policy file format: rules as data, validated with zod.
 *
 * A policy is `{ name, description?, rules: Rule[] }`. A rule matches a call when every condition
 * in its `match` holds (conditions left out match anything); among matching rules the strictest
 * decision wins (`deny` > `ask` > `allow`), and a call no rule matches is denied. See
 * `docs/policy-format.md`.
 *
 * @module
 */
import { z } from "zod";
import { CLASSES } from "../core/effect.ts";
import { errorMessage, RetieError } from "../core/errors.ts";

/** Decisions, from least to most strict. */
export const DECISIONS = ["allow", "ask", "deny"] as const;
/** A gate decision. */
export type Decision = typeof DECISIONS[number];

/** Modes a session runs in: `plan` is read-only. */
export const MODES = ["default", "plan"] as const;
/** A session mode. */
export type Mode = typeof MODES[number];

const SEVERITIES = ["low", "medium", "high"] as const;

/** The conditions of one rule. Every condition given must hold. */
export interface RuleMatch {
  /** The call's reversibility class is one of these. */
  classes?: ("none" | "reversible" | "irreversible" | "unknown")[];
  /** The tool name is one of these. */
  tools?: string[];
  /** The session mode is one of these. */
  modes?: Mode[];
  /** The inspector's highest severity is at least this. */
  minSeverity?: "low" | "medium" | "high";
  /** The inspector's risk score (0–100) is at least this. */
  minRisk?: number;
  /** The call reads (true) / does not read (false) paths outside the workspace. */
  readsOutside?: boolean;
  /** The call writes (true) / does not write (false) paths outside the workspace. */
  writesOutside?: boolean;
  /** The session runs headless. */
  headless?: boolean;
  /** The session has read untrusted input (web content). */
  untrustedInput?: boolean;
  /** The call reaches the network. */
  network?: boolean;
  /** The call has side effects beyond this machine. */
  external?: boolean;
  /** The call runs in the sandbox. */
  sandboxed?: boolean;
  /** The call falls outside the session's delegation (tool, class, path or time). */
  outOfScope?: boolean;
}

/** One policy rule: an id, what it matches, the decision and why. */
export interface Rule {
  id: string;
  match: RuleMatch;
  decision: Decision;
  justification: string;
  /** Gives the tools this rule names (MCP tools) a class (`src/plane/tool_class.ts`). */
  classify?: "none" | "reversible" | "irreversible";
  /** The inverse call of a `classify: "reversible"` rule. */
  inverse?: { tool: string; args: Record<string, unknown> };
}

/** A policy document. */
export interface PolicyDoc {
  name: string;
  description?: string;
  rules: Rule[];
}

const ruleMatchObject = z.strictObject({
  /** The call's reversibility class is one of these. */
  classes: z.array(z.enum(CLASSES as unknown as ["none", "reversible", "irreversible", "unknown"]))
    .min(1).optional(),
  /** The tool name is one of these. */
  tools: z.array(z.string().min(1)).min(1).optional(),
  /** The session mode is one of these. */
  modes: z.array(z.enum(MODES)).min(1).optional(),
  /** The inspector's highest severity is at least this. */
  minSeverity: z.enum(SEVERITIES).optional(),
  /** The inspector's risk score (0–100) is at least this. */
  minRisk: z.number().int().min(0).max(100).optional(),
  /** The call reads (true) / does not read (false) paths outside the workspace. */
  readsOutside: z.boolean().optional(),
  /** The call writes (true) / does not write (false) paths outside the workspace. */
  writesOutside: z.boolean().optional(),
  /** The session runs headless. */
  headless: z.boolean().optional(),
  /** The session has read untrusted input (web content). */
  untrustedInput: z.boolean().optional(),
  /** The call reaches the network. */
  network: z.boolean().optional(),
  /** The call has side effects beyond this machine. */
  external: z.boolean().optional(),
  /** The call runs in the sandbox. */
  sandboxed: z.boolean().optional(),
  /** The call falls outside the session's delegation (tool, class, path or time). */
  outOfScope: z.boolean().optional(),
});

/** The schema of {@link RuleMatch}. Every condition given must hold. */
export const RuleMatchSchema: z.ZodType<RuleMatch> = ruleMatchObject.refine(
  (m) => Object.keys(m).length > 0,
  { message: "an empty match would match every call; name at least one condition" },
);

/** The schema of {@link Rule}: an id, what it matches, the decision and why. */
export const RuleSchema: z.ZodType<Rule> = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, "use lower-case letters, digits, . _ -"),
  match: RuleMatchSchema,
  decision: z.enum(DECISIONS),
  justification: z.string().min(10, "say why in a sentence (at least 10 characters)"),
  /** Gives the tools this rule names (MCP tools) a class; see src/plane/tool_class.ts. */
  classify: z.enum(["none", "reversible", "irreversible"]).optional(),
  /** The inverse call of a `classify: "reversible"` rule (`"$args.NAME"` takes an argument). */
  inverse: z.strictObject({
    tool: z.string().regex(/^mcp__[A-Za-z0-9_-]+__[A-Za-z0-9_.-]+$/, "name an MCP tool"),
    args: z.record(z.string(), z.unknown()),
  }).optional(),
}).superRefine((r, ctx) => {
  if (r.classify) {
    const keys = Object.keys(r.match);
    if (keys.length !== 1 || !r.match.tools) {
      ctx.addIssue({
        code: "custom",
        path: ["match"],
        message: "a classify rule matches on `tools` alone (a class depends on the tool only)",
      });
    }
    r.match.tools?.forEach((t, i) => {
      if (!/^mcp__[A-Za-z0-9_*-]+__[A-Za-z0-9_.*-]+$/.test(t)) {
        ctx.addIssue({
          code: "custom",
          path: ["match", "tools", i],
          message: "classify rules name MCP tools (mcp__server__tool, globs allowed); " +
            "retie classifies its own tools",
        });
      }
    });
  }
  if (r.inverse && r.classify !== "reversible") {
    ctx.addIssue({
      code: "custom",
      path: ["inverse"],
      message: 'an inverse belongs to a rule with classify: "reversible"',
    });
  }
});

/** The schema of {@link PolicyDoc}. */
export const PolicySchema: z.ZodType<PolicyDoc> = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9._+-]*$/, "use lower-case letters, digits, . _ + -"),
  description: z.string().optional(),
  rules: z.array(RuleSchema).min(1),
}).superRefine((p, ctx) => {
  const seen = new Set<string>();
  p.rules.forEach((r, i) => {
    if (seen.has(r.id)) {
      ctx.addIssue({
        code: "custom",
        path: ["rules", i, "id"],
        message: `duplicate rule id "${r.id}"`,
      });
    }
    seen.add(r.id);
  });
});

// The interfaces above are written out (JSR needs explicit public types); these lines fail to
// type-check if a schema and its interface ever disagree.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _matchAgrees: Same<RuleMatch, z.infer<typeof ruleMatchObject>> = true;

function describePath(doc: unknown, path: PropertyKey[]): string {
  let out = "";
  let at: unknown = doc;
  for (const seg of path) {
    if (typeof seg === "number") {
      out += `[${seg}]`;
      const item = Array.isArray(at) ? at[seg] : undefined;
      const id = item && typeof item === "object"
        ? (item as Record<string, unknown>).id
        : undefined;
      if (typeof id === "string") out += ` (id "${id}")`;
      at = item;
    } else {
      out += out ? `.${String(seg)}` : String(seg);
      at = at && typeof at === "object" ? (at as Record<string, unknown>)[String(seg)] : undefined;
    }
  }
  return out || "(top level)";
}

/**
 * Validates a parsed policy document; throws a RetieError (exit 2) naming `source`, the path of
 * each offending rule and why.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicy } from "./policy_schema.ts";
 * const doc = parsePolicy({ name: "p", rules: [{ id: "r", match: { classes: ["none"] },
 *   decision: "allow", justification: "reads change nothing" }] }, "inline");
 * assert.deepEqual(doc.rules.length, 1);
 * ```
 */
export function parsePolicy(raw: unknown, source: string): PolicyDoc {
  const r = PolicySchema.safeParse(raw);
  if (r.success) return r.data;
  const lines = r.error.issues.map((i) => `  ${describePath(raw, i.path)}: ${i.message}`);
  throw new RetieError(`invalid policy ${source}:\n${lines.join("\n")}`, {
    hint: "fix the rules named above (format: docs/policy-format.md)",
    exitCode: 2,
  });
}

/**
 * Parses policy JSON text; a syntax error is refused like a schema error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicyText } from "./policy_schema.ts";
 * assert.deepEqual(parsePolicyText('{"name":"p","rules":[{"id":"r","match":{"tools":["read"]},"decision":"allow","justification":"reading is harmless"}]}', "p.json").name, "p");
 * ```
 */
export function parsePolicyText(text: string, source: string): PolicyDoc {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new RetieError(`invalid policy ${source}: not JSON (${errorMessage(e)})`, {
      hint: "fix the JSON syntax (format: docs/policy-format.md)",
      exitCode: 2,
    });
  }
  return parsePolicy(raw, source);
}
