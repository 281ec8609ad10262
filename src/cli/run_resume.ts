/**
 * `retie run --continue` / `--resume [ID]`: finds the session to continue (the latest of this
 * workspace, a given one, or one picked from a list), its parts (a session that was itself resumed
 * continues those), and its stored conversation checked against the digest in the ledger.
 *
 * @module
 */
import { loadConversation, type StoredConversation } from "../agent/conversation_store.ts";
import { sessionParts } from "../agent/session_record.ts";
import { RetieError } from "../core/errors.ts";
import { type Delegation, delegationHash, type Ledger, openLedger } from "../ledger/mod.ts";

/** A session that can be continued. */
export interface Resumable {
  id: string;
  started: string;
  objective: string;
  model: string;
  /** Messages in its stored conversation (from the last `conversation` event). */
  messages: number;
}

/** What was asked for. */
export interface ResumeRequest {
  /** `--continue`: the latest. */
  latest: boolean;
  /** `--resume ID`. */
  id?: string;
}

/**
 * The sessions of `workspace` that recorded a conversation, newest first.
 *
 * @example
 * ```ts ignore
 * resumableSessions(ledger, "/home/me/project")[0].id; // the latest
 * ```
 */
export function resumableSessions(ledger: Ledger, workspace: string): Resumable[] {
  const out: Resumable[] = [];
  for (const s of ledger.sessions()) {
    const g = ledger.entries({ session: s.id, kinds: ["genesis"] })[0];
    if (!g || g.payload.workspace !== workspace) continue;
    const conv = lastConversation(ledger, s.id);
    if (!conv) continue;
    out.push({
      id: s.id,
      started: s.started,
      objective: s.objective,
      model: s.model,
      messages: Number(conv.payload.messages ?? 0),
    });
  }
  return out.reverse();
}

function lastConversation(ledger: Ledger, session: string) {
  return ledger.entries({ session, kinds: ["event"] })
    .filter((e) => e.payload.type === "conversation").at(-1);
}

function describe(r: Resumable): string {
  return `${r.id}  ${r.started.slice(0, 16).replace("T", " ")}  ${r.messages} messages  ${
    r.objective.split("\n")[0].slice(0, 60)
  }`;
}

/**
 * Resolves what to continue; `pick` chooses from a list (interactive), or is absent (headless:
 * then `--resume` without an id is an error listing the candidates).
 *
 * @example
 * ```ts ignore
 * const r = await chooseResume(ledgerPath, workspace, { latest: true });
 * r.parts; // ["ses_…"]
 * ```
 */
export async function chooseResume(
  ledgerPath: string,
  workspace: string,
  req: ResumeRequest,
  pick?: (choices: { name: string; value: string }[]) => Promise<string>,
): Promise<{ parts: string[]; conversation: StoredConversation; fromDelegation: string | null }> {
  const ledger = openLedger(ledgerPath);
  try {
    const list = resumableSessions(ledger, workspace);
    let id = req.id;
    if (id !== undefined && !/^ses_[0-9a-f]{12}$/.test(id)) {
      throw new RetieError(`--resume: not a session id (${id})`, {
        hint: "session ids look like ses_0123456789ab; --resume alone lists them",
        exitCode: 2,
      });
    }
    if (list.length === 0) {
      throw new RetieError(`nothing to resume: no session of ${workspace} in ${ledgerPath}`, {
        hint: "start one with retie run; its end prints how to resume it",
        exitCode: 2,
      });
    }
    if (req.latest) id = list[0].id;
    else if (id === undefined) {
      if (!pick) {
        throw new RetieError(
          `--resume needs a session id here; sessions of this workspace:\n${
            list.slice(0, 20).map((r) => `  ${describe(r)}`).join("\n")
          }`,
          { hint: "retie run --resume ses_… (or --continue for the latest)", exitCode: 2 },
        );
      }
      id = await pick(list.slice(0, 30).map((r) => ({ name: describe(r), value: r.id })));
    } else if (!list.some((r) => r.id === id)) {
      throw new RetieError(
        `cannot resume ${id}: not a session of ${workspace} with a stored conversation`,
        {
          hint: "retie run --resume (without an id) lists the sessions of this workspace",
          exitCode: 2,
        },
      );
    }
    const digest = String(lastConversation(ledger, id!)?.payload.digest ?? "") || null;
    const conversation = loadConversation(ledgerPath, id!, digest);
    const genesis = ledger.entries({ session: id!, kinds: ["genesis"] })[0];
    const d = genesis?.payload.delegation as Delegation | undefined;
    return {
      parts: sessionParts(ledger, id!),
      conversation,
      fromDelegation: d ? delegationHash(d) : null,
    };
  } finally {
    ledger.close();
  }
}
