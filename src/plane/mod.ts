/**
 * The control plane's public surface: classification contracts are in `src/core/effect.ts`; here
 * are the policy engine, undo planning and reversal, the guard (the one path every tool call
 * takes), and the ledger, keys, delegation and verifier.
 *
 * @example
 * ```ts
 * import { createGuard, defaultPolicy, openLedger } from "./mod.ts";
 * defaultPolicy().identity; // "retie-default@…"
 * ```
 *
 * @module
 */
export * from "./ids.ts";
export * from "./policy_schema.ts";
export * from "./policy.ts";
export * from "./default_policy.ts";
export * from "./undo_plan.ts";
export * from "./undo.ts";
export * from "./guard.ts";
export * from "./guard_types.ts";
export * from "./tool_class.ts";
export * from "../ledger/mod.ts";
