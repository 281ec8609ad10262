/**
 * The instruction files a session gives the model, found and read the way retie reads anything
 * from a workspace: through the `read` tool's confinement (a symlink that leads outside the
 * workspace, or to retie's own state, is refused; FIFOs and devices are refused, never opened for
 * long). Each one read, or refused, is listed with its digest for the genesis entry.
 *
 * Looked for, in this order:
 * - the user's own, `$XDG_CONFIG_HOME/retie/AGENTS.md` (outside the workspace; read directly);
 * - the workspace root's `AGENTS.md`, or when that is absent `CLAUDE.md`, then `GEMINI.md`;
 * - the same in the directory being worked on, when it lies below the root.
 *
 * @module
 */
import { join, relative } from "node:path";
import { sha256Hex } from "../core/hash.ts";
import { type ConfineScope, readConfinedText } from "../tools/confine.ts";
import { errorMessage } from "../core/errors.ts";

/** Names tried in a directory, the first one present wins. */
export const INSTRUCTION_NAMES: readonly string[] = ["AGENTS.md", "CLAUDE.md", "GEMINI.md"];
/** Largest instruction file read. */
export const INSTRUCTIONS_MAX_BYTES = 64 * 1024;

/** One instruction file looked at. */
export interface InstructionInput {
  /** `global` (the user's), `workspace` (the root) or `directory` (the one worked on). */
  scope: "global" | "workspace" | "directory";
  /** Absolute path as looked up. */
  path: string;
  /** sha256 of the bytes read; null when refused. */
  digest: string | null;
  /** Why it was not used, when refused. */
  refused?: string;
}

/** What {@link loadInstructions} found. */
export interface Instructions {
  /** Text for the system prompt (each file under a heading), or null when there is none. */
  text: string | null;
  /** Every file looked at that exists, read or refused, for the genesis entry. */
  inputs: InstructionInput[];
}

function readGlobal(path: string): Uint8Array | null {
  try {
    const st = Deno.statSync(path);
    if (!st.isFile || st.size > INSTRUCTIONS_MAX_BYTES) return null;
    return Deno.readFileSync(path);
  } catch {
    return null;
  }
}

/**
 * Finds and reads the instruction files of a session.
 *
 * @example
 * ```ts
 * import { loadInstructions } from "./instructions.ts";
 * const r = loadInstructions({ workspace: "/tmp", protectedPaths: [] }, { configDir: "/nonexistent" });
 * Array.isArray(r.inputs); // true
 * ```
 */
export function loadInstructions(
  scope: ConfineScope,
  opts: { configDir?: string; dir?: string } = {},
): Instructions {
  const parts: string[] = [];
  const inputs: InstructionInput[] = [];
  if (opts.configDir) {
    const path = join(opts.configDir, "AGENTS.md");
    const bytes = readGlobal(path);
    if (bytes) {
      inputs.push({ scope: "global", path, digest: sha256Hex(bytes) });
      parts.push(`Your user's instructions (${path}):\n${new TextDecoder().decode(bytes)}`);
    }
  }
  const dirs: [InstructionInput["scope"], string][] = [["workspace", scope.workspace]];
  const rel = opts.dir ? relative(scope.workspace, opts.dir) : "";
  if (rel && !rel.startsWith("..") && !rel.startsWith("/")) dirs.push(["directory", opts.dir!]);
  for (const [kind, dir] of dirs) {
    for (const name of INSTRUCTION_NAMES) {
      const path = join(dir, name);
      let r: ReturnType<typeof readConfinedText>;
      try {
        r = readConfinedText(scope, path, INSTRUCTIONS_MAX_BYTES);
      } catch (e) {
        inputs.push({ scope: kind, path, digest: null, refused: errorMessage(e) });
        break; // present but refused: the next name is not a fallback for a hostile file
      }
      if (r === null) continue;
      inputs.push({ scope: kind, path, digest: sha256Hex(r.bytes) });
      const shown = relative(scope.workspace, path) || name;
      parts.push(`Project instructions (${shown}):\n${r.text}`);
      break;
    }
  }
  return { text: parts.length > 0 ? parts.join("\n\n") : null, inputs };
}
