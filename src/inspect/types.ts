/**
 * Inspector result types, shared with the plane (which records findings and feeds the risk to the
 * policy) and the terminal (which shows `⚑ high: auth-check-removed (1 → 0)`).
 *
 * @module
 */

export type { Finding, Severity } from "../core/recorded.ts";
import type { Finding, Severity } from "../core/recorded.ts";

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

/** The rules that report a weakened guard (a learned-signal finding is one of them). */
export const GUARD_FAMILY: ReadonlySet<string> = new Set([
  "auth-check-removed",
  "crypto-verification-removed",
  "tls-check-removed",
  "secure-default-weakened",
  "tls-verify-disabled",
  "crypto-verification-disabled",
]);
