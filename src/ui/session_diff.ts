/**
 * `/diff` on the screen: every file a session changed — by write, edit or a command — as a
 * unified diff from its state before the session first changed it to its state now. Binary and
 * large files are listed with a note; creations and deletions show `/dev/null` on one side.
 * Names and contents are untrusted: made safe before any colour is added.
 *
 * @module
 */
import { createTwoFilesPatch } from "diff";
import { c } from "./color.ts";
import { untrusted } from "./term.ts";

/** The state of one path at one time, as `/diff` compares it. */
export type PathState =
  | { type: "absent" }
  /** `bytes` null: the contents are not known (not kept, or too large to read). */
  | { type: "file"; size: number; bytes: Uint8Array | null; mode?: number }
  | { type: "symlink"; target: string }
  | { type: "dir" }
  | { type: "other"; what: string };

/** One path: absolute, with its state before the session's first change and now. */
export interface PathChange {
  /** Absolute path. */
  path: string;
  /** Before the session first changed it. */
  before: PathState;
  /** Now, on disk. */
  after: PathState;
}

/** Text files up to this size are shown as a diff; larger ones are listed with their sizes. */
export const DIFF_MAX_BYTES = 256 * 1024;
/** Lines of one file's diff shown before the rest is summarised. */
export const DIFF_MAX_LINES = 400;
/** Files shown with their diff; the rest are named only. */
export const DIFF_MAX_FILES = 200;

const ABSENT: PathState["type"][] = ["absent", "dir"];

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Whether a path ended as it started (then `/diff` leaves it out). Directories are not changes
 * of their own: the files in them are listed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unchanged } from "./session_diff.ts";
 * assert.equal(unchanged({ type: "absent" }, { type: "dir" }), true);
 * assert.equal(unchanged({ type: "absent" }, { type: "file", size: 0, bytes: new Uint8Array() }), false);
 * ```
 */
export function unchanged(a: PathState, b: PathState): boolean {
  if (ABSENT.includes(a.type) && ABSENT.includes(b.type)) return true;
  if (a.type === "file" && b.type === "file") {
    return a.bytes !== null && b.bytes !== null && sameBytes(a.bytes, b.bytes) &&
      !modeChanged(a, b);
  }
  if (a.type === "symlink" && b.type === "symlink") return a.target === b.target;
  if (a.type === "other" && b.type === "other") return a.what === b.what;
  return false;
}

function modeChanged(a: PathState, b: PathState): boolean {
  return a.type === "file" && b.type === "file" && a.mode !== undefined && b.mode !== undefined &&
    (a.mode & 0o7777) !== (b.mode & 0o7777);
}

const octal = (m: number) => (m & 0o7777).toString(8).padStart(3, "0");

/** The text of a file, or null when it is binary (a NUL byte, or not UTF-8). */
function textOf(bytes: Uint8Array): string | null {
  if (bytes.subarray(0, 8192).includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function describe(s: PathState): string {
  switch (s.type) {
    case "absent":
      return "absent";
    case "file":
      return `${s.size.toLocaleString("en-US")} bytes`;
    case "symlink":
      return `symlink → ${s.target}`;
    case "dir":
      return "directory";
    case "other":
      return s.what;
  }
}

function label(ch: PathChange): string {
  const gone = ABSENT.includes(ch.before.type);
  const goes = ABSENT.includes(ch.after.type);
  if (gone && !goes) return "created";
  if (!gone && goes) return "deleted";
  if (ch.before.type !== ch.after.type) return "replaced";
  return "modified";
}

/**
 * One file's part of `/diff`: a heading (`modified  src/a.py`), then its unified diff or a note
 * (binary, large, not a regular file, contents not kept).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileDiff } from "./session_diff.ts";
 * const t = (s: string) => ({ type: "file" as const, size: s.length, bytes: new TextEncoder().encode(s) });
 * const out = fileDiff({ path: "/ws/a.txt", before: t("one\n"), after: { type: "absent" } }, "/ws");
 * assert.match(out, /deleted/);
 * assert.match(out, /\+\+\+ \/dev\/null/);
 * assert.match(out, /-one/);
 * ```
 */
export function fileDiff(ch: PathChange, workspace: string): string {
  const rel = ch.path.startsWith(workspace + "/") ? ch.path.slice(workspace.length + 1) : ch.path;
  const name = untrusted(rel, { newlines: "show", tabs: "show" });
  const kind = label(ch);
  const mode = modeChanged(ch.before, ch.after)
    ? c.dim(
      ` (mode ${octal((ch.before as { mode: number }).mode)} → ${
        octal((ch.after as { mode: number }).mode)
      })`,
    )
    : "";
  const head = `  ${c.bold(kind.padEnd(8))}  ${name}${mode}`;
  const note = (why: string) =>
    `${head}\n      ${c.dim(untrusted(`${why}: ${describe(ch.before)} → ${describe(ch.after)}`))}`;
  const side = (s: PathState): string | null | undefined =>
    ABSENT.includes(s.type)
      ? null
      : s.type !== "file"
      ? undefined
      : s.bytes === null
      ? undefined
      : s.bytes.length > DIFF_MAX_BYTES
      ? undefined
      : textOf(s.bytes) ?? undefined;
  const a = side(ch.before);
  const b = side(ch.after);
  if (a === undefined || b === undefined) {
    const files = [ch.before, ch.after].filter((s) => s.type === "file") as Extract<
      PathState,
      { type: "file" }
    >[];
    const why = [ch.before, ch.after].some((s) => s.type === "symlink" || s.type === "other")
      ? "not a regular file"
      : files.some((s) => s.bytes === null)
      ? "contents not kept or too large to read; diff not shown"
      : files.some((s) => s.size > DIFF_MAX_BYTES)
      ? "large file; diff not shown"
      : "binary file; diff not shown";
    return note(why);
  }
  if (a === b && mode) return head; // only the mode changed
  const patch = createTwoFilesPatch(
    a === null ? "/dev/null" : `a/${name}`,
    b === null ? "/dev/null" : `b/${name}`,
    a ?? "",
    b ?? "",
    undefined,
    undefined,
    { context: 3 },
  );
  const lines = patch.split("\n").filter((l) => !/^=+$/.test(l));
  while (lines.length > 0 && lines.at(-1) === "") lines.pop();
  const shown = lines.slice(0, DIFF_MAX_LINES).map((raw, i) => {
    const l = untrusted(raw, { tabs: "show" });
    return i < 2 && (l.startsWith("--- ") || l.startsWith("+++ "))
      ? c.bold(l)
      : l.startsWith("+")
      ? c.green(l)
      : l.startsWith("-")
      ? c.red(l)
      : l.startsWith("@@")
      ? c.cyan(l)
      : l;
  });
  if (lines.length > DIFF_MAX_LINES) {
    shown.push(c.dim(`… ${lines.length - DIFF_MAX_LINES} more diff lines`));
  }
  return [head, ...shown.map((l) => `      ${l}`)].join("\n");
}

/**
 * The whole `/diff`: a count, then each changed file (by path); empty when nothing changed.
 * `notes` (what could not be shown, and why) follow the files.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sessionDiff } from "./session_diff.ts";
 * assert.equal(sessionDiff([], "/ws"), "");
 * ```
 */
export function sessionDiff(
  changes: PathChange[],
  workspace: string,
  notes: string[] = [],
): string {
  const real = changes.filter((ch) => !unchanged(ch.before, ch.after))
    .sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  const tail = notes.map((n) => c.dim(`  note: ${untrusted(n, { newlines: "show" })}`));
  if (real.length === 0) {
    return tail.length ? ["no file changed that retie can show", ...tail].join("\n") : "";
  }
  const n = real.length;
  const rest = real.slice(DIFF_MAX_FILES);
  const relOf = (p: string) => p.startsWith(workspace + "/") ? p.slice(workspace.length + 1) : p;
  return [
    `${n} file${n === 1 ? "" : "s"} changed in this session (by write, edit and commands; ` +
    `each from before its first change to now)`,
    ...real.slice(0, DIFF_MAX_FILES).map((ch) => fileDiff(ch, workspace)),
    ...(rest.length
      ? [
        c.dim(`  … ${rest.length} more, without their diffs:`),
        ...rest.map((ch) =>
          `  ${c.bold(label(ch).padEnd(8))}  ${
            untrusted(relOf(ch.path), { newlines: "show", tabs: "show" })
          }`
        ),
      ]
      : []),
    ...tail,
  ].join("\n");
}
