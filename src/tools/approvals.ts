/**
 * What classification decided about reads outside the workspace, remembered for the handler.
 *
 * The guard runs the handler only after the policy allowed the effect that `classify` computed. An
 * outside read is allowed only when that effect named it (`readsOutside`), so the handler must know
 * which outside paths the approved effect held: a path that was inside at classification and
 * resolves outside when the handler runs (a symlink swapped in) was never approved. `classify`
 * records its outside reads here, keyed by session, tool and canonical arguments; the latest
 * classification of the same call wins.
 *
 * @module
 */
import { canonicalJson } from "../core/canonical_json.ts";
import type { ToolContext } from "../core/tool.ts";

const MAX = 512;
const memo = new Map<string, string[]>();

function key(ctx: ToolContext, tool: string, args: unknown): string {
  return `${ctx.sessionId}\u0000${tool}\u0000${canonicalJson(args)}`;
}

/**
 * Records the outside reads that a classification of this call listed (possibly none).
 *
 * @example
 * ```ts
 * import { rememberOutsideReads } from "./approvals.ts";
 * declare const ctx: import("../core/tool.ts").ToolContext;
 * rememberOutsideReads(ctx, "read", { path: "/etc/hosts" }, ["/etc/hosts"]);
 * ```
 */
export function rememberOutsideReads(
  ctx: ToolContext,
  tool: string,
  args: unknown,
  outside: string[],
): void {
  const k = key(ctx, tool, args);
  memo.delete(k);
  memo.set(k, [...outside]);
  while (memo.size > MAX) memo.delete(memo.keys().next().value!);
}

/**
 * The outside paths the latest classification of this call listed; empty when none (or never
 * classified), so an unexpected outside read is refused.
 *
 * @example
 * ```ts
 * import { approvedOutsideReads } from "./approvals.ts";
 * declare const ctx: import("../core/tool.ts").ToolContext;
 * approvedOutsideReads(ctx, "read", { path: "/etc/hosts" }); // ["/etc/hosts"] after classify
 * ```
 */
export function approvedOutsideReads(ctx: ToolContext, tool: string, args: unknown): string[] {
  return memo.get(key(ctx, tool, args)) ?? [];
}
