/**
 * Collects the changes of a git working tree against a revision for `retie inspect --git`.
 * retie may start only bwrap, so `git` runs inside the sandbox (confined, no network, `.git`
 * read-only); the working-tree side is read directly.
 *
 * @module
 */
import { join } from "node:path";
import { RetieError } from "../core/errors.ts";
import type { FileChange } from "../core/tool.ts";

/**
 * Quotes a string for a POSIX shell: one single-quoted word.
 *
 * @example
 * ```ts
 * shellQuote("it's"); // "'it'\\''s'"
 * ```
 */
export function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** A revision as git accepts it, and nothing a shell or git could read as an option. */
const REV = /^[A-Za-z0-9_./~^@{}:-]{1,200}$/;

/**
 * The repository root above `dir` (the nearest folder with a `.git`), or null.
 *
 * @example
 * ```ts
 * findGitRoot("/"); // null unless / is a repository
 * ```
 */
export function findGitRoot(dir: string): string | null {
  let d = Deno.realPathSync(dir);
  for (;;) {
    try {
      Deno.statSync(join(d, ".git"));
      return d;
    } catch { /* keep climbing */ }
    const up = join(d, "..");
    if (up === d) return null;
    d = up;
  }
}

const GIT = "git -c safe.directory='*' -c core.quotepath=off";
const MARK = "--retie-untracked--";

/**
 * Working tree against `rev` (tracked changes and untracked, non-ignored files) as FileChanges
 * with paths relative to the repository root.
 *
 * @example
 * ```ts
 * const changes = await gitChanges(Deno.cwd(), "HEAD");
 * ```
 */
export async function gitChanges(cwd: string, rev: string): Promise<FileChange[]> {
  if (!REV.test(rev) || rev.startsWith("-")) {
    throw new RetieError(`--git: "${rev}" is not a revision`, {
      hint: "pass a commit, branch or tag, e.g. --git HEAD~1",
      exitCode: 2,
    });
  }
  const root = findGitRoot(cwd);
  if (root === null) {
    throw new RetieError(`--git: ${cwd} is not inside a git repository`, {
      hint: "run it from a repository, or use --before/--after",
      exitCode: 2,
    });
  }
  const { checkSandbox } = await import("../sandbox/check.ts");
  const check = await checkSandbox();
  if (!check.available) {
    throw new RetieError(
      `--git needs the sandbox to run git, and it is unavailable: ${check.reason}`,
      {
        hint: "fix the sandbox (see `retie sandbox`), or pass files with --before/--after",
        exitCode: 2,
      },
    );
  }
  const q = shellQuote(rev);
  const list = await git(
    root,
    `${GIT} diff --name-only -z --no-renames ${q} -- && printf '%s\\0' ${MARK} && ` +
      `${GIT} ls-files --others --exclude-standard -z`,
  );
  const names = list.split("\0").filter((s) => s !== "" && s !== MARK);
  const paths = [...new Set(names)].sort();
  const before = new Map<string, string | null>();
  // One sandbox run per batch; each file's content comes back as one base64 line.
  for (let i = 0; i < paths.length; i += 200) {
    const batch = paths.slice(i, i + 200);
    const script = batch.map((p) => {
      const spec = shellQuote(`${rev}:${p}`);
      return `if ${GIT} cat-file -e ${spec} 2>/dev/null; then printf Y; ${GIT} show ${spec} | base64 -w0; else printf N; fi; echo`;
    }).join("\n");
    const lines = (await git(root, script)).split("\n");
    batch.forEach((p, k) => {
      const line = lines[k] ?? "";
      before.set(p, line.startsWith("Y") ? decodeBase64(line.slice(1)) : null);
    });
  }
  return paths.map((p) => ({
    path: p,
    before: before.get(p) ?? null,
    after: readOrNull(join(root, p)),
  }));
}

function decodeBase64(b64: string): string {
  const bin = atob(b64);
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

function readOrNull(p: string): string | null {
  try {
    if (!Deno.statSync(p).isFile) return null;
    return Deno.readTextFileSync(p);
  } catch {
    return null;
  }
}

async function git(root: string, command: string): Promise<string> {
  const { runSandboxed } = await import("../sandbox/run.ts");
  const r = await runSandboxed({
    profile: {
      workspace: root,
      network: false,
      readOnly: [join(root, ".git")],
      hidden: [],
      confined: true,
    },
    command: `export GIT_OPTIONAL_LOCKS=0\n${command}`,
    timeoutMs: 120_000,
    maxOutputBytes: 256 << 20,
  });
  if (r.code !== 0 || r.truncated) {
    throw new RetieError(
      `git failed in the sandbox (exit ${r.code}${r.truncated ? ", output truncated" : ""}): ${
        r.stderr.trim().split("\n").slice(-3).join(" ")
      }`,
      { hint: "check the revision exists (git rev-parse REV)", exitCode: 2 },
    );
  }
  return r.stdout;
}
