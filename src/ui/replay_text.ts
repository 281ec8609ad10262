/**
 * Text and markdown renderings of a verified replay.
 *
 * @module
 */
import { actionLines, findingText } from "./action_line.ts";
import { c } from "./color.ts";
import { headerLine, type ReplayModel, totalsLine } from "./replay_model.ts";

/**
 * The terminal replay: objective, header, a line per action with findings under it, totals.
 *
 * @example
 * ```ts ignore
 * console.log(renderText(buildReplay(entries, head)));
 * ```
 */
export function renderText(m: ReplayModel): string {
  const out = [c.bold(m.objective || "(no objective recorded)"), c.dim(headerLine(m)), ""];
  for (const a of m.actions) out.push(...actionLines(a));
  out.push(
    "",
    `  ${totalsLine(m)}`,
    c.dim(`  verified · head #${m.head.seq} ${m.head.hash.slice(0, 16)}`),
  );
  return out.join("\n");
}

const mdEscape = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

/**
 * Markdown for a pull request: a header, a table of actions (refusals in bold), findings, totals.
 *
 * @example
 * ```ts ignore
 * await Deno.writeTextFile("session.md", renderMarkdown(model));
 * ```
 */
export function renderMarkdown(m: ReplayModel): string {
  const out = [
    `### retie session: ${mdEscape(m.objective || "(no objective recorded)")}`,
    "",
    `\`${headerLine(m)}\` — ledger verified, head #${m.head.seq} \`${m.head.hash.slice(0, 16)}\``,
    "",
    "| time | status | tool | action | class | findings |",
    "| --- | --- | --- | --- | --- | --- |",
  ];
  for (const a of m.actions) {
    const status = a.status === "refused" ? "**refused**" : a.status;
    const what = a.reason && a.status !== "ok" ? `${a.summary} — ${a.reason}` : a.summary;
    out.push(
      `| ${a.time.slice(11, 19)} | ${status} | ${a.tool} | ${mdEscape(what)} | ${a.class} | ${
        mdEscape(a.findings.map(findingText).join("; "))
      } |`,
    );
  }
  out.push("", `**${totalsLine(m)}**`, "");
  return out.join("\n");
}
