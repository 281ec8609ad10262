/**
 * Inspector result types, shared with the plane (which records findings and feeds the risk to the
 * policy) and the terminal (which shows `⚑ high: auth-check-removed (1 → 0)`).
 *
 * @module
 */

/** Severity of a finding. */
export type Severity = "high" | "medium" | "low";

/** One finding on one file. */
export interface Finding {
  /** Rule id, e.g. `auth-check-removed`. */
  rule: string;
  severity: Severity;
  /** Path of the file (as given in the change). */
  path: string;
  /** Matches of the rule in the file before and after the change. */
  before: number;
  after: number;
  /** One line saying what was found. */
  message: string;
  /** 1-based line of the construct (in the after-text for additions, before-text for removals). */
  line?: number;
  /** The construct, e.g. `check_permissions() call removed from initial() (views.py:419)`. */
  detail?: string;
}

/** The inspector's verdict on one action's file changes. */
export interface InspectResult {
  findings: Finding[];
  /** 0 (nothing found) to 100; computed from the findings' severities. */
  risk: number;
  /** The highest severity found, or null. */
  maxSeverity: Severity | null;
  /** How files were inspected when not fully by the parser (fallbacks, syntax errors). */
  notes?: string[];
}
