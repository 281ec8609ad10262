/**
 * `retie verify [--ledger PATH] [--session ID] [--json] [--user-key HEX] [--expect-head SEQ:HASH]`:
 * checks the ledger from its own process. Exit 0 valid, 1 invalid (naming the first bad seq and
 * its problem code), 2 unreadable input. The last line names the head to pin outside the machine.
 *
 * @module
 */
import type { Register } from "./commands.ts";

/** Ledger size from which verify checks signatures on worker threads (~25k entries). */
const PARALLEL_FROM_BYTES = 8 * 1024 * 1024;

/**
 * Registers `retie verify`.
 *
 * @example
 * ```ts
 * import { Command } from "commander";
 * import { register } from "./verify.ts";
 * const program = new Command("retie");
 * register(program);
 * ```
 */
export const register: Register = (program) => {
  program
    .command("verify")
    .description(
      "check the ledger: every hash, link, signature, delegation and the signed head (exit 0 valid, 1 invalid, 2 unreadable)",
    )
    .option("--session <id>", "report only this session (the whole chain is still checked)")
    .option("--json", "print the full report as JSON")
    .option(
      "--user-key <hex>",
      "trust only sessions opened by this user public key (repeatable)",
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option(
      "--expect-head <seq:hash>",
      "fail unless the ledger still holds this entry (a head pinned earlier) and nothing was cut after it",
    )
    .action(async (_opts, cmd) => {
      const o = cmd.optsWithGlobals() as {
        ledger?: string;
        session?: string;
        json?: boolean;
        userKey: string[];
        expectHead?: string;
      };
      const { RetieError } = await import("../core/errors.ts");
      const { parseExpectedHead } = await import("../ledger/mod.ts");
      const expectHead = o.expectHead === undefined ? undefined : parseExpectedHead(o.expectHead);
      if (expectHead === null) {
        throw new RetieError(
          `not a ledger head (--expect-head ${o.expectHead}): expected SEQ:HASH, a seq and 64 hex digits`,
          {
            hint:
              "use the head printed at the end of a session or by `retie verify` (`head: 12:ab…`)",
            exitCode: 2,
          },
        );
      }
      for (const k of o.userKey) {
        if (!/^[0-9a-f]{64}$/.test(k)) {
          throw new RetieError(`not a user public key (--user-key ${k}): expected 64 hex digits`, {
            hint: "`retie verify` prints the user key of each session (`user key: …`)",
            exitCode: 2,
          });
        }
      }
      const { defaultLedgerPath } = await import("../core/dirs.ts");
      const { verifyLedger } = await import("../ledger/mod.ts");
      const path = o.ledger ?? defaultLedgerPath();
      const vopts = {
        session: o.session,
        trustedUserKeys: o.userKey.length ? o.userKey : undefined,
        expectHead,
      };
      // Large ledgers: signatures on 2 worker threads (worth it past a few thousand entries).
      let large = false;
      try {
        large = Deno.statSync(path).size > PARALLEL_FROM_BYTES;
      } catch { /* verifyLedger reports the missing file */ }
      const report = large
        ? await (await import("../ledger/mod.ts")).verifyLedgerParallel(path, vopts)
        : verifyLedger(path, vopts);
      // The stored conversations (resume) against the digests the ledger chains; only when the
      // ledger itself is valid, since the digests come from it.
      const conversations = report.ok ? await checkConversations(path) : [];
      const badConversations = conversations.filter((c) => c.status !== "ok");
      if (o.json) console.log(JSON.stringify({ ...report, conversations }, null, 2));
      else {
        const lines: string[] = [];
        if (report.ok) {
          lines.push(
            `ledger OK: ${report.entries} entries, ${report.sessions} sessions, head #${report.headSeq} ${
              report.headHash.slice(0, 12)
            }`,
          );
        } else {
          const f = report.firstBad!;
          lines.push(`ledger INVALID at seq ${f.seq}: ${f.detail} [${f.code}]`);
          for (const p of report.problems.slice(1, 20)) {
            lines.push(`  also seq ${p.seq}: ${p.detail} [${p.code}]`);
          }
          if (report.problems.length > 20) {
            lines.push(`  … and ${report.problems.length - 20} more (--json lists all)`);
          }
        }
        for (const a of report.openActions) {
          lines.push(`started, not confirmed: ${a.actionId} (seq ${a.seq}, ${a.session})`);
        }
        if (report.userKeys.length) {
          lines.push(
            `user key${report.userKeys.length > 1 ? "s" : ""}: ${report.userKeys.join(", ")}`,
          );
        }
        for (const c of badConversations) {
          lines.push(
            `stored conversation of ${c.session} ${
              c.status === "missing" ? "is missing" : "differs from its digest in the ledger"
            } (it cannot be resumed)`,
          );
        }
        lines.push(`head: ${report.head}`);
        console.log(lines.join("\n"));
      }
      if (!report.ok || badConversations.some((c) => c.status === "differs")) Deno.exitCode = 1;
    });
};

async function checkConversations(path: string) {
  const { openLedger } = await import("../ledger/mod.ts");
  const { checkStoredConversations } = await import("../agent/conversation_store.ts");
  const ledger = openLedger(path);
  try {
    return checkStoredConversations(path, ledger);
  } finally {
    ledger.close();
  }
}
