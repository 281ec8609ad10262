/**
 * Collecting a session's changes from its ledger entries and a real blob store: a write's prior
 * bytes, a staged command's record (a modified file in chunks, a removed directory's subtree, a
 * new directory's files found on disk), the first prior state winning over later ones, and a note
 * for a command without undo data.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { BlobStore } from "../../src/core/blob_store.ts";
import type { LedgerEntry } from "../../src/ledger/mod.ts";
import { collectChanges } from "../../src/cli/session_diff.ts";
import { sessionDiff } from "../../src/ui/session_diff.ts";

let seq = 0;
const entry = (
  kind: string,
  actionId: string,
  payload: Record<string, unknown>,
): LedgerEntry => ({
  seq: ++seq,
  time: "2026-01-01T00:00:00.000Z",
  session: "ses_1",
  kind: kind as LedgerEntry["kind"],
  actionId,
  payloadJson: JSON.stringify(payload),
  payload,
  prev: "",
  hash: "",
  signer: "",
  signature: "",
});

Deno.test("session changes: files plans, staged records, first prior state wins, notes", () => {
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "retie-changes-" }));
  const ws = join(dir, "ws");
  Deno.mkdirSync(join(ws, "made", "deep"), { recursive: true });
  const blobs = new BlobStore(join(dir, "blobs.db"));
  try {
    const enc = (s: string) => new TextEncoder().encode(s);
    // Now on disk: a.txt edited twice (write, then a command), new files under made/.
    Deno.writeTextFileSync(join(ws, "a.txt"), "three\n");
    Deno.writeTextFileSync(join(ws, "made", "deep", "n.txt"), "new\n");
    const tree = blobs.put(enc(JSON.stringify([
      ["", { type: "dir", mode: 0o755 }],
      ["x.txt", { type: "file", mode: 0o644, size: 4, chunks: { "0": blobs.put(enc("old\n")) } }],
    ])));
    const entries = [
      entry("intent", "act_1", {
        tool: "write",
        class: "reversible",
        undo: {
          kind: "files",
          files: [{ path: join(ws, "a.txt"), blob: blobs.put(enc("one\n")), mode: 0o644 }],
        },
      }),
      entry("outcome", "act_1", { status: "ok" }),
      entry("intent", "act_2", {
        tool: "bash",
        class: "reversible",
        undo: { kind: "staged", root: ws, readOnly: [] },
      }),
      entry("event", "act_2", {
        type: "staged-changes",
        record: {
          root: ws,
          paths: [
            {
              path: "a.txt",
              before: {
                type: "file",
                mode: 0o644,
                size: 4,
                chunks: { "0": blobs.put(enc("two\n")) },
              },
              after: "",
            },
            { path: "old", before: { type: "dir", mode: 0o755 }, tree, after: "" },
            { path: "made", before: { type: "absent" }, after: "" },
          ],
          conflicts: [],
          refused: [],
          priorBytes: 8,
        },
      }),
      entry("outcome", "act_2", { status: "ok" }),
      entry("intent", "act_3", {
        tool: "bash",
        class: "irreversible",
        undo: { kind: "none" },
        effect: { writes: [] },
      }),
      entry("outcome", "act_3", { status: "error" }),
      entry("intent", "act_4", { tool: "read", class: "none", undo: { kind: "none" } }),
      entry("outcome", "act_4", { status: "ok" }),
    ];
    const { changes, notes } = collectChanges({ entries, blobs });
    const byPath = new Map(changes.map((c) => [c.path.slice(ws.length + 1), c]));
    // The write's prior bytes, not the command's later ones.
    const a = byPath.get("a.txt")!;
    assert.equal(a.before.type === "file" && new TextDecoder().decode(a.before.bytes!), "one\n");
    assert.equal(byPath.get("old/x.txt")?.after.type, "absent");
    assert.equal(byPath.get("made/deep/n.txt")?.before.type, "absent");
    assert.deepEqual(notes, [
      "1 action without a record of what it changed (no undo data): its changes are not shown",
    ]);
    const out = sessionDiff(changes, ws, notes);
    assert.match(out, /^3 files changed/);
    assert.match(out, /-one\n\s+\+three/);
    assert.match(out, /deleted\s+old\/x\.txt[\s\S]*-old/);
    assert.match(out, /created\s+made\/deep\/n\.txt[\s\S]*\+new/);
  } finally {
    blobs.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
