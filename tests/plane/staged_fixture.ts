/**
 * Set-up for staged-command tests: the plane fixture's real ledger, keys and blob store, the real
 * `bash` tool in real bubblewrap over a real overlay, the real staging service and undo.
 */
import { join } from "node:path";
import { storePaths } from "../../src/core/dirs.ts";
import type { GuardOutcome } from "../../src/plane/guard.ts";
import { undoAction, undoAll, type UndoReport } from "../../src/plane/undo.ts";
import { probeOverlay } from "../../src/sandbox/overlay_run.ts";
import { OverlayStaging } from "../../src/snapshot/mod.ts";
import { bashTool } from "../../src/tools/bash.ts";
import { type Fixture, fixture, guardFor } from "./plane_fixture.ts";

export interface StagedFixture {
  f: Fixture;
  ws: string;
  staging: OverlayStaging;
  bash(command: string): Promise<GuardOutcome>;
  undo(actionId: string, force?: boolean): Promise<UndoReport>;
  undoAll(force?: boolean): Promise<UndoReport[]>;
  close(): void;
}

export function stagedFixture(opts: { stagingRoot?: string } = {}): StagedFixture {
  const f = fixture();
  const root = opts.stagingRoot ?? storePaths(f.ledgerPath).staging;
  const staging = new OverlayStaging(root, () => probeOverlay(root, f.workspace));
  const guard = guardFor(f, { staging, headless: true, yes: true });
  const ctx = { ...f.ctx, sandbox: { available: true, network: false } };
  const deps = (force: boolean) => ({
    ledger: f.ledger,
    sink: f.sink,
    blobs: f.blobs,
    snapshots: null,
    staging,
    force,
  });
  return {
    f,
    ws: f.workspace,
    staging,
    bash: (command) => guard.run({ name: "bash", tool: bashTool, args: { command }, ctx }),
    undo: (id, force = false) => undoAction(id, deps(force)),
    undoAll: (force = false) => undoAll(f.sink.sessionId, deps(force)),
    close: () => f.close(),
  };
}

/** Every entry below `dir` with its type, mode, link target and bytes: what "byte for byte" means. */
export function treeOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (p: string, rel: string) => {
    for (const e of [...Deno.readDirSync(p)].sort((a, b) => a.name < b.name ? -1 : 1)) {
      const full = join(p, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      const st = Deno.lstatSync(full);
      const mode = ((st.mode ?? 0) & 0o7777).toString(8);
      if (st.isSymlink) out[r] = `link ${Deno.readLinkSync(full)}`;
      else if (st.isDirectory) {
        out[r] = `dir ${mode}`;
        visit(full, r);
      } else if (st.isFifo) out[r] = `fifo ${mode}`;
      else {
        const bytes = Deno.readFileSync(full);
        const sum = bytes.reduce((a, b) => (a * 31 + b) >>> 0, 7);
        out[r] = `file ${mode} ${st.size} ${sum}`;
      }
    }
  };
  visit(dir, "");
  return out;
}
