import assert from "node:assert/strict";
import { isReadOnlyCommand } from "../../src/tools/read_only_command.ts";

Deno.test("read-only commands: readers, pipelines, lists, quotes and harmless redirections", () => {
  for (
    const c of [
      "true",
      "ls -la",
      "ls -la src/ && wc -l src/*.ts",
      "grep -rn 'a|b; c > d' src | head -20",
      'grep -n "TODO: fix \\"this\\"" main.py',
      "cat README.md 2>/dev/null || echo none",
      "git status --short",
      "git --no-pager log --oneline -20",
      "git -C sub diff HEAD~1 -- src/a.ts",
      "git branch -a",
      "git config --get remote.origin.url",
      "find . -name '*.py' -type f | sort | uniq -c",
      "sed -n 10,20p src/app.py",
      "sed -n '$p' log.txt",
      "head -n 5 < data.csv",
      "cd src; ls",
      "LC_ALL=C sort names.txt",
      "echo hi >&2",
      "pwd\n\nls  # and a comment > not a redirect",
      "rg --files -g '*.ts' 2>&1 | head",
    ]
  ) assert.equal(isReadOnlyCommand(c), true, c);
});

Deno.test("read-only commands: anything that writes, runs other programs or expands is not one", () => {
  for (
    const c of [
      "",
      "ls > files.txt",
      "echo x >> notes.md",
      "cat a &> out",
      "ls; rm -rf build",
      "ls && touch y",
      "ls | tee out.txt",
      "cat $(ls)",
      "cat `ls`",
      "echo $HOME",
      'echo "$(id)"',
      "(ls)",
      "{ ls; }",
      "ls &",
      "cat <<EOF\nx\nEOF",
      "cat <<< word",
      "exec 3<> f",
      "find . -name '*.pyc' -delete",
      "find . -exec rm {} +",
      "sort -o sorted.txt names.txt",
      "sort --output=s.txt n.txt",
      "uniq in.txt out.txt",
      "tree -o tree.txt",
      "sed -i s/a/b/ f.py",
      "sed -n 'w out' f",
      "git commit -m x",
      "git branch new-feature",
      "git branch -D old",
      "git tag v1",
      "git -c core.pager=evil log",
      "git diff --output=patch.diff",
      "git config user.name x",
      "git remote add o url",
      "env rm -rf x",
      "xargs rm",
      "awk '{print > \"f\"}' x",
      "python -c 'print(1)'",
      "npm test",
      "make",
      "bash -c ls",
      "sh script.sh",
      "./run.sh",
      "'unterminated",
      "ls | ",
      "&& ls",
      "x".repeat(5000),
    ]
  ) assert.equal(isReadOnlyCommand(c), false, c);
});
