/**
 * Workspace snapshots for undo: the content-addressed store, listing (on two threads), watching
 * with inotify, manifests, change scans and restore.
 *
 * Code outside this folder imports from this module only.
 *
 * @module
 */
export * from "./changes.ts";
export * from "./keep.ts";
export * from "./manifests.ts";
export * from "./restore.ts";
export * from "./store.ts";
export * from "./tree.ts";
export * from "./tree_watcher.ts";
export * from "./walk.ts";
export * from "./walk_helper.ts";
export * from "./walk_split.ts";
export * from "./watch_coverage.ts";
export { OverlayStaging } from "./upper_apply.ts";
export { DEFAULT_STAGE_LIMITS, type StageLimits } from "./upper_read.ts";
