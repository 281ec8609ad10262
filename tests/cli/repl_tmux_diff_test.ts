/**
 * `/diff` in a real terminal (tmux) against a scripted model: a sandboxed command the model ran
 * (edit, create, delete) and the person's own `!cmd` both show, one diff per file from before,
 * paths relative to the workspace; at 60 columns too.
 */
import assert from "node:assert/strict";
import { tmuxPath, TmuxRetie } from "../helpers/tmux.ts";

Deno.test({
  name: "REPL in a terminal: /diff shows what commands changed, the person's own too",
  ignore: tmuxPath === null,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const t = await TmuxRetie.start({
      files: {
        "calc.py": "def add(a, b):\n    return a - b\n",
        "notes.txt": "remember the milk\n",
      },
      script: [
        {
          toolCalls: [{
            name: "bash",
            arguments: JSON.stringify({
              command: "sed -i 's/a - b/a + b/' calc.py && rm notes.txt && " +
                "mkdir -p pkg && printf 'VERSION = 2\\n' > pkg/version.py",
            }),
          }],
        },
        { text: "Fixed and tidied." },
      ],
    });
    try {
      await t.waitFor(/^› $/m, 90_000);
      await t.type("fix add and tidy");
      await t.keys("Enter");
      await t.waitFor(/Fixed and tidied\.\n› $/m);
      await t.type("!printf 'mine\\n' > own.txt");
      await t.keys("Enter");
      await t.waitFor(/ok\s+bash\s+run shell command: printf[\s\S]*^› $/m);
      await t.resize(60);
      await t.type("/diff");
      await t.keys("Enter");
      const screen = await t.waitFor(
        /4 files changed in this session[\s\S]*version\.py[\s\S]*^› $/m,
      );
      const diff = screen.slice(screen.lastIndexOf("4 files changed"));
      assert.match(diff, /modified\s+calc\.py\n\s+--- a\/calc\.py\n\s+\+\+\+ b\/calc\.py/);
      assert.match(diff, /^\s+-\s{4}return a - b$/m);
      assert.match(diff, /^\s+\+\s{4}return a \+ b$/m);
      assert.match(diff, /deleted\s+notes\.txt\n\s+--- a\/notes\.txt\n\s+\+\+\+ \/dev\/null/);
      assert.match(diff, /created\s+own\.txt[\s\S]*\+mine/);
      assert.match(diff, /created\s+pkg\/version\.py[\s\S]*\+VERSION = 2/);
      assert.ok(!diff.includes(t.ws), diff);
    } finally {
      await t.close();
    }
  },
});
