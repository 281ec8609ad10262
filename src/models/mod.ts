/**
 * Models: the Ollama catalogue, tiers, the probe and its cache, the ladder that escalates on
 * failure, and the usage store.
 *
 * Code outside this folder imports from this module only.
 *
 * @module
 */
export * from "./catalog.ts";
export * from "./ladder.ts";
export * from "./ladder_provider.ts";
export * from "./model_list.ts";
export * from "./probe.ts";
export * from "./probe_cache.ts";
export * from "./session_ladder.ts";
export * from "./tiers.ts";
export * from "./usage_store.ts";
export * from "./context_window.ts";
export * from "./prices.ts";
