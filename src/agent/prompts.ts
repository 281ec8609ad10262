/**
 * The system prompt (short, on purpose) and the instruction files (`AGENTS.md`, see
 * `instructions.ts`). Both are digested into the session's genesis entry, so the record says what the model was told.
 *
 * @module
 */
import { sha256Hex } from "../core/hash.ts";
import { type InstructionInput, loadInstructions } from "./instructions.ts";

/** The base system prompt. `{{fence}}` is replaced by the web-fence explanation. */
const BASE = `You are retie, a coding agent working in the project at {{workspace}}.
Use the tools to read, search and edit files and to run commands; paths are relative to the project.
Every action is classified by how hard it is to undo, gated by a policy and recorded in a signed ledger.
Shell commands run in a sandbox: no network, only the project is writable, and the project is restored
if the action is undone. A refused action is not an error in you: read the reason, and either take
another way or ask the person with the ask tool.
Prefer small, exact edits (edit) over rewriting files. Check your work by running the project's tests.
Large results are shown as a preview with a ref; call recall(ref, offset, length) only for the parts you need.
{{fence}}
When the task is done, say briefly what you changed and how you checked it.`;

/** Assembled prompts and their digests. */
export interface Prompts {
  system: string;
  systemDigest: string;
  /** The instruction files' text as given to the model, or null. */
  instructions: string | null;
  instructionsDigest: string | null;
  /** Each instruction file looked at, read or refused, with its digest (for genesis). */
  inputs: InstructionInput[];
}

/** Where {@link buildPrompts} looks for instructions. */
export interface PromptSources {
  /** Paths no tool may read (also refused as instructions). */
  protectedPaths?: string[];
  /** retie's config dir: its `AGENTS.md` is the user's own. */
  configDir?: string;
  /** The directory being worked on (its own instruction file, when below the root). */
  dir?: string;
}

/**
 * Builds the system prompt for a workspace, appending the instruction files (see
 * `instructions.ts`) read under the `read` tool's confinement.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildPrompts } from "./prompts.ts";
 * const p = buildPrompts("/tmp", "Fetched pages are fenced.");
 * assert.deepEqual(p.systemDigest.length, 64);
 * ```
 */
export function buildPrompts(
  workspace: string,
  fenceNote: string,
  sources: PromptSources = {},
): Prompts {
  const found = loadInstructions(
    { workspace, protectedPaths: sources.protectedPaths ?? [] },
    { configDir: sources.configDir, dir: sources.dir },
  );
  const instructions = found.text;
  let system = BASE.replace("{{workspace}}", workspace).replace("{{fence}}", fenceNote);
  if (instructions !== null) system += `\n\n${instructions}`;
  return {
    system,
    systemDigest: sha256Hex(system),
    instructions,
    instructionsDigest: instructions === null ? null : sha256Hex(instructions),
    inputs: found.inputs,
  };
}
