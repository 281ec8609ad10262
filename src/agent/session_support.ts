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
import {
  type KeyPair,
  readVerifiedMark,
  type SessionWriter,
  signaturesDigest,
  verifyLedger,
  writeVerifiedMark,
} from "../ledger/mod.ts";
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
 *
 * With `userKey`, signatures already checked at an earlier start (up to the verified mark it
 * signed, `ledger/verified_mark.ts`) are not checked again; anything found that way is checked
 * again in full, and the full report is the one shown. A valid ledger's end becomes the new mark.
 */
export function refuseInvalidLedger(path: string, userKey?: KeyPair): void {
  try {
    if (!Deno.statSync(path).isFile) return;
  } catch {
    return; // no ledger yet: the session creates it
  }
  let mark = userKey ? readVerifiedMark(path, userKey.publicKey) : null;
  // Signature columns changed up to the mark (which entry hashes do not cover): check in full.
  if (mark && signaturesDigest(path, mark.seq) !== mark.signatures) mark = null;
  let report = mark ? verifyLedger(path, { verifiedUpTo: mark }) : null;
  // A ledger that no longer reaches the mark was cut: only the full check can say where.
  if (!report?.ok || (mark && report.headSeq < mark.seq)) report = verifyLedger(path);
  if (report.ok) {
    if (userKey && report.headSeq > 0 && report.headSeq !== mark?.seq) {
      try {
        const at = { seq: report.headSeq, hash: report.headHash };
        writeVerifiedMark(path, { ...at, signatures: signaturesDigest(path, at.seq) }, userKey);
      } catch { /* a read-only state dir: the next start checks everything again */ }
    }
    return;
  }
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
