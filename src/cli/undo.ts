/**
 * `retie undo ACTION_ID` and `retie undo --all [SESSION]` (with `--force`): reverses recorded
 * actions from a later process. The undos are recorded in a small "undo" session of the same ledger
 * (its own agent key, delegated by the user key). Exit 1 when something was refused, 2 for bad input.
 *
 * @module
 */
import type { Register } from "./commands.ts";

interface UndoOptions {
  ledger?: string;
  all?: boolean | string;
  force?: boolean;
  json?: boolean;
}

/**
 * Registers `retie undo`.
 *
 * @example
 * ```ts
 * import { Command } from "commander";
 * import { register } from "./undo.ts";
 * const program = new Command("retie");
 * register(program);
 * ```
 */
export const register: Register = (program) => {
  program
    .command("undo")
    .description(
      "reverse an action (ACTION_ID) or a whole session and its delegation subtree (--all); " +
        "irreversible actions are reported as skipped (exit 1 when something was refused)",
    )
    .argument("[action]", "action id (act_…)")
    .option(
      "--all [session]",
      "undo every action of SESSION (default: the latest session), newest first",
    )
    .option("--force", "restore even when the files changed since the action")
    .option("--json", "print the reports as JSON")
    .action(async (action: string | undefined, _opts, cmd) => {
      const o = cmd.optsWithGlobals() as UndoOptions;
      await runUndo(action, o);
    });
};

async function runUndo(action: string | undefined, o: UndoOptions): Promise<void> {
  const { existsSync } = await import("node:fs");
  const { RetieError } = await import("../core/errors.ts");
  const { defaultLedgerPath, storePaths } = await import("../core/dirs.ts");
  const { isActionId, isSessionId } = await import("../plane/ids.ts");
  if (action !== undefined && o.all !== undefined) {
    throw new RetieError("give either ACTION_ID or --all, not both", { exitCode: 2 });
  }
  if (action === undefined && o.all === undefined) {
    throw new RetieError("nothing to undo: give ACTION_ID or --all [SESSION]", {
      hint: "retie undo act_0123456789ab, or retie undo --all",
      exitCode: 2,
    });
  }
  if (action !== undefined && !isActionId(action)) {
    throw new RetieError(`not an action id: ${action}`, {
      hint: "action ids look like act_0123456789ab",
      exitCode: 2,
    });
  }
  if (typeof o.all === "string" && !isSessionId(o.all)) {
    throw new RetieError(`not a session id: ${o.all}`, {
      hint: "session ids look like ses_0123456789ab",
      exitCode: 2,
    });
  }
  const path = o.ledger ?? defaultLedgerPath();
  if (!existsSync(path)) {
    throw new RetieError(`no ledger at ${path}`, {
      hint: "pass --ledger PATH or set RETIE_LEDGER",
      exitCode: 2,
    });
  }
  // Check it is a retie ledger before opening it for writing (which would turn an empty or
  // mistaken file into one).
  const { openLedgerReadOnly, verifyLedger } = await import("../ledger/mod.ts");
  openLedgerReadOnly(path).close();
  // Paths, hashes and snapshots come from the ledger: from a chain that does not verify they could
  // be anyone's, so nothing is restored on their word.
  const report = verifyLedger(path);
  if (!report.ok) {
    throw new RetieError(
      `the ledger ${path} fails verification (seq ${report.firstBad!.seq}: ${
        report.firstBad!.code
      } ${report.firstBad!.detail}); nothing was undone`,
      { hint: "run `retie verify` to see why; undo acts only on a ledger that verifies" },
    );
  }
  const { openLedger, readGenesis } = await import("../ledger/mod.ts");
  const { BlobStore } = await import("../core/blob_store.ts");
  const { DirSnapshotStore, OverlayStaging } = await import("../snapshot/mod.ts");
  const { recoverStages } = await import("../plane/staged.ts");
  const { loadOrCreateUserKey } = await import("../ledger/mod.ts");
  const { undoAction, undoAll, startUndoSession } = await import("../plane/undo.ts");
  const { defaultPolicy } = await import("../plane/policy.ts");
  const { VERSION } = await import("../version.ts");

  const ledger = openLedger(path);
  try {
    // Which session holds the target, and its workspace.
    let session: string;
    if (action !== undefined) {
      const intent = ledger.entries({ actionId: action, kinds: ["intent"] })[0];
      if (!intent) {
        throw new RetieError(`no action ${action} in ${path}`, {
          hint: "list actions with `retie replay`",
          exitCode: 2,
        });
      }
      session = intent.session;
    } else if (typeof o.all === "string") {
      session = o.all;
    } else {
      const acting = ledger.sessions().filter((s) =>
        !s.objective.startsWith("undo ") || s.provider !== "none"
      );
      const last = acting.at(-1);
      if (!last) throw new RetieError(`no sessions in ${path}`, { exitCode: 2 });
      session = last.id;
    }
    const genesis = ledger.entries({ session, kinds: ["genesis"] })[0];
    if (!genesis) throw new RetieError(`no session ${session} in ${path}`, { exitCode: 2 });
    const g = readGenesis(genesis.payload);
    const workspace = g.ok && typeof g.value.workspace === "string" ? g.value.workspace : "";

    const stores = storePaths(path);
    const blobs = new BlobStore(stores.blobs);
    const snapshots = existsSync(stores.snapshots) ? new DirSnapshotStore(stores.snapshots) : null;
    const sink = startUndoSession({
      ledger,
      userKey: loadOrCreateUserKey(),
      workspace,
      target: action ?? `all of ${session}`,
      policy: defaultPolicy().identity,
      version: VERSION,
    });
    // Undo runs no commands; it restores staged commands' recorded paths, after finishing any
    // apply a crash cut short.
    const staging = new OverlayStaging(stores.staging, () => Promise.resolve({ ok: false }));
    try {
      for (const r of recoverStages({ staging, blobs, sink, ledger })) {
        if (!o.json) console.log(`recovered ${r.action}: ${r.outcome}`);
      }
      const deps = { ledger, sink, blobs, snapshots, staging, force: o.force === true };
      const reports: Awaited<ReturnType<typeof undoAction>>[] = [];
      if (action !== undefined) reports.push(await undoAction(action, deps));
      else {
        // A resumed session continues earlier ones: undo them too, newest part first.
        const { sessionParts } = await import("../agent/session_record.ts");
        for (const part of sessionParts(ledger, session).reverse()) {
          reports.push(...await undoAll(part, deps));
        }
      }
      if (o.json) console.log(JSON.stringify({ session: sink.sessionId, reports }, null, 2));
      else {
        if (reports.length === 0) console.log(`nothing to undo in ${session}`);
        for (const r of reports) {
          const what = r.summary ? ` ${r.summary}` : "";
          console.log(`${r.status.padEnd(7)} ${r.target}${what}`);
          console.log(`        ${r.reason}`);
          for (const p of r.restored.slice(0, 20)) console.log(`        restored ${p}`);
          if (r.restored.length > 20) console.log(`        … ${r.restored.length - 20} more`);
        }
        const n = (s: string) => reports.filter((r) => r.status === s).length;
        console.log(
          `undo: ${n("undone")} undone, ${n("skipped")} skipped, ${
            n("refused")
          } refused (recorded in ${sink.sessionId})`,
        );
      }
      if (reports.some((r) => r.status === "refused")) Deno.exitCode = 1;
    } finally {
      sink.close();
      blobs.close();
      snapshots?.close();
    }
  } finally {
    ledger.close();
  }
}
