/**
 * The approval prompt: it states the consequence, not the tool name, and offers yes / no /
 * explain (why retie asks). Built on @inquirer/prompts; non-interactive callers never reach it
 * (headless turns `ask` into `deny` in the policy unless `--yes`).
 *
 * @module
 */
import type { ApprovalRequest } from "../plane/guard.ts";
import { findingText } from "./action_line.ts";
import { c } from "./color.ts";

function stdinIsTerminal(): boolean {
  try {
    return Deno.stdin.isTerminal();
  } catch {
    return false;
  }
}

/** The text shown above the choices. */
export function approvalMessage(req: ApprovalRequest): string {
  const lines = [`${c.yellow("?")} ${c.bold(req.consequence)}`];
  for (const f of req.findings) lines.push(`    ${c.red(findingText(f))} in ${f.path}`);
  return lines.join("\n");
}

/** Why retie asks, for the "explain" choice. */
export function explainText(req: ApprovalRequest): string {
  return [
    `retie asks because the policy rule "${req.rule}" matched:`,
    `  ${req.justification}`,
    `class: ${req.class}${
      req.class === "irreversible" ? " (no inverse can be prepared, so undo cannot reverse it)" : ""
    }`,
    `action: ${req.summary}`,
  ].join("\n");
}

/**
 * Asks at the terminal; resolves true for yes.
 *
 * @example
 * ```ts ignore
 * const ok = await askApproval(req); // shows the consequence, waits for y / n / explain
 * ```
 */
export async function askApproval(req: ApprovalRequest): Promise<boolean> {
  return (await askApprovalChoice(req)) !== "no";
}

/**
 * Asks at the terminal, offering "don't ask again" when `remember` (what would be remembered, in
 * words) is given; resolves `yes`, `no` or `always`.
 *
 * @example
 * ```ts ignore
 * const choice = await askApprovalChoice(req, "bash `npm test` in /home/me/project");
 * ```
 */
export async function askApprovalChoice(
  req: ApprovalRequest,
  remember?: string,
): Promise<"yes" | "no" | "always"> {
  console.log(approvalMessage(req));
  if (!stdinIsTerminal()) {
    // A prompt on piped input would wait forever for an answer nobody can give: refuse instead
    // (the guard records why).
    throw new Error(
      "nobody can answer: standard input is not a terminal; run retie in a terminal to be " +
        "asked, or --headless (with --yes to approve every ask)",
    );
  }
  const { select } = await import("@inquirer/prompts");
  while (true) {
    let answer: string;
    try {
      answer = await select({
        message: "Allow it?",
        choices: [
          { name: "yes, run it", value: "yes" },
          { name: "no, refuse it (the model is told why)", value: "no" },
          { name: "explain: why is retie asking?", value: "explain" },
          ...(remember
            ? [{ name: `yes, and don't ask again for ${remember}`, value: "always" }]
            : []),
        ],
      });
    } catch (e) {
      // Ctrl-C (or the terminal going away) at the prompt: not a yes. The guard refuses and
      // records this reason.
      if ((e as Error).name === "ExitPromptError") {
        throw new Error("the prompt was closed (Ctrl-C) without an answer");
      }
      throw e;
    }
    if (answer === "explain") {
      console.log(c.dim(explainText(req)));
      continue;
    }
    return answer === "always" ? "always" : answer === "yes" ? "yes" : "no";
  }
}
