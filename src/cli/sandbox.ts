/**
 * `retie sandbox [--workspace DIR] [--network] [--timeout SEC] -- CMD [ARGS…]`: runs one command
 * exactly as the bash tool would (same profile, same seccomp filter), streams its output and passes
 * its exit status through. Never runs anything unsandboxed.
 *
 * @module
 */
import type { Command } from "commander";
import { ledgerFiles } from "../core/dirs.ts";
import { RetieError } from "../core/errors.ts";
import type { Register } from "./commands.ts";

/** Quotes one word for a POSIX shell. */
function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/**
 * The shell command for CMD [ARGS…]: one word is taken as a shell command line (`-- 'ls | wc'`),
 * several are quoted word by word (`-- ls -la`).
 *
 * @example
 * ```ts
 * import { commandLine } from "./sandbox.ts";
 * commandLine(["echo", "a b"]); // "echo 'a b'"
 * ```
 */
export function commandLine(words: string[]): string {
  return words.length === 1 ? words[0] : words.map(shellQuote).join(" ");
}

/**
 * Registers `retie sandbox`.
 *
 * @example
 * ```ts
 * import { Command } from "commander";
 * import { register } from "./sandbox.ts";
 * register(new Command("retie"));
 * ```
 */
export const register: Register = (program: Command) => {
  program
    .command("sandbox")
    .description(
      "run one command in the sandbox the bash tool uses (output streamed, exit status kept)",
    )
    .option("--workspace <dir>", "the writable workspace (default: the current directory)")
    .option("--network", "share the host network (re-opens exfiltration)")
    .option("--timeout <sec>", "kill the command after this many seconds")
    .option("--yes", "use a very broad workspace (/, $HOME, …) without asking")
    .argument("<cmd...>", "the command; one word is run as a shell command line")
    .action(
      async (
        words: string[],
        _opts: unknown,
        cmd: Command,
      ) => {
        const opts = cmd.optsWithGlobals<
          {
            workspace?: string;
            network?: boolean;
            timeout?: string;
            ledger?: string;
            yes?: boolean;
          }
        >();
        const { checkSandbox } = await import("../sandbox/check.ts");
        const { workspaceSandbox } = await import("../sandbox/profile.ts");
        const { revertGitControl } = await import("../sandbox/git_guard.ts");
        const { prepareSandboxed, runSandboxed } = await import("../sandbox/run.ts");
        let timeoutMs: number | undefined;
        if (opts.timeout !== undefined) {
          const n = Number(opts.timeout);
          if (!Number.isFinite(n) || n <= 0) {
            throw new RetieError(
              `invalid --timeout (${opts.timeout}): must be a positive number of seconds`,
              {
                hint: "pass --timeout 30, for example",
                exitCode: 2,
              },
            );
          }
          timeoutMs = n * 1000;
        }
        // A ledger named with --ledger is hidden like the default one (and its side files).
        const hide = opts.ledger ? ledgerFiles(opts.ledger) : [];
        const { profile, git } = workspaceSandbox(opts.workspace ?? Deno.cwd(), {
          network: opts.network,
          hide,
        });
        // A system directory is refused outright (building the arguments checks that); a
        // writable `$HOME` or similar is allowed only when a person says yes, or --yes does.
        prepareSandboxed(profile, "true", { etcView: false });
        const { confirmWorkspace } = await import("./workspace.ts");
        await confirmWorkspace(profile.workspace, {
          headless: !Deno.stdin.isTerminal(),
          yes: opts.yes === true,
          instead: "retie sandbox --workspace ./my-project -- …",
          ask: async (message) => {
            const { confirm } = await import("@inquirer/prompts");
            return await confirm({ message, default: false });
          },
        });
        // Bad input is reported before the (slower) probe of bubblewrap itself.
        const check = await checkSandbox();
        if (!check.available) {
          throw new RetieError(`the sandbox is not available: ${check.reason}`, {
            hint: "retie never runs the command unsandboxed; fix the cause above and retry",
            exitCode: 1,
          });
        }
        if (profile.network) {
          console.error("retie: the sandbox shares the host network (--network)");
        }
        const r = await runSandboxed({
          profile,
          command: commandLine(words),
          timeoutMs,
          onStdout: (c) => Deno.stdout.writeSync(c),
          onStderr: (c) => Deno.stderr.writeSync(c),
        });
        // Git control files the command created or swapped are taken away (git_guard.ts).
        const g = revertGitControl(profile.workspace, Object.fromEntries(git.identity));
        for (const p of g.removed) {
          console.error(`retie: removed ${p}: git control files a command created or swapped`);
        }
        for (const f of g.failed) console.error(`retie: could NOT remove ${f.path}: ${f.why}`);
        if (r.timedOut) {
          console.error(
            `retie: timed out after ${opts.timeout} s; the command was killed`,
          );
        }
        Deno.exitCode = r.code;
      },
    );
};
