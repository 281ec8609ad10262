/**
 * The built-in policy `retie-default`, as data. Its identity everywhere is
 * `retie-default@<first 12 hex of sha256 of its canonical JSON>`: changing any rule changes it.
 *
 * Unknown (unclassified) tools have no rule on purpose: no match means deny.
 *
 * @module
 */
import type { PolicyDoc } from "./policy_schema.ts";

/**
 * The built-in policy document.
 *
 * @example
 * ```ts
 * import { DEFAULT_POLICY } from "./default_policy.ts";
 * DEFAULT_POLICY.name; // "retie-default"
 * ```
 */
export const DEFAULT_POLICY: PolicyDoc = {
  name: "retie-default",
  description:
    "Gate on consequence: reversible actions run, irreversible ones ask, the unknown is denied.",
  rules: [
    {
      id: "read-workspace",
      match: { classes: ["none"], readsOutside: false },
      decision: "allow",
      justification: "reading inside the workspace changes nothing",
    },
    {
      id: "read-outside",
      match: { classes: ["none"], readsOutside: true },
      decision: "ask",
      justification: "reading outside the workspace can expose secrets to the model",
    },
    {
      id: "reversible",
      match: { classes: ["reversible"] },
      decision: "allow",
      justification: "the inverse is prepared and checked before the action runs",
    },
    {
      id: "irreversible",
      match: { classes: ["irreversible"] },
      decision: "ask",
      justification: "nobody can state an inverse, so a person decides",
    },
    {
      id: "write-outside",
      match: { writesOutside: true },
      decision: "deny",
      justification: "the agent never writes outside its workspace",
    },
    {
      id: "plan-mode-read-only",
      match: {
        modes: ["plan"],
        classes: ["reversible", "irreversible", "unknown"],
        sandboxed: false,
      },
      decision: "deny",
      justification: "plan mode is read-only: nothing may change",
    },
    {
      id: "plan-mode-irreversible",
      match: { modes: ["plan"], classes: ["irreversible", "unknown"] },
      decision: "deny",
      justification: "plan mode is read-only: nothing that cannot be rolled back may run",
    },
    {
      id: "plan-mode-no-mutating-tools",
      match: { modes: ["plan"], tools: ["write", "edit"] },
      decision: "deny",
      justification: "plan mode is read-only: no write or edit",
    },
    {
      id: "plan-mode-shell-sandboxed",
      match: { modes: ["plan"], tools: ["bash"], sandboxed: false },
      decision: "deny",
      justification:
        "plan mode runs commands only in the sandbox, and rolls back whatever they change",
    },
    {
      id: "high-severity-finding",
      match: { minSeverity: "high" },
      decision: "ask",
      justification: "reversible is not safe: the inspector found a high-severity change",
    },
    {
      id: "high-risk",
      match: { minRisk: 70 },
      decision: "ask",
      justification: "the inspector's risk score is high enough for a person to look",
    },
    {
      id: "untrusted-then-external",
      match: { untrustedInput: true, external: true },
      decision: "deny",
      justification:
        "after reading untrusted content, side effects beyond this machine could be an injection's doing",
    },
    {
      id: "untrusted-then-network",
      match: { untrustedInput: true, network: true, classes: ["reversible", "irreversible"] },
      decision: "ask",
      justification: "after reading untrusted content, network access could carry data out",
    },
    {
      id: "outside-delegation",
      match: { outOfScope: true },
      decision: "deny",
      justification: "the user's delegation does not cover this call",
    },
  ],
};
