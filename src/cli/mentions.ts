/**
 * What a person can do at the prompt besides asking the model: `!cmd` runs a command themselves
 * (in the sandbox, through the guard, recorded as their own action, output shown, no model turn),
 * and `@path` in a request inlines a workspace file (read through the guard, confined like the
 * `read` tool, recorded).
 *
 * @module
 */
import type { AgentSession } from "../agent/session.ts";
import type { SessionView } from "../ui/session_view.ts";
import { c } from "../ui/color.ts";
import { untrusted, warn } from "../ui/term.ts";

/**
 * Runs `!cmd` for the person and shows it as an action.
 *
 * @example
 * ```ts ignore
 * await runOwnCommand("ls -la", session, view);
 * ```
 */
export async function runOwnCommand(
  command: string,
  session: AgentSession,
  view: SessionView,
  signal?: AbortSignal,
): Promise<void> {
  view.handle({ type: "tool_start", call: ownCall("bash", { command }) });
  const outcome = await session.runOwn("bash", { command }, signal);
  view.handle({
    type: "action",
    result: {
      toolCallId: "own",
      name: "bash",
      content: outcome.result.output,
      isError: outcome.status !== "ok",
      outcome,
    },
  });
}

function ownCall(name: string, args: Record<string, unknown>) {
  return { id: "own", name, argumentsJson: JSON.stringify(args) };
}

const MENTION = /(^|\s)@([^\s@]+)/g;

/**
 * The request with each `@path` that names a readable workspace file followed by the file's
 * text; a mention that cannot be read is left as typed, and the person is told why.
 *
 * @example
 * ```ts ignore
 * const text = await expandMentions("explain @src/app.py", session);
 * ```
 */
export async function expandMentions(
  text: string,
  session: AgentSession,
  signal?: AbortSignal,
): Promise<string> {
  const paths = [
    ...new Set([...text.matchAll(MENTION)].map((m) => m[2].replace(/[.,;:!?)]+$/, ""))),
  ];
  if (paths.length === 0) return text;
  const blocks: string[] = [];
  for (const path of paths) {
    const outcome = await session.runOwn("read", { path }, signal);
    if (outcome.status !== "ok") {
      warn(
        c.yellow(
          `@${untrusted(path)} not inlined: ${untrusted(outcome.result.output.split("\n")[0])}`,
        ),
      );
      continue;
    }
    warn(
      c.dim(`@${untrusted(path)} inlined (${outcome.result.output.split("\n").length} lines)`),
    );
    blocks.push(`<file path="${path}">\n${outcome.result.output}\n</file>`);
  }
  return blocks.length ? `${text}\n\n${blocks.join("\n\n")}` : text;
}
