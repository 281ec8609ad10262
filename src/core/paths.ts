/**
 * Paths as retie's confinement sees them: a branded {@link RealPath} (absolute, normalised, every
 * symlink resolved) and the one way containment is written, {@link isWithin}`(child, root)`.
 *
 * The containment tests are lexical: they compare the strings they are given, by path component
 * (`/ws2` is not inside `/ws`). Whether that means "inside on disk" depends on what the caller
 * passes: two {@link RealPath}s compare what is really on disk; paths normalised with
 * `path.resolve` compare what was written (a delegation's scope, a remembered approval).
 *
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import { errorMessage, RetieError } from "./errors.ts";

declare const realPathBrand: unique symbol;

/**
 * An absolute path with every symlink resolved (what `realpath(3)` returns). Made by
 * {@link toRealPath} (which resolves) or {@link trustRealPath} (for a value that was resolved
 * already); usable anywhere a string is.
 */
export type RealPath = string & { readonly [realPathBrand]: true };

/**
 * Resolves `p` (relative to the working directory) to the real path of an existing file or
 * directory. Throws a {@link RetieError} naming the path when it does not exist or cannot be
 * resolved.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toRealPath } from "./paths.ts";
 * const dir = Deno.realPathSync(Deno.makeTempDirSync());
 * Deno.symlinkSync(dir, `${dir}/link`);
 * assert.equal(toRealPath(`${dir}/link/.`), dir);
 * assert.throws(() => toRealPath(`${dir}/missing`), /cannot resolve the path/);
 * ```
 */
export function toRealPath(p: string): RealPath {
  try {
    return Deno.realPathSync(resolve(p)) as RealPath;
  } catch (e) {
    throw new RetieError(`cannot resolve the path (${p}): ${errorMessage(e)}`, {
      hint: "name a file or directory that exists",
      exitCode: 2,
      cause: e,
    });
  }
}

/**
 * The real path of `p`, or null when it does not exist (or cannot be resolved).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { realPathOrNull } from "./paths.ts";
 * assert.equal(realPathOrNull("/definitely/not/here"), null);
 * assert.equal(realPathOrNull("/"), "/");
 * ```
 */
export function realPathOrNull(p: string): RealPath | null {
  try {
    return Deno.realPathSync(resolve(p)) as RealPath;
  } catch {
    return null;
  }
}

/**
 * Brands a path that the caller has already resolved with `realpath` (or that a resolved path
 * was built from without crossing a symlink). Checks only that it is absolute.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { trustRealPath } from "./paths.ts";
 * assert.equal(trustRealPath("/ws"), "/ws");
 * assert.throws(() => trustRealPath("ws"), /not an absolute path/);
 * ```
 */
export function trustRealPath(p: string): RealPath {
  if (!isAbsolute(p)) {
    throw new RetieError(`not an absolute path (${p})`, {
      hint: "resolve the path before using it as a real path",
    });
  }
  return p as RealPath;
}

/**
 * True when `child` is `root` or lies below it, by path component. Lexical: both should be
 * absolute and normalised (real paths, or `path.resolve` results); `/` contains every absolute
 * path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isWithin } from "./paths.ts";
 * assert.equal(isWithin("/ws/a/b", "/ws"), true);
 * assert.equal(isWithin("/ws", "/ws"), true);
 * assert.equal(isWithin("/ws2/a", "/ws"), false);
 * assert.equal(isWithin("/etc", "/"), true);
 * ```
 */
export function isWithin(child: string, root: string): boolean {
  if (root === "/") return child.startsWith("/");
  return child === root || child.startsWith(root.endsWith("/") ? root : root + "/");
}

/**
 * True when `child` lies strictly below `root` (inside it, not equal to it). Lexical, like
 * {@link isWithin}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isBelow } from "./paths.ts";
 * assert.equal(isBelow("/ws/a", "/ws"), true);
 * assert.equal(isBelow("/ws", "/ws"), false);
 * ```
 */
export function isBelow(child: string, root: string): boolean {
  return child !== root && isWithin(child, root);
}

/**
 * True when `a` and `b` are the same path or one lies inside the other (trailing slashes
 * ignored). Lexical, like {@link isWithin}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { overlaps } from "./paths.ts";
 * assert.equal(overlaps("/ws/", "/ws/sub"), true);
 * assert.equal(overlaps("/etc", "/"), true);
 * assert.equal(overlaps("/ws", "/ws2"), false);
 * ```
 */
export function overlaps(a: string, b: string): boolean {
  const x = a.replace(/\/+$/, "") || "/";
  const y = b.replace(/\/+$/, "") || "/";
  return isWithin(x, y) || isWithin(y, x);
}
