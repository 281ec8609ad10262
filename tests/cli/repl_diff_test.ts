/**
 * `/diff` over a whole session on piped input, with a scripted model: a write, an edit and a
 * sandboxed command that edits, creates (in a new directory), deletes files and writes a binary
 * one. Run once with the copy-on-write view (staged) and once with whole-workspace snapshots:
 * both show every file, from before its first change to now, relative to the workspace; once the
 * command is undone its files drop out; the closing line counts the files left changed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { denoDir, emulatorFlags, isolatedEnv, runRetie } from "../helpers/retie_process.ts";
import { startOllamaEmulator } from "../emulators/ollama_emulator.ts";
import { openLedger } from "../../src/ledger/ledger.ts";

const ESC = "\u001b";

const call = (name: string, args: Record<string, unknown>) => ({
  toolCalls: [{ name, arguments: JSON.stringify(args) }],
});

async function session(mode: "staged" | "snapshots") {
  const iso = isolatedEnv();
  const ws = Deno.realPathSync(Deno.makeTempDirSync({ prefix: `retie-diff-${mode}-` }));
  Deno.writeTextFileSync(join(ws, "a.txt"), "alpha\nbeta\ngamma\n");
  Deno.writeTextFileSync(join(ws, "gone.txt"), "to be deleted\n");
  Deno.writeTextFileSync(join(ws, "keep.txt"), "unchanged\n");
  Deno.writeTextFileSync(join(ws, "notes.md"), "# notes\nfirst\n");
  Deno.mkdirSync(join(ws, "olddir", "inner"), { recursive: true });
  Deno.writeTextFileSync(join(ws, "olddir", "inner", "x.txt"), "x in a removed directory\n");
  Deno.writeTextFileSync(join(ws, "run.sh"), "echo hi\n", { mode: 0o644 });
  Deno.chmodSync(join(ws, "run.sh"), 0o644);
  const emu = startOllamaEmulator({
    script: [
      call("edit", { path: "notes.md", old_text: "first", new_text: "first, edited" }),
      call("write", { path: "made.txt", content: "written by the tool\n" }),
      call("bash", {
        command: "sed -i 's/beta/BETA/' a.txt && rm gone.txt && mkdir -p sub/deep && " +
          "printf 'new\\n' > sub/deep/new.txt && printf '\\000\\001\\002' > blob.bin && " +
          "printf 'more\\n' >> notes.md && printf '\\033[31mred\\n' > esc.txt && " +
          "rm -r olddir && chmod 755 run.sh",
      }),
      { text: "all done" },
    ],
  });
  const ledgerPath = join(iso.dir, "ledger.db");
  try {
    const r = await runRetie([
      "--ledger",
      ledgerPath,
      "run",
      ws,
      ...emulatorFlags(emu.url),
      ...(mode === "snapshots" ? ["--snapshots"] : []),
    ], {
      env: { ...iso.env, DENO_DIR: denoDir(), OPENAI_API_KEY: "test-key" },
      stdin: "change things\n/diff\n/undo\n/diff\n",
    });
    const ledger = openLedger(ledgerPath);
    try {
      const intent = ledger.entries({ kinds: ["intent"] }).find((x) => x.payload.tool === "bash");
      return { r, ws, undo: (intent?.payload.undo as { kind: string } | undefined)?.kind };
    } finally {
      ledger.close();
    }
  } finally {
    await emu.close();
  }
}

for (const mode of ["staged", "snapshots"] as const) {
  Deno.test({
    name: `/diff (${mode}): write, edit and a sandboxed command's changes, per file, from before`,
    sanitizeResources: false,
    fn: async () => {
      const { r, ws, undo } = await session(mode);
      const all = r.stdout + r.stderr;
      assert.equal(r.code, 0, all);
      // The command ran the way this case is about: staged, or under snapshots.
      assert.equal(undo, mode === "staged" ? "staged" : "snapshot", all);
      const [, out, afterUndo] = r.stdout.replace(new RegExp(`${ESC}\\[[0-9;]*m`, "g"), "")
        .split(/^(?=\d+ files? changed in this session)/m);
      assert.ok(afterUndo !== undefined, all);
      assert.match(out, /9 files changed in this session/, out);
      // A removed directory: each file it held, from its recorded prior contents.
      assert.match(out, /deleted\s+olddir\/inner\/x\.txt[\s\S]*-x in a removed directory/);
      // Only the mode changed: said, without a diff.
      assert.match(out, /modified\s+run\.sh \(mode 644 → 755\)\n/);
      // Edited by the command: a unified diff, paths relative to the workspace.
      assert.match(out, /modified\s+a\.txt\n\s+--- a\/a\.txt\n\s+\+\+\+ b\/a\.txt/);
      assert.match(out, /-beta\n\s+\+BETA/);
      // Deleted and created by the command (in a new directory).
      assert.match(out, /deleted\s+gone\.txt\n\s+--- a\/gone\.txt\n\s+\+\+\+ \/dev\/null/);
      assert.match(out, /-to be deleted/);
      assert.match(out, /created\s+sub\/deep\/new\.txt\n\s+--- \/dev\/null/);
      assert.match(out, /\+new/);
      // Binary: listed with a note, no diff.
      assert.match(out, /created\s+blob\.bin\n\s+binary file; diff not shown: absent → 3 bytes/);
      // Edited by the edit tool and then by the command: one diff from before the first change.
      assert.match(out, /modified\s+notes\.md[\s\S]*-first\n\s+\+first, edited\n\s+\+more/);
      // Written by the write tool.
      assert.match(out, /created\s+made\.txt[\s\S]*\+written by the tool/);
      // Untouched files are not listed; no absolute path is shown.
      assert.doesNotMatch(out, /keep\.txt/);
      assert.doesNotMatch(out, new RegExp(`[-+]{3} [ab]?/?${ws}`));
      // The escape sequence a file held reached the screen made safe, never raw.
      assert.match(r.stdout, /created\s+esc\.txt/);
      assert.ok(!r.stdout.includes(`${ESC}[31mred`), r.stdout);
      // After the command is undone: only what the write and the edit changed.
      assert.match(afterUndo, /2 files changed in this session/, afterUndo);
      assert.match(afterUndo, /made\.txt/);
      assert.match(
        afterUndo,
        /modified\s+notes\.md[\s\S]*-first\n\s+\+first, edited\n(?!\s+\+more)/,
      );
      assert.doesNotMatch(afterUndo, /a\.txt|gone\.txt|blob\.bin|sub\/deep|olddir|run\.sh/);
      assert.equal(Deno.readTextFileSync(join(ws, "gone.txt")), "to be deleted\n");
      // The closing line counts every file the session left changed (here: after the undo).
      assert.match(r.stderr, / 2 files changed · /);
    },
  });
}
