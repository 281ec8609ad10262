/**
 * retie's Deno permission flags, compiled into the program.
 *
 * `permissions/*.flags` are what `deno task` splices into its command lines; the same flags are
 * written out here so that a retie that has to narrow itself (started with `-A`, say) re-executes
 * under flags that ship inside the program, never under a file it would read from a checkout
 * somebody could have edited. A test keeps the two copies equal.
 *
 * @module
 */

/** `permissions/base.flags`: every way of starting retie uses these. */
export const BASE_FLAGS: readonly string[] = [
  "--no-prompt",
  "--allow-read",
  "--allow-write",
  "--allow-run=/usr/bin/bwrap",
  "--allow-env=HOME,TMPDIR,DENO_DIR,XDG_CONFIG_HOME,XDG_CACHE_HOME,XDG_STATE_HOME," +
  "OLLAMA_API_KEY,ANTHROPIC_API_KEY,OPENAI_API_KEY,RETIE_LEDGER,NO_COLOR,FORCE_COLOR,TERM," +
  "COLUMNS,LINES,LANG,RETIE_PROVIDER,RETIE_MODEL,RETIE_BASE_URL,RETIE_MAX_TIER," +
  "RETIE_CONTEXT_WINDOW,RETIE_BUDGET,RETIE_MODE,RETIE_MAX_STEPS,INIT_CWD,RETIE_NARROWED",
  "--ignore-env",
  "--allow-net",
  "--deny-net=10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,169.254.0.0/16,100.64.0.0/10,0.0.0.0,[::]," +
  "[fd00:ec2::254],[fe80::1]",
  "--deny-ffi",
];

/** `permissions/deny-loopback.flags`: added by the shipped profile, left out by `retie:local`. */
export const DENY_LOOPBACK_FLAGS: readonly string[] = ["--deny-net=127.0.0.0/8,[::1]"];

/** What the demo adds: it may start `deno` once, to verify its ledger from a separate process. */
export const DEMO_FLAGS: readonly string[] = ["--allow-run=/usr/bin/bwrap,deno"];

/** The permission profiles retie knows, strictest first. */
export type ProfileName = "retie" | "local" | "demo";

/**
 * The flags of one profile: `retie` (shipped: base + deny-loopback), `local` (base only: a model
 * server on loopback may be reached) and `demo` (shipped + starting `deno` for the verifier).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { profileFlags } from "./permission_flags.ts";
 * assert.deepEqual(profileFlags("retie").includes("--deny-net=127.0.0.0/8,[::1]"), true);
 * ```
 */
export function profileFlags(name: ProfileName): string[] {
  switch (name) {
    case "retie":
      return [...BASE_FLAGS, ...DENY_LOOPBACK_FLAGS];
    case "local":
      return [...BASE_FLAGS];
    case "demo":
      return [...BASE_FLAGS, ...DENY_LOOPBACK_FLAGS, ...DEMO_FLAGS];
  }
}

/**
 * Splits the text of a `.flags` file into flags (whitespace-separated, as the task shell does).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseFlagsFile } from "./permission_flags.ts";
 * assert.deepEqual(parseFlagsFile("--no-prompt\n--allow-read\n"), ["--no-prompt", "--allow-read"]);
 * ```
 */
export function parseFlagsFile(text: string): string[] {
  return text.split(/\s+/).filter((s) => s.length > 0);
}
