/**
 * The config-file line of `retie doctor`: is `$XDG_CONFIG_HOME/retie/config.json` absent (the
 * defaults apply), valid, or broken — and where.
 *
 * Kept on its own so it can hand over to the config module's own loader once there is one: only
 * {@link checkConfigFile} would change.
 *
 * @module
 */
import { join } from "node:path";
import { configDir } from "../core/dirs.ts";
import { errorMessage } from "../core/errors.ts";

/** The outcome of {@link checkConfigFile}. */
export interface ConfigCheck {
  path: string;
  /** `absent`: no file (defaults); `valid`: a JSON object; `invalid`: anything else. */
  state: "absent" | "valid" | "invalid";
  /** What is wrong, for `invalid`. */
  problem?: string;
}

/**
 * Where retie's config file lives: `$XDG_CONFIG_HOME/retie/config.json`.
 *
 * @example
 * ```ts
 * import { configFilePath } from "./doctor_config.ts";
 * configFilePath("/home/me/.config/retie"); // "/home/me/.config/retie/config.json"
 * ```
 */
export function configFilePath(dir: string = configDir()): string {
  return join(dir, "config.json");
}

/**
 * Reads the config file and says whether it is usable.
 *
 * @example
 * ```ts
 * import { checkConfigFile } from "./doctor_config.ts";
 * checkConfigFile("/nonexistent/config.json").state; // "absent"
 * ```
 */
export function checkConfigFile(path: string = configFilePath()): ConfigCheck {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { path, state: "absent" };
    return { path, state: "invalid", problem: `cannot read it: ${errorMessage(e)}` };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { path, state: "invalid", problem: `not JSON: ${errorMessage(e)}` };
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    return { path, state: "invalid", problem: "not a JSON object ({ … })" };
  }
  return { path, state: "valid" };
}
