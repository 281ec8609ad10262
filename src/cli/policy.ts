/**
 * `retie policy [--workspace DIR] [--json]`: prints the effective policy (retie-default plus the
 * workspace's `.retie/policy.json`, if any) and its identity `name@digest`. An invalid project file
 * is refused (exit 2) naming the offending rule.
 *
 * @module
 */
import type { Register } from "./commands.ts";

/**
 * Registers `retie policy`.
 *
 * @example
 * ```ts
 * import { Command } from "commander";
 * import { register } from "./policy.ts";
 * const program = new Command("retie");
 * register(program);
 * ```
 */
export const register: Register = (program) => {
  program
    .command("policy")
    .description("print the effective policy and its digest (retie-default + .retie/policy.json)")
    .option(
      "--workspace <dir>",
      "workspace whose .retie/policy.json to include (default: current directory)",
    )
    .option("--json", "print the effective policy document as JSON")
    .action(async (opts: { workspace?: string; json?: boolean }) => {
      const { resolve } = await import("node:path");
      const { statSync } = await import("node:fs");
      const { RetieError } = await import("../core/errors.ts");
      const { loadEffectivePolicy, formatPolicy } = await import("../plane/policy.ts");
      const workspace = resolve(opts.workspace ?? Deno.cwd());
      let isDir = false;
      try {
        isDir = statSync(workspace).isDirectory();
      } catch { /* reported below */ }
      if (!isDir) {
        throw new RetieError(
          `cannot read the workspace (--workspace ${workspace}): not a directory`,
          {
            hint: "pass the project directory whose .retie/policy.json to include",
            exitCode: 2,
          },
        );
      }
      const p = loadEffectivePolicy(workspace);
      const { rememberedFor } = await import("../agent/remembered_approvals.ts");
      const { configPath } = await import("../config/mod.ts");
      const real = (() => {
        try {
          return Deno.realPathSync(workspace);
        } catch {
          return workspace;
        }
      })();
      const remembered = rememberedFor(real);
      if (opts.json) {
        console.log(
          JSON.stringify(
            {
              identity: p.identity,
              digest: p.digest,
              sources: p.sources,
              policy: p.doc,
              rememberedApprovals: remembered,
            },
            null,
            2,
          ),
        );
      } else {
        console.log(formatPolicy(p));
        console.log(
          `\nremembered approvals for ${real} (${configPath()}; they answer an ask, never a deny):`,
        );
        if (remembered.length === 0) console.log("  none");
        for (const r of remembered) {
          console.log(`  allow ${r.tool} matching ${JSON.stringify(r.pattern)} (added ${r.added})`);
        }
      }
    });
};
