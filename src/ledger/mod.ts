/**
 * The ledger: append-only, hash-chained and signed entries in SQLite, their hashing, checkpoints
 * and the signed head, reading, keys and delegations, and the verifier.
 *
 * Code outside this folder imports from this module only.
 *
 * @module
 */
export * from "./checkpoint.ts";
export * from "./entries.ts";
export * from "./entries_read.ts";
export * from "./delegation.ts";
export * from "./entry_hash.ts";
export * from "./keys.ts";
export * from "./ledger.ts";
export * from "./read.ts";
export * from "./schema.ts";
export * from "./types.ts";
export * from "./verify.ts";
export * from "./verify_parallel.ts";
export * from "./verified_mark.ts";
