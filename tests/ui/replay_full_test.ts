/**
 * A reviewer can read a whole session in every format: both prompts, the model's answers, every
 * action with its id, who decided, the failed edit drawn as failed (no diff), the good edit with
 * a numbered diff and marked undone by a later `retie undo`, the refusal with its finding — and
 * nothing a model wrote breaks the markdown or the page. The page is checked in headless Chromium
 * at 1280 and 480 px (no horizontal overflow; screenshots kept for a person to look at).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runRetie } from "../helpers/retie_process.ts";
import {
  FIRST_PROMPT,
  type FullSession,
  HOSTILE,
  recordFullSession,
  SECOND_PROMPT,
} from "../helpers/full_session.ts";

const s: FullSession = await recordFullSession();
const replay = (...args: string[]) =>
  runRetie(["--ledger", s.ledgerPath, "replay", ...args], { env: s.env });

Deno.test("--last is the agent session, not the undo session recorded after it", async () => {
  const r = await replay("--json", "--last");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).session, s.sessionId);
  const list = await replay("--list");
  assert.deepEqual(list.stdout.trim().split("\n").map((l) => l.split("\t")[0]), [s.sessionId]);
});

Deno.test("json: the whole timeline in order, with decisions, excerpts, diffs and the undo mark", async () => {
  const r = await replay("--json");
  const m = JSON.parse(r.stdout);
  assert.deepEqual(
    m.timeline.map((a: { kind: string; status: string }) => `${a.kind}:${a.status}`),
    [
      "prompt:prompt",
      "answer:answer",
      "action:ok",
      "action:error",
      "action:ok",
      "refusal:refused",
      "answer:answer",
      "prompt:prompt",
      "action:ok",
      "answer:answer",
    ],
  );
  const byId = (id: string) => m.timeline.find((a: { actionId: string }) => a.actionId === id);
  const failed = byId(s.failedEdit);
  assert.deepEqual(failed.diffs, [], "a failed edit is not drawn as a change");
  assert.match(failed.reason, /old_text is not in the file/);
  assert.equal(failed.undo, undefined);
  const good = byId(s.goodEdit);
  assert.equal(good.undo.status, "undone");
  assert.notEqual(good.undo.session, s.sessionId, "the undo is recorded in its own session");
  assert.equal(good.decidedBy, "policy rule reversible");
  assert.deepEqual(good.diffs[0].hunks[0].lines, [
    " ",
    " ",
    " def add(a, b):",
    "-    return a - b",
    "+    return a + b",
    " ",
    " ",
    " def one():",
  ]);
  assert.equal(good.diffs[0].hunks[0].oldStart, 2);
  assert.match(good.output.head[0], /edited calc\.py/);
  assert.equal(m.totals.failed, 1);
  assert.equal(m.totals.undone, 1);
  assert.equal(m.totals.turns, 2);
  assert.ok(m.timeline.some((a: { text?: string }) => a.text === SECOND_PROMPT));
});

Deno.test("text: prompts, answers (cut with a 'more'), ids, failed, numbered diff, undone", async () => {
  const r = await replay();
  assert.equal(r.code, 0, r.stderr);
  const out = r.stdout;
  for (const want of [FIRST_PROMPT, SECOND_PROMPT, s.failedEdit, s.goodEdit, s.write]) {
    assert.ok(out.includes(want), `${want} missing:\n${out}`);
  }
  assert.match(out, /failed\s+edit\s+edit calc\.py/);
  assert.match(out, /^\s+5\s+-\s+return a - b$/m, "removed line with its old number");
  assert.match(out, /^\s+5 \+\s+return a \+ b$/m, "added line with its new number");
  assert.match(out, /edit calc\.py \(undone\)/);
  assert.match(out, /undone by #\d+ \(ses_[0-9a-f]{12}\)/);
  assert.match(out, /… 19 more lines/);
  assert.ok(!out.includes("\x1b"), "no escape sequence from the model reaches the terminal");
  assert.ok(out.includes("␛]52;"), "the escape is shown, not dropped");
});

/** Splits markdown into the parts outside fenced code blocks (fences of any length). */
function outsideFences(md: string): string {
  const kept: string[] = [];
  let fence: string | null = null;
  for (const line of md.split("\n")) {
    const m = line.match(/^(`{3,})/);
    if (fence === null && m) fence = m[1];
    else if (fence !== null && line.trim() === fence) fence = null;
    else if (fence === null) kept.push(line);
  }
  assert.equal(fence, null, "every fence is closed");
  return kept.join("\n");
}

Deno.test("markdown: summary table, then details; what the model wrote cannot break it", async () => {
  const r = await replay("--markdown");
  assert.equal(r.code, 0, r.stderr);
  const md = r.stdout;
  const outside = outsideFences(md);
  // Only our own tags are raw HTML; no comment, script, link or image survives outside code.
  const tags = outside.match(/<\/?[a-z!][^>]*>/gi) ?? [];
  assert.deepEqual([...new Set(tags)].sort(), [
    "</details>",
    "</summary>",
    "<details>",
    "<summary>",
  ]);
  assert.equal(
    (outside.match(/<details>/g) ?? []).length,
    (outside.match(/<\/details>/g) ?? []).length,
  );
  assert.ok(!/(^|[^\\])\]\(/.test(outside), "no link or image syntax");
  assert.ok(!/https?:\/\//.test(outside), "no bare URL to autolink");
  // The table: a header, a rule and one row per item, each with exactly 10 unescaped pipes.
  const rows = md.split("\n").filter((l) => l.startsWith("| "));
  assert.equal(rows.length, 12);
  for (const row of rows) {
    assert.equal(row.replace(/\\\|/g, "").split("|").length - 1, 10, row);
  }
  assert.match(md, /\| \*\*failed\*\* \| edit \|/);
  assert.match(md, /~~edit calc\\\.py~~ \(undone, #\d+\)/);
  // The hostile text is there in full inside a fence, where it is only text.
  assert.ok(md.includes(HOSTILE.replace("\x1b", "<U+1B>").replace("\x07", "<U+7>")));
  assert.match(md, /```diff\n--- calc\.py \(modify\)\n@@ -2,7 \+2,7 @@/);
});

Deno.test("markdown --max-chars leaves out whole blocks, stays within the limit and says so", async () => {
  const full = (await replay("--markdown")).stdout;
  for (const max of [full.length - 500, 2500, 1000]) {
    const r = await replay("--markdown", "--max-chars", String(max));
    assert.equal(r.code, 0, r.stderr);
    const md = r.stdout.replace(/\n$/, "");
    assert.ok(md.length <= max, `${md.length} > ${max}`);
    const outside = outsideFences(md);
    assert.equal(
      (outside.match(/<details>/g) ?? []).length,
      (outside.match(/<\/details>/g) ?? []).length,
    );
    assert.match(md, /left out to stay within \d+ characters/);
    assert.match(md, /^### retie session: /);
  }
  const bad = await replay("--markdown", "--max-chars", "10");
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /at least 1000/);
});

const chromium = (() => {
  try {
    return Deno.statSync("/usr/bin/chromium").isFile ? "/usr/bin/chromium" : null;
  } catch {
    return null;
  }
})();

async function chrome(args: string[]): Promise<string> {
  const profile = Deno.makeTempDirSync({ prefix: "retie-chromium-" });
  const out = await new Deno.Command(chromium!, {
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--hide-scrollbars",
      `--user-data-dir=${profile}`,
      ...args,
    ],
    stdout: "piped",
    stderr: "null",
  }).output();
  Deno.removeSync(profile, { recursive: true });
  return new TextDecoder().decode(out.stdout);
}

Deno.test({
  name:
    "html in headless Chromium: whole session, nothing executes, no overflow at 1280 and 480 px",
  ignore: chromium === null,
  fn: async () => {
    const dir = Deno.makeTempDirSync({ prefix: "retie-html-" });
    const page = join(dir, "session.html");
    const r = await replay("--html", "-o", page);
    assert.equal(r.code, 0, r.stderr);
    const html = Deno.readTextFileSync(page);
    assert.ok(!html.includes("<script>alert"), "the model's script is escaped");
    // The page as shipped: its DOM has every item, and the model's markup stayed text.
    const dom = await chrome(["--dump-dom", `file://${page}`]);
    assert.equal((dom.match(/<li class="/g) ?? []).length, 10);
    assert.ok(!/<script/i.test(dom));
    assert.match(dom, /class="error action"/);
    assert.match(dom, /undone by #\d+/);
    // Chromium's window is at least 500 px wide, so each width is a frame of exactly that width
    // holding the page (srcdoc: same origin), and a script in a probe copy of the page (the page
    // itself allows no script) reports the layout widths to the frame's parent.
    const probeScript = `<script>parent.document.body.setAttribute("data-widths", JSON.stringify({
      scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
      widest: Math.max(...[...document.querySelectorAll("li, pre, h1, .meta")].map((e) => e.getBoundingClientRect().right))
    }));</script>`;
    const attr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
    const frame = (width: number, inner: string) =>
      `<!doctype html><html><body style="margin:0"><iframe style="width:${width}px;height:1800px;border:0" srcdoc="${
        attr(inner)
      }"></iframe></body></html>`;
    const probeHtml = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, "")
      .replace("</body>", `${probeScript}</body>`);
    for (const width of [1280, 480]) {
      const window = `--window-size=${Math.max(width, 500) + 20},1800`;
      const probe = join(dir, `probe-${width}.html`);
      Deno.writeTextFileSync(probe, frame(width, probeHtml));
      const out = await chrome([window, "--dump-dom", `file://${probe}`]);
      const m = out.match(/data-widths="([^"]+)"/);
      assert.ok(m, "the probe ran");
      const w = JSON.parse(m[1].replace(/&quot;/g, '"'));
      assert.equal(w.inner, width, `the page is ${width} px wide`);
      assert.ok(w.scroll <= w.inner, `no horizontal overflow at ${width}: ${JSON.stringify(w)}`);
      assert.ok(w.widest <= w.inner, `every block fits at ${width}: ${JSON.stringify(w)}`);
      // A screenshot of the page as shipped (CSP and all), for a person to look at.
      const framed = join(dir, `framed-${width}.html`);
      Deno.writeTextFileSync(framed, frame(width, html));
      const shot = join(dir, `replay-${width}.png`);
      await chrome([window, `--screenshot=${shot}`, `file://${framed}`]);
      const png = Deno.readFileSync(shot);
      assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], "a PNG screenshot");
      console.log(`screenshot: ${shot}`);
    }
  },
});
