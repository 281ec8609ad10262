/**
 * What a session needs around it: the paths no tool may reach, the sandbox's label for the record,
 * the model's answers as ledger events, the refusal to extend a ledger that does not verify, and
 * the workspace argument resolved.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { ledgerFiles } from "../core/dirs.ts";
import { errorMessage, RetieError } from "../core/errors.ts";
import type { SandboxSettings } from "../core/tool.ts";
import { type SessionWriter, verifyLedger } from "../ledger/mod.ts";
import type { AgentListener } from "./events.ts";

/**
 * Paths no tool and no sandboxed command may reach: the ledger and its side files, the undo
 * stores, the config dir (user key) and the workspace's `.retie/` (its project policy: an agent
 * that could write it would loosen the gate of its own next session).
 */
export function protectedPaths(ledgerPath: string, cfgDir: string, workspace?: string): string[] {
  return [
    ...ledgerFiles(ledgerPath),
    resolve(cfgDir),
    ...(workspace ? [join(workspace, ".retie")] : []),
  ];
}

/** A short description of the sandbox for the record. */
export function sandboxLabel(s: SandboxSettings): string {
  if (!s.available) return `none: ${s.unavailableReason ?? "unavailable"}`;
  return s.network ? "bwrap (network)" : "bwrap (no network)";
}

/** Longest model answer kept in the ledger, in characters. */
export const ANSWER_CHARS = 20_000;

/** The model's answers go into the record (what it told the person is part of the evidence). */
export function recordAnswers(writer: SessionWriter, model: () => string): AgentListener {
  return (e) => {
    if (e.type !== "model_done") return;
    const text = e.turn.text.trim();
    if (!text) return;
    writer.append("event", {
      type: "answer",
      model: model(),
      text: text.slice(0, ANSWER_CHARS),
      ...(text.length > ANSWER_CHARS ? { truncated: text.length } : {}),
      toolCalls: e.turn.toolCalls.length,
    });
  };
}

/**
 * A ledger that fails verification is not appended to: a new session would extend a chain nobody
 * can trust, and hide where it broke.
 */
export function refuseInvalidLedger(path: string): void {
  try {
    if (!Deno.statSync(path).isFile) return;
  } catch {
    return; // no ledger yet: the session creates it
  }
  const report = verifyLedger(path);
  if (report.ok) return;
  const bad = report.firstBad!;
  throw new RetieError(
    `the ledger ${path} fails verification (seq ${bad.seq}: ${bad.code} ${bad.detail}); nothing was appended`,
    {
      hint: "run `retie verify` to see why, or start a new ledger with `--ledger NEW.db`",
      exitCode: 1,
    },
  );
}

/** Resolves a workspace argument to an absolute real path, with a clear error. */
export function resolveWorkspace(dir: string): string {
  try {
    const real = Deno.realPathSync(dir);
    if (!Deno.statSync(real).isDirectory) throw new Error("not a directory");
    return real;
  } catch (e) {
    throw new RetieError(`cannot use ${dir} as the workspace: ${errorMessage(e)}`, {
      hint: "pass an existing project directory: retie run ./my-project",
      exitCode: 2,
    });
  }
}
