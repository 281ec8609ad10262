/**
 * `retie doctor [--json]`: is this machine ready for retie? Deno and retie versions, the outer
 * permission layer (narrowed or not, and how), bubblewrap, user namespaces, seccomp, overlay, key
 * file modes, the config file and the ledger — each line a verdict and, when not ok, the fix.
 *
 * Exit code: 0 when nothing failed (warnings allowed), 1 otherwise.
 *
 * @module
 */
import type { Command } from "commander";
import type { Register } from "./commands.ts";
import type { Check } from "./doctor_checks.ts";

/**
 * Runs every check, in the order shown.
 *
 * @example
 * ```ts ignore
 * import { runChecks } from "./doctor.ts";
 * const checks = await runChecks("/home/me/.local/state/retie/ledger.db");
 * checks.every((c) => c.verdict !== "fail");
 * ```
 */
export async function runChecks(ledgerPath: string): Promise<Check[]> {
  const k = await import("./doctor_checks.ts");
  return [
    k.checkDeno(),
    k.checkRetie(),
    k.checkOuterLayer(),
    await k.checkBwrap(),
    await k.checkUserNamespaces(),
    await k.checkSeccomp(),
    await k.checkOverlay(),
    k.checkKeyModes(),
    k.checkConfig(),
    await k.checkLedger(ledgerPath),
  ];
}

/**
 * The report as text: one line per check, the fix indented under it.
 *
 * @example
 * ```ts
 * import { renderChecks } from "./doctor.ts";
 * renderChecks([{ id: "retie", title: "retie", verdict: "ok", detail: "0.1.0" }]);
 * // "ok    retie            0.1.0\n"
 * ```
 */
export function renderChecks(checks: Check[]): string {
  let out = "";
  for (const ch of checks) {
    out += `${ch.verdict.padEnd(6)}${ch.title.padEnd(17)}${ch.detail}\n`;
    if (ch.fix) out += `${"".padEnd(23)}fix: ${ch.fix}\n`;
  }
  return out;
}

export const register: Register = (program) => {
  program
    .command("doctor")
    .description("check this machine: permissions, sandbox, keys, config, ledger (each with a fix)")
    .option("--json", "print the report as JSON")
    .action(async (_o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<{ json?: boolean; ledger?: string }>();
      const { defaultLedgerPath } = await import("../core/dirs.ts");
      const checks = await runChecks(opts.ledger ?? defaultLedgerPath());
      const ok = checks.every((ch) => ch.verdict !== "fail");
      if (opts.json) {
        console.log(JSON.stringify({ ok, checks }, null, 2));
      } else {
        const { c } = await import("../ui/color.ts");
        const paint = { ok: c.green, warn: c.yellow, fail: c.red };
        const text = renderChecks(checks).replace(
          /^(ok|warn|fail)(\s)/gm,
          (_m, v: "ok" | "warn" | "fail", sp: string) => paint[v](v) + sp,
        );
        console.log(text.trimEnd());
      }
      Deno.exitCode = ok ? 0 : 1;
    });
};
