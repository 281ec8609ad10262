/**
 * Terminal colour that degrades cleanly: off when `NO_COLOR` is set (any value) or stdout is not a
 * terminal, unless `FORCE_COLOR` is set.
 *
 * @module
 */

/** Set and not empty (no-color.org: an empty NO_COLOR does not count). */
function envSet(name: string): boolean {
  try {
    const v = Deno.env.get(name);
    return v !== undefined && v !== "";
  } catch {
    return false;
  }
}

/**
 * Whether colour codes should be written to stdout.
 *
 * @example
 * ```ts
 * import { colorEnabled } from "./color.ts";
 * if (!colorEnabled()) console.log("plain output");
 * ```
 */
export function colorEnabled(): boolean {
  if (forced !== null) return forced;
  if (envSet("NO_COLOR")) return false;
  if (envSet("FORCE_COLOR")) return true;
  try {
    return Deno.stdout.isTerminal();
  } catch {
    return false;
  }
}

let forced: boolean | null = null;

/**
 * Forces colour on or off for this process (null: decide from the environment again). Output
 * written to a file is never coloured, whatever the terminal is.
 *
 * @example
 * ```ts
 * import { colorEnabled, forceColor } from "./color.ts";
 * forceColor(false);
 * colorEnabled(); // false
 * ```
 */
export function forceColor(on: boolean | null): void {
  forced = on;
}

const wrap = (open: number, close: number) => (s: string): string =>
  colorEnabled() ? `\x1b[${open}m${s}\x1b[${close}m` : s;

/** Styles; each is the identity when colour is off. */
export const c = {
  bold: wrap(1, 22),
  dim: wrap(2, 22),
  underline: wrap(4, 24),
  red: wrap(31, 39),
  green: wrap(32, 39),
  yellow: wrap(33, 39),
  blue: wrap(34, 39),
  magenta: wrap(35, 39),
  cyan: wrap(36, 39),
  gray: wrap(90, 39),
  strike: wrap(9, 29),
};
