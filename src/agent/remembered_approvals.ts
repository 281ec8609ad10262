/**
 * Remembered approvals: the person's "yes, and don't ask again" kept as a narrowed rule — one
 * tool, a pattern over the call's key argument, one workspace — in the user's config file, never
 * in the workspace.
 *
 * A rule is consulted only where the policy said `ask` (the person would have been asked), so it
 * can only allow what the person allowed: a `deny` stays a deny, and headless runs (where `ask`
 * is already a deny) never reach it. The rule is written only by this approver, after the person
 * chose it at the prompt; the config directory is a protected path, out of reach of the file
 * tools and the sandbox, so the agent cannot write it. Adding a rule and every decision it makes
 * are recorded in the ledger (`approval-remembered` events).
 *
 * @module
 */
import { resolve } from "node:path";
import { canonicalJson } from "../core/canonical_json.ts";
import { configPath, loadConfig, type RememberedApproval, saveConfig } from "../config/mod.ts";
import type { ApprovalRequest, Approver } from "../plane/guard_types.ts";
import { errorMessage } from "../core/errors.ts";
import { isWithin } from "../core/paths.ts";

/** The argument a remembered rule matches, per tool. */
const KEY_ARG: Record<string, string> = {
  bash: "command",
  read: "path",
  write: "path",
  edit: "path",
  ls: "path",
  grep: "path",
  glob: "path",
  fetch: "url",
};

/**
 * The text a rule's pattern is matched against: the tool's key argument, else the arguments'
 * canonical JSON.
 *
 * @example
 * ```ts
 * import { keyArgument } from "./remembered_approvals.ts";
 * keyArgument("bash", { command: "npm test" }); // "npm test"
 * ```
 */
export function keyArgument(tool: string, args: Record<string, unknown> | undefined): string {
  const key = KEY_ARG[tool];
  const v = key ? args?.[key] : undefined;
  if (typeof v === "string") return v;
  return canonicalJson(args ?? {});
}

/**
 * Whether `text` matches a pattern: `*` is any run of characters, `\*` a literal star, `\\` a
 * literal backslash; everything else is literal.
 *
 * @example
 * ```ts
 * import { patternMatches } from "./remembered_approvals.ts";
 * patternMatches("npm test*", "npm test -- --watch"); // true
 * patternMatches("npm test", "npm test; rm -rf ."); // false
 * patternMatches("ls \\*.ts", "ls x.ts"); // false
 * ```
 */
export function patternMatches(pattern: string, text: string): boolean {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\" && i + 1 < pattern.length) re += escapeRe(pattern[++i]);
    else if (ch === "*") re += "[\\s\\S]*";
    else re += escapeRe(ch);
  }
  return new RegExp(`^${re}$`).test(text);
}

function escapeRe(ch: string): string {
  return ch.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * The pattern that matches exactly `text` (stars and backslashes escaped).
 *
 * @example
 * ```ts
 * import { exactPattern, patternMatches } from "./remembered_approvals.ts";
 * patternMatches(exactPattern("ls *.ts"), "ls a.ts"); // false
 * ```
 */
export function exactPattern(text: string): string {
  return text.replace(/[\\*]/g, "\\$&");
}

/**
 * The remembered rules that apply to `workspace`.
 *
 * @example
 * ```ts ignore
 * rememberedFor("/home/me/project").map((r) => `${r.tool} ${r.pattern}`);
 * ```
 */
export function rememberedFor(workspace: string, path = configPath()): RememberedApproval[] {
  return (loadConfig(path).config.rememberedApprovals ?? []).filter((r) =>
    resolve(r.workspace) === resolve(workspace)
  );
}

/** The rule that decides `req` in `workspace`, or null. */
export function matchingRule(
  rules: RememberedApproval[],
  workspace: string,
  req: Pick<ApprovalRequest, "tool" | "args">,
): RememberedApproval | null {
  const text = keyArgument(req.tool, req.args);
  return rules.find((r) =>
    resolve(r.workspace) === resolve(workspace) && r.tool === req.tool &&
    patternMatches(r.pattern, text)
  ) ?? null;
}

/** What the terminal prompt answers. */
export type ApprovalChoice = "yes" | "no" | "always";

/**
 * Wraps the terminal prompt: a remembered rule answers instead of the person; "always" at the
 * prompt adds the narrowed rule (exactly this call's key argument, this tool, this workspace).
 * When the config file lies inside the workspace nothing is offered or remembered.
 *
 * @example
 * ```ts ignore
 * const approve = rememberingApprover({ workspace, ask: askApprovalChoice, record });
 * ```
 */
export function rememberingApprover(o: {
  workspace: string;
  /** Asks the person; a richer answer may carry what the model should do instead of a "no". */
  ask: (
    req: ApprovalRequest,
    remember?: string,
  ) => Promise<ApprovalChoice | { choice: ApprovalChoice; instead?: string }>;
  record: (event: Record<string, unknown>) => void;
  configFile?: string;
  now?: () => Date;
}): Approver {
  const file = o.configFile ?? configPath();
  const usable = !isWithin(resolve(file), resolve(o.workspace));
  return async (req) => {
    if (usable) {
      let rules: RememberedApproval[] = [];
      try {
        rules = rememberedFor(o.workspace, file);
      } catch (e) {
        // An invalid config never approves anything; the person is asked.
        o.record({ type: "approval-remembered", error: errorMessage(e) });
      }
      const rule = matchingRule(rules, o.workspace, req);
      if (rule) {
        o.record({ type: "approval-remembered", decision: "allow", tool: req.tool, rule });
        return true;
      }
    }
    const text = keyArgument(req.tool, req.args);
    const offer = usable ? `${req.tool} \`${text.slice(0, 120)}\` in this project` : undefined;
    const raw = await o.ask(req, offer);
    const choice = typeof raw === "string" ? raw : raw.choice;
    if (choice === "always" && usable) {
      const rule: RememberedApproval = {
        workspace: o.workspace,
        tool: req.tool,
        pattern: exactPattern(text),
        added: (o.now?.() ?? new Date()).toISOString(),
      };
      try {
        const loaded = loadConfig(file);
        const list = loaded.config.rememberedApprovals ?? [];
        if (!list.some((r) => canonicalJson(r) === canonicalJson(rule))) {
          saveConfig({ ...loaded.config, rememberedApprovals: [...list, rule] }, file);
        }
        o.record({ type: "approval-remembered", added: rule, configFile: file });
      } catch (e) {
        // The person said yes: the call goes ahead; only the remembering failed (and says so).
        o.record({ type: "approval-remembered", error: `not remembered: ${errorMessage(e)}` });
      }
    }
    if (choice !== "no") return true;
    const instead = typeof raw === "string" ? undefined : raw.instead;
    return instead ? { approved: false, instead } : false;
  };
}
