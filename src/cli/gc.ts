/**
 * `retie gc`: prunes undo data by age and size (`src/plane/retention.ts`), recording each pruned
 * action in the ledger so that its undo says "undo data pruned on DATE".
 *
 * @module
 */
import type { Register } from "./commands.ts";

interface GcOptions {
  ledger?: string;
  olderThan?: string;
  maxSize?: string;
  dryRun?: boolean;
  json?: boolean;
}

/**
 * Registers `retie gc`.
 *
 * @example
 * ```ts
 * import { Command } from "commander";
 * import { register } from "./gc.ts";
 * register(new Command("retie"));
 * ```
 */
export const register: Register = (program) => {
  program
    .command("gc")
    .description(
      "prune undo data of old sessions (--older-than DAYS) and above a size cap (--max-size MIB); " +
        "defaults from retention.json in the config directory",
    )
    .option("--older-than <days>", "prune undo data of sessions older than this many days")
    .option("--max-size <mib>", "keep at most this many MiB of undo data (oldest pruned first)")
    .option("--dry-run", "say what would be pruned, prune nothing")
    .option("--json", "print the report as JSON")
    .action(async (_opts, cmd) => {
      await runGc(cmd.optsWithGlobals() as GcOptions);
    });
};

async function runGc(o: GcOptions): Promise<void> {
  const { existsSync } = await import("node:fs");
  const { dirname } = await import("node:path");
  const { RetieError } = await import("../core/errors.ts");
  const { configDir, defaultLedgerPath, storePaths } = await import("../core/dirs.ts");
  const { BlobStore } = await import("../core/blob_store.ts");
  const { OverlayStaging } = await import("../snapshot/mod.ts");
  const { openLedger, openLedgerReadOnly, loadOrCreateUserKey } = await import("../ledger/mod.ts");
  const { loadRetention, pruneUndoData } = await import("../plane/retention.ts");
  const { startUndoSession } = await import("../plane/undo.ts");
  const { defaultPolicy } = await import("../plane/policy.ts");
  const { VERSION } = await import("../version.ts");
  const num = (v: string | undefined, name: string): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) {
      throw new RetieError(`${name} ${v}: not a number of at least 0`, { exitCode: 2 });
    }
    return n;
  };
  const policy = { ...loadRetention(configDir()) };
  policy.undoRetentionDays = num(o.olderThan, "--older-than") ?? policy.undoRetentionDays;
  policy.undoMaxMiB = num(o.maxSize, "--max-size") ?? policy.undoMaxMiB;
  const path = o.ledger ?? defaultLedgerPath();
  if (!existsSync(path)) {
    throw new RetieError(`no ledger at ${path}`, {
      hint: "pass --ledger PATH or set RETIE_LEDGER",
      exitCode: 2,
    });
  }
  openLedgerReadOnly(path).close();
  const ledger = openLedger(path);
  const blobs = new BlobStore(storePaths(path).blobs);
  try {
    const dry = o.dryRun === true;
    const sink = dry ? null : startUndoSession({
      ledger,
      userKey: loadOrCreateUserKey(),
      workspace: dirname(path),
      target: "gc: undo data retention",
      policy: defaultPolicy().identity,
      version: VERSION,
    });
    try {
      const staging = new OverlayStaging(
        storePaths(path).staging,
        () => Promise.resolve({ ok: false }),
      );
      const r = pruneUndoData({ ledger, blobs, sink, staging }, policy, { dryRun: dry });
      if (o.json) console.log(JSON.stringify({ dryRun: dry, policy, ...r }, null, 2));
      else {
        const verb = dry ? "would prune" : "pruned";
        console.log(
          `gc: ${verb} the undo data of ${r.actions.length} action(s), ${r.blobs} blob(s), ` +
            `${(r.bytes / 2 ** 20).toFixed(2)} MiB; ${
              (r.keptBytes / 2 ** 20).toFixed(2)
            } MiB kept ` +
            `(older than ${policy.undoRetentionDays} days, cap ${policy.undoMaxMiB} MiB)`,
        );
        for (const a of r.actions.slice(0, 20)) console.log(`  ${a}`);
      }
    } finally {
      sink?.close();
    }
  } finally {
    blobs.close();
    ledger.close();
  }
}
