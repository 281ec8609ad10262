/**
 * The ledger note a session writes when its outer layer was not simply retie's own flags.
 *
 * @module
 */
import type { EventPayload } from "../ledger/mod.ts";
import { outerLayer } from "../core/outer_layer.ts";

/**
 * The event to record at the start of a session: none when retie started under its own flags;
 * `outer-layer` with the status and what was broader when it re-executed itself (`narrowed`) or
 * runs with `--unconfined`.
 *
 * @example
 * ```ts
 * import { outerLayerNote } from "./outer_note.ts";
 * outerLayerNote(); // undefined unless the entry point recorded a narrowed or unconfined start
 * ```
 */
export function outerLayerNote(): EventPayload | undefined {
  const s = outerLayer();
  if (!s || s.status === "confined") return undefined;
  return {
    type: "outer-layer",
    status: s.status,
    profile: s.profile ?? null,
    from: s.from ?? null,
    message: s.status === "unconfined"
      ? `outer layer unconfined (--unconfined): started with ${s.from}`
      : `outer layer narrowed: started with ${s.from}, re-executed under the ${s.profile} flags`,
  };
}
