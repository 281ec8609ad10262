/**
 * Where a finding is: the lines of a change that made an inspector rule fire — for a guard rule
 * the removed lines that held a protection, for a pattern rule the added lines that hold the
 * dangerous text — with their line numbers, so the approval dialog can point at them.
 *
 * @module
 */
import type { FileChange } from "../core/tool.ts";
import { langOf, stripComments } from "../inspect/count.ts";
import { type Finding, RULES } from "../inspect/mod.ts";

/** One line a finding points at. */
export interface FindingLine {
  /** 1-based, in the file before (removed) or after (added) the change. */
  line: number;
  side: "removed" | "added";
  text: string;
}

/**
 * The lines of `change` behind `finding` (empty when no single line explains it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findingLines } from "./finding_lines.ts";
 * const lines = findingLines(
 *   { rule: "tls-verify-disabled", severity: "high", path: "/ws/a.py", before: 0, after: 1, message: "" },
 *   { path: "/ws/a.py", before: "import requests\n", after: "import requests\nrequests.get(u, verify=False)\n" },
 * );
 * assert.deepEqual(lines, [{ line: 2, side: "added", text: "requests.get(u, verify=False)" }]);
 * ```
 */
export function findingLines(finding: Finding, change: FileChange): FindingLine[] {
  const rule = RULES.find((r) => r.id === finding.rule);
  const lang = langOf(change.path) ?? "other";
  if (!rule || !rule.langs.includes(lang)) return [];
  const dropped = finding.after < finding.before;
  const from = (dropped ? change.before : change.after) ?? "";
  const other = new Set(((dropped ? change.after : change.before) ?? "").split("\n"));
  const out: FindingLine[] = [];
  from.split("\n").forEach((text, i) => {
    if (other.has(text) || out.length >= 5) return;
    const counted = rule.codeOnly ? stripComments(text, lang) : text;
    if (rule.count(counted, lang) > 0) {
      out.push({ line: i + 1, side: dropped ? "removed" : "added", text });
    }
  });
  return out;
}
