/**
 * The user's configuration: the file's schema, loading and saving it, the effective settings of a
 * run (flags > environment > config > defaults) and the remembered approvals kept in it.
 *
 * Code outside this folder imports from this module only.
 *
 * @module
 */
export * from "./schema.ts";
export * from "./load.ts";
export * from "./resolve.ts";
