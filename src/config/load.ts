/**
 * Reading and writing the config file. A file that is not JSON, has an unknown key or a bad value
 * is refused with an error naming each problem (exit 2); a missing file is an empty config.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { configDir } from "../core/dirs.ts";
import { errorMessage, RetieError } from "../core/errors.ts";
import { ConfigSchema, type RetieConfig } from "./schema.ts";
import { writeFileAtomicSync } from "../core/atomic_write.ts";

/** A config as loaded: its contents and where they came from. */
export interface LoadedConfig {
  config: RetieConfig;
  /** The file read (whether or not it exists). */
  path: string;
  exists: boolean;
}

/**
 * The config file's path: `$XDG_CONFIG_HOME/retie/config.json`.
 *
 * @example
 * ```ts
 * import { configPath } from "./load.ts";
 * configPath().endsWith("/retie/config.json"); // true
 * ```
 */
export function configPath(dir: string = configDir()): string {
  return join(dir, "config.json");
}

/** One line per problem zod found, each naming the key path. */
function describeIssues(
  issues: readonly { path: PropertyKey[]; message: string; code: string; keys?: string[] }[],
): string[] {
  return issues.map((i) => {
    const at = i.path.length ? i.path.map(String).join(".") : "(top level)";
    if (i.code === "unrecognized_keys" && i.keys) {
      return `unknown key${i.keys.length > 1 ? "s" : ""} ${i.keys.map((k) => `"${k}"`).join(", ")}${
        i.path.length ? ` in ${at}` : ""
      }`;
    }
    return `${at}: ${i.message}`;
  });
}

/**
 * Validates a parsed config value; throws a RetieError (exit 2) naming every bad key.
 *
 * @example
 * ```ts
 * import { parseConfig } from "./load.ts";
 * parseConfig({ provider: "anthropic" }, "config.json").provider; // "anthropic"
 * ```
 */
export function parseConfig(value: unknown, path: string): RetieConfig {
  const r = ConfigSchema.safeParse(value);
  if (r.success) return r.data;
  const problems = describeIssues(r.error.issues as never);
  throw new RetieError(`invalid config (${path}): ${problems.join("; ")}`, {
    hint: "fix or remove the named keys; `retie config --schema` prints the accepted format",
    exitCode: 2,
  });
}

/**
 * Loads the config file (default `$XDG_CONFIG_HOME/retie/config.json`). A missing file is an
 * empty config; an unreadable, non-JSON or invalid one throws naming the problem.
 *
 * @example
 * ```ts
 * import { loadConfig } from "./load.ts";
 * const { config, exists } = loadConfig(Deno.makeTempDirSync() + "/config.json");
 * exists; // false
 * config; // {}
 * ```
 */
export function loadConfig(path: string = configPath()): LoadedConfig {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { config: {}, path, exists: false };
    throw new RetieError(`cannot read the config (${path}): ${errorMessage(e)}`, {
      hint: "check the file's permissions, or remove it",
      exitCode: 2,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new RetieError(`invalid config (${path}): not JSON: ${errorMessage(e)}`, {
      hint: "fix the JSON, or remove the file to use the defaults",
      exitCode: 2,
    });
  }
  return { config: parseConfig(json, path), path, exists: true };
}

/**
 * Writes the config file atomically (temp file + rename, mode 0600), after validating it.
 *
 * @example
 * ```ts ignore
 * saveConfig({ ...loadConfig().config, model: "gpt-oss:120b" });
 * ```
 */
export function saveConfig(config: RetieConfig, path: string = configPath()): void {
  const valid = parseConfig(config, path);
  Deno.mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileAtomicSync(path, JSON.stringify(valid, null, 2) + "\n", { mode: 0o600 });
}
