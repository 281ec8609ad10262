/**
 * Pure path helpers for the file tools: protected paths, display (containment itself is
 * `core/paths.ts`).
 *
 * Everything here works on absolute, already-resolved (real) paths; resolving symlinks is
 * `confine.ts`'s job. Kept free of I/O so the rules can be tested exhaustively.
 *
 * @module
 */
import { relative } from "node:path";
import { isWithin } from "../core/paths.ts";

/**
 * The protected path that covers `p` (equal to it or above it), or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { protectedCover } from "./paths.ts";
 * assert.deepEqual(protectedCover("/home/u/.local/state/retie/ledger.db", ["/home/u/.local/state/retie"]), "/home/u/.local/state/retie");
 * ```
 */
export function protectedCover(p: string, protectedPaths: readonly string[]): string | null {
  for (const q of protectedPaths) if (isWithin(p, q)) return q;
  return null;
}

/**
 * Protected paths that lie inside `root` (the sandbox hides these; walks skip them).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { protectedInside } from "./paths.ts";
 * assert.deepEqual(protectedInside("/ws", ["/ws/.retie/ledger.db", "/etc/retie"]), ["/ws/.retie/ledger.db"]);
 * ```
 */
export function protectedInside(root: string, protectedPaths: readonly string[]): string[] {
  return protectedPaths.filter((q) => isWithin(q, root));
}

/**
 * How a path is shown to the model: relative to the workspace when inside, absolute otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { displayPath } from "./paths.ts";
 * assert.deepEqual(displayPath("/ws", "/ws/src/a.ts"), "src/a.ts");
 * assert.deepEqual(displayPath("/ws", "/ws"), ".");
 * assert.deepEqual(displayPath("/ws", "/etc/hosts"), "/etc/hosts");
 * ```
 */
export function displayPath(workspace: string, p: string): string {
  if (!isWithin(p, workspace)) return p;
  return relative(workspace, p) || ".";
}

/**
 * Splits a path into its components, dropping empty ones (`a//b/` → `["a","b"]`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { components } from "./paths.ts";
 * assert.deepEqual(components("/a//b/../c/"), ["a", "b", "..", "c"]);
 * ```
 */
export function components(p: string): string[] {
  return p.split("/").filter((c) => c.length > 0);
}

/**
 * Checks a path argument for things no file name may hold; returns the problem or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pathProblem } from "./paths.ts";
 * assert.deepEqual(pathProblem(""), "the path is empty");
 * assert.deepEqual(pathProblem("a.txt"), null);
 * ```
 */
export function pathProblem(p: string): string | null {
  if (p.length === 0) return "the path is empty";
  if (p.includes("\0")) return "the path contains a NUL byte";
  if (p.length > 4096) return "the path is longer than 4096 characters";
  return null;
}

/**
 * The path the kernel should open for a tool argument: absolute as given, or joined to the
 * workspace without normalising (so `link/..` means what the kernel says it means).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rawPath } from "./paths.ts";
 * assert.deepEqual(rawPath("/ws", "a/../b"), "/ws/a/../b");
 * ```
 */
export function rawPath(workspace: string, input: string): string {
  return input.startsWith("/") ? input : `${workspace}/${input}`;
}
