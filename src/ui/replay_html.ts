/**
 * One self-contained HTML page for a verified replay: the whole session in order (prompts, model
 * answers, actions with ids, decisions, who decided, output excerpts, findings, numbered diffs,
 * undo marks, model switches and other events) and a "verified" badge with the head hash. No
 * network fetches, no scripts: inline CSS only (a Content-Security-Policy says so), and every
 * recorded string is escaped (a ledger may hold text a model or a web page wrote). The layout
 * reflows down to phone width; wide diffs and outputs scroll inside their own box.
 *
 * @module
 */
import {
  cutLines,
  decisionLine,
  findingLine,
  hunkHeader,
  numberHunk,
  outputLines,
  undoMark,
} from "./replay_diff.ts";
import { safeText } from "./safe_text.ts";
import {
  headerLine,
  type ReplayItem,
  type ReplayModel,
  statusLabel,
  totalsLine,
} from "./replay_model.ts";

const ESC: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escapes text for HTML element and attribute content.
 *
 * @example
 * ```ts
 * import { esc } from "./replay_html.ts";
 * esc("<b>"); // "&lt;b&gt;"
 * ```
 */
export function esc(s: string): string {
  // Control and bidi characters are shown (as in the terminal), then the markup is escaped.
  return safeText(s).replace(/[&<>"']/g, (ch) => ESC[ch]);
}

/** Lines of a prompt or answer shown before the rest folds into "more". */
export const HTML_TEXT_LINES = 12;

const CSS = `.subagent{margin:1.5em 0 0 .8em;padding-left:.8em;border-left:3px solid #8884}

*{box-sizing:border-box}
body{font:14px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;margin:2rem auto;max-width:72rem;color:#1d1f21;background:#fafafa;padding:0 1rem;overflow-wrap:anywhere}
h1{font-size:1.2rem;margin:0 0 .3rem;white-space:pre-wrap}.meta{color:#555;margin-bottom:.4rem}
.badge{display:inline-block;background:#1a7f37;color:#fff;border-radius:4px;padding:.1rem .5rem;font-weight:bold}
ol.timeline{list-style:none;padding:0;margin:1rem 0;border-left:3px solid #ccc}
ol.timeline>li{margin:0 0 .6rem;padding:.35rem .8rem;background:#fff;border-radius:0 4px 4px 0;min-width:0;border-left:4px solid #d0d7de}
.head{display:flex;flex-wrap:wrap;gap:.1rem .6rem;align-items:baseline}
li.refused{border-left-color:#cf222e;background:#fff0f0}li.ok{border-left-color:#1a7f37}
li.error{border-left-color:#bf8700;background:#fff8e6}li.started{border-left-color:#8250df}
li.prompt{border-left-color:#0969da;background:#f0f6ff}li.answer{border-left-color:#54aeff}
li.undone{border-left-color:#0550ae;background:#f3f8ff}li.undo-skipped,li.undo-refused{border-left-color:#bf8700}
li.event{border-left-color:#8c959f;color:#444}
.status{font-weight:bold;min-width:5.5rem}.refused .status{color:#cf222e}.error .status{color:#9a6700}
.undone .status{color:#0550ae}.prompt .status{color:#0969da}
.time{color:#777}.tool{color:#0550ae;min-width:4rem}.aid{color:#555;font-size:.9em}
.what{flex:1 1 16rem;min-width:0}.struck .what{text-decoration:line-through;color:#666}
.decision{color:#555;margin:.15rem 0 0 1rem;font-size:.92em}
.reason{color:#6e2020;margin:.2rem 0 0 1rem}.finding{color:#cf222e;margin:.2rem 0 0 1rem}
.mark{margin:.2rem 0 0 1rem;font-weight:bold;color:#0550ae}.mark.not{color:#9a6700}
.text{white-space:pre-wrap;margin:.3rem 0 0;padding:.3rem .5rem;background:#f6f8fa;border-radius:4px}
pre{background:#f6f8fa;padding:.4rem;overflow-x:auto;margin:.3rem 0 0;max-width:100%;overflow-wrap:normal}
.add{color:#116329;background:#dafbe1;display:inline-block;min-width:100%}
.del{color:#82071e;background:#ffebe9;display:inline-block;min-width:100%}
.ln{color:#8c959f;user-select:none}.hunk{color:#8250df}.file{font-weight:bold}
details summary{cursor:pointer;color:#0969da}
.totals{font-weight:bold;margin-top:1rem}
@media (max-width:640px){body{margin:1rem auto;padding:0 .5rem;font-size:13px}
ol.timeline>li{padding:.3rem .5rem}.status{min-width:0}.decision,.reason,.finding,.mark{margin-left:.3rem}}`;

function textBlock(text: string): string {
  const { shown, more } = cutLines(text, HTML_TEXT_LINES);
  if (!more) return `<div class="text">${esc(shown)}</div>`;
  const rest = text.replace(/\n+$/, "").split("\n").slice(HTML_TEXT_LINES).join("\n");
  return `<div class="text">${esc(shown)}<details><summary>${more} more line${
    more > 1 ? "s" : ""
  }</summary>${esc(rest)}</details></div>`;
}

function diffHtml(a: ReplayItem): string {
  return a.diffs.map((d) => {
    const lines = [`<span class="file">--- ${esc(d.path)} (${esc(d.change)})</span>`];
    for (const h of d.hunks) {
      lines.push(`<span class="hunk">${esc(hunkHeader(h))}</span>`);
      for (const l of numberHunk(h)) {
        const nums = `<span class="ln">${String(l.old ?? "").padStart(5)} ${
          String(l.new ?? "").padStart(5)
        } </span>`;
        const body = esc(`${l.sign} ${l.text}`);
        const cls = l.sign === "+" ? "add" : l.sign === "-" ? "del" : "";
        lines.push(cls ? `<span class="${cls}">${nums}${body}</span>` : nums + body);
      }
    }
    if (d.omitted) lines.push(`… ${d.omitted} more diff lines not recorded`);
    if (!d.recorded) lines.push("(rebuilt from the call's arguments: no context recorded)");
    return `<pre class="diff">${lines.join("\n")}</pre>`;
  }).join("");
}

function itemHtml(a: ReplayItem, n: number): string {
  const undone = a.undo?.status === "undone";
  const label = statusLabel(a);
  const parts: string[] = [];
  const id = a.actionId && a.kind === "action" ? `<code class="aid">${esc(a.actionId)}</code>` : "";
  const what = a.kind === "prompt" || a.kind === "answer"
    ? (a.kind === "answer" && a.reason ? `<span class="what aid">${esc(a.reason)}</span>` : "")
    : `<span class="what">${esc(a.summary)}</span>`;
  parts.push(
    `<div class="head"><span class="time">${esc(a.time.slice(11, 19))}</span>` +
      `<span class="status">${esc(label)}</span>` +
      (a.kind === "prompt" || a.kind === "answer"
        ? ""
        : `<span class="tool">${esc(a.tool)}</span>`) +
      `${what}${id}</div>`,
  );
  if (a.kind === "action" || a.kind === "refusal") {
    parts.push(`<div class="decision">${esc(decisionLine(a))}</div>`);
  }
  if (a.reason && a.status !== "ok" && a.kind !== "answer" && a.reason !== a.output?.head[0]) {
    parts.push(`<div class="reason">${esc(a.reason)}</div>`);
  }
  for (const f of a.findings) {
    parts.push(`<div class="finding">${esc(findingLine(f))}</div>`);
  }
  if (a.text && (a.kind !== "event" || a.text.trim() !== a.summary.trim())) {
    parts.push(textBlock(a.text));
  }
  parts.push(diffHtml(a));
  if (a.output && (a.output.head.length || a.output.exitCode !== undefined)) {
    parts.push(`<pre class="output">${esc(outputLines(a.output).join("\n"))}</pre>`);
  }
  const mark = undoMark(a);
  if (mark) parts.push(`<div class="mark${undone ? "" : " not"}">${esc(mark)}</div>`);
  const cls = [a.status, a.kind, undone ? "struck" : ""].filter(Boolean).join(" ");
  return `<li class="${esc(cls)}" id="item-${n}" data-seq="${a.seq}" data-kind="${esc(a.kind)}">${
    parts.join("")
  }</li>`;
}

/**
 * Renders the page.
 *
 * @example
 * ```ts ignore
 * await Deno.writeTextFile("session.html", renderHtml(model));
 * ```
 */
export function renderHtml(m: ReplayModel): string {
  const items = m.timeline.map((a, i) => itemHtml(a, i + 1)).join("\n");
  const ws = m.workspace ? `<div class="meta">workspace ${esc(m.workspace)}</div>` : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>retie replay ${esc(m.session)}</title><style>${CSS}</style></head>
<body>
<h1>${esc(m.objective || "(no objective recorded)")}</h1>
<div class="meta">${esc(headerLine(m))}</div>${ws}
<div><span class="badge" id="verified">verified</span> ledger chain and signatures checked · head #${m.head.seq}
<code id="head">${esc(m.head.hash)}</code></div>
<ol class="timeline" id="timeline">
${items}
</ol>
<div class="totals" id="totals">${esc(totalsLine(m))}</div>
${(m.subagents ?? []).map(subagentHtml).join("\n")}
</body></html>
`;
}

/** A sub-agent's session: a section of its own under its caller's timeline. */
function subagentHtml(m: ReplayModel): string {
  const items = m.timeline.map((a, i) => itemHtml(a, i + 1)).join("\n");
  return `<section class="subagent" id="sub-${esc(m.session)}">
<h2>sub-agent ${esc(m.agentType ?? "?")} · ${esc(m.session)}</h2>
<div class="meta">${esc(m.objective)}</div>
<ol class="timeline">
${items}
</ol>
<div class="totals">${esc(totalsLine(m))}</div>
${(m.subagents ?? []).map(subagentHtml).join("\n")}
</section>`;
}
