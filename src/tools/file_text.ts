/**
 * Reading a workspace file's current text for edit, write and their previews (confined, bounded).
 *
 * @module
 */
import * as fs from "node:fs";
import { RetieError } from "../core/errors.ts";
import type { ToolContext } from "../core/tool.ts";
import { openVerified } from "./confine.ts";
import { displayPath } from "./paths.ts";
import { looksBinary, SNIFF_BYTES } from "./text.ts";

/** Largest file that edit and write previews will load. */
export const EDIT_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The current text of the file at real path `real` (inside the workspace), or null when it does not
 * exist. Opens without following a final symlink and checks what was opened.
 *
 * @throws RetieError when it is not a regular file, is binary or too large, or changed under us.
 * @example
 * ```ts
 * import { currentText } from "./file_text.ts";
 * declare const ctx: import("../core/tool.ts").ToolContext;
 * currentText(ctx, `${ctx.workspace}/README.md`); // the text, or null
 * ```
 */
export function currentText(ctx: ToolContext, real: string): string | null {
  try {
    fs.lstatSync(real);
  } catch {
    return null;
  }
  const v = openVerified(ctx, real, { noFollow: true });
  try {
    const shown = displayPath(ctx.workspace, v.real);
    if (!v.stat.isFile()) {
      throw new RetieError(`cannot edit (${shown}): it is not a regular file`, {
        hint: "edit and write work on regular files only",
        exitCode: 2,
      });
    }
    if (v.stat.size > EDIT_MAX_BYTES) {
      throw new RetieError(`cannot edit (${shown}): it is larger than 16 MB`, {
        hint: "change a file this large with a command in bash",
        exitCode: 2,
      });
    }
    const bytes = fs.readFileSync(v.fd);
    if (looksBinary(bytes.subarray(0, SNIFF_BYTES))) {
      throw new RetieError(`cannot edit (${shown}): it is a binary file`, {
        hint: "edit and write change text files only",
        exitCode: 2,
      });
    }
    return new TextDecoder().decode(bytes);
  } finally {
    fs.closeSync(v.fd);
  }
}
