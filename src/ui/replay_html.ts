/**
 * One self-contained HTML page for a verified replay: timeline, diffs, findings, refusals and a
 * "verified" badge with the head hash. No network fetches, no scripts: inline CSS only, and every
 * recorded string is escaped (a ledger may hold text a model or a web page wrote).
 *
 * @module
 */
import { diffLines } from "diff";
import { findingText } from "./action_line.ts";
import { headerLine, type ReplayAction, type ReplayModel, totalsLine } from "./replay_model.ts";

const ESC: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
/** Escapes text for HTML element and attribute content. */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ESC[ch]);
}

const CSS = `
body{font:14px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;margin:2rem auto;max-width:72rem;color:#1d1f21;background:#fafafa;padding:0 1rem}
h1{font-size:1.2rem;margin:0 0 .3rem}.meta{color:#555;margin-bottom:1rem}
.badge{display:inline-block;background:#1a7f37;color:#fff;border-radius:4px;padding:.1rem .5rem;font-weight:bold}
ol.timeline{list-style:none;padding:0;margin:1rem 0;border-left:3px solid #ccc}
ol.timeline>li{margin:0 0 .6rem;padding:.3rem .8rem;background:#fff;border-radius:0 4px 4px 0}
li.refused{border-left:4px solid #cf222e;background:#fff0f0}li.ok{border-left:4px solid #1a7f37}
li.error{border-left:4px solid #bf8700}li.started{border-left:4px solid #8250df}
.status{font-weight:bold;display:inline-block;min-width:6rem}.refused .status{color:#cf222e}
.time{color:#777;margin-right:.6rem}.tool{display:inline-block;min-width:4.5rem;color:#0550ae}
.reason{color:#6e2020;margin:.2rem 0 0 1rem}.finding{color:#cf222e;margin:.2rem 0 0 1rem}
pre.diff{background:#f6f8fa;padding:.4rem;overflow-x:auto;margin:.3rem 0 0}
.add{color:#116329;background:#dafbe1}.del{color:#82071e;background:#ffebe9}
.totals{font-weight:bold;margin-top:1rem}`;

function diffHtml(d: NonNullable<ReplayAction["diff"]>): string {
  const parts = diffLines(d.before, d.after);
  const lines: string[] = [];
  for (const p of parts) {
    const cls = p.added ? "add" : p.removed ? "del" : "";
    const sign = p.added ? "+" : p.removed ? "-" : " ";
    for (const l of p.value.replace(/\n$/, "").split("\n").slice(0, 200)) {
      lines.push(cls ? `<span class="${cls}">${esc(sign + l)}</span>` : esc(sign + l));
    }
  }
  return `<pre class="diff">--- ${esc(d.path)}\n${lines.join("\n")}</pre>`;
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
  const items = m.actions.map((a) => {
    const findings = a.findings.map((f) => `<div class="finding">${esc(findingText(f))}</div>`)
      .join("");
    const reason = a.reason && a.status !== "ok"
      ? `<div class="reason">${esc(a.reason)}</div>`
      : "";
    const diff = a.diff ? diffHtml(a.diff) : "";
    return `<li class="${esc(a.status)}" data-seq="${a.seq}"><span class="time">${
      esc(a.time.slice(11, 19))
    }</span><span class="status">${esc(a.status)}</span> <span class="tool">${esc(a.tool)}</span> ${
      esc(a.summary)
    } <small>(${esc(a.class)})</small>${reason}${findings}${diff}</li>`;
  }).join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>retie replay ${esc(m.session)}</title><style>${CSS}</style></head>
<body>
<h1>${esc(m.objective || "(no objective recorded)")}</h1>
<div class="meta">${esc(headerLine(m))}</div>
<div><span class="badge" id="verified">verified</span> ledger chain and signatures checked · head #${m.head.seq}
<code id="head">${esc(m.head.hash)}</code></div>
<ol class="timeline" id="timeline">
${items}
</ol>
<div class="totals" id="totals">${esc(totalsLine(m))}</div>
</body></html>
`;
}
