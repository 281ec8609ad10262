/**
 * The stored conversation of a session, kept next to the ledger (`<ledger>.conversations/`, one
 * JSON file per session) so that `retie run --continue` / `--resume` can pick it up. After every
 * turn its digest is chained into the ledger (a `conversation` event): a file edited afterwards no
 * longer matches, and resume refuses it.
 *
 * @module
 */
import { join } from "node:path";
import { canonicalJson } from "../core/canonical_json.ts";
import { domainHashHex } from "../core/hash.ts";
import { errorMessage, RetieError } from "../core/errors.ts";
import type { ChatMessage } from "../providers/types.ts";
import { writeFileAtomicSync } from "../core/atomic_write.ts";

/** Domain of conversation digests. */
export const CONVERSATION_DOMAIN = "retie/conversation/v1";

/** What is stored. */
export interface StoredConversation {
  format: 1;
  session: string;
  workspace: string;
  summary: string | null;
  messages: ChatMessage[];
}

/**
 * The directory of stored conversations that belongs with a ledger.
 *
 * @example
 * ```ts
 * import { conversationDir } from "./conversation_store.ts";
 * conversationDir("/s/ledger.db"); // "/s/ledger.db.conversations"
 * ```
 */
export function conversationDir(ledgerPath: string): string {
  return `${ledgerPath}.conversations`;
}

/**
 * The digest recorded in the ledger for a stored conversation.
 *
 * @example
 * ```ts
 * import { conversationDigest } from "./conversation_store.ts";
 * conversationDigest({ format: 1, session: "ses_0", workspace: "/w", summary: null, messages: [] }).length; // 64
 * ```
 */
export function conversationDigest(c: StoredConversation): string {
  return domainHashHex(CONVERSATION_DOMAIN, canonicalJson(c));
}

/**
 * Writes a session's conversation (atomically, mode 0600) and returns its digest.
 *
 * @example
 * ```ts ignore
 * const digest = saveConversation(ledgerPath, stored);
 * ```
 */
export function saveConversation(ledgerPath: string, c: StoredConversation): string {
  const dir = conversationDir(ledgerPath);
  Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${c.session}.json`);
  writeFileAtomicSync(path, JSON.stringify(c), { mode: 0o600 });
  return conversationDigest(c);
}

/**
 * Reads a session's stored conversation and checks it against the digest the ledger holds.
 * Throws (exit 2) when it is missing or differs.
 *
 * @example
 * ```ts ignore
 * const c = loadConversation(ledgerPath, "ses_0123456789ab", digestFromLedger);
 * ```
 */
export function loadConversation(
  ledgerPath: string,
  session: string,
  expectedDigest: string | null,
): StoredConversation {
  const path = join(conversationDir(ledgerPath), `${session}.json`);
  let c: StoredConversation;
  try {
    c = JSON.parse(Deno.readTextFileSync(path));
  } catch (e) {
    throw new RetieError(
      `cannot resume ${session}: its conversation (${path}) cannot be read: ${errorMessage(e)}`,
      { hint: "start a new session, or resume another one (retie run --resume)", exitCode: 2 },
    );
  }
  if (!expectedDigest) {
    throw new RetieError(`cannot resume ${session}: the ledger holds no conversation digest`, {
      hint: "the session ended before its first turn was recorded; start a new one",
      exitCode: 2,
    });
  }
  const digest = conversationDigest(c);
  if (digest !== expectedDigest) {
    throw new RetieError(
      `cannot resume ${session}: its stored conversation (${path}) differs from the digest in the ledger`,
      {
        hint: "the file was changed after the session recorded it; start a new session",
        exitCode: 2,
      },
    );
  }
  return c;
}

/** How a session's stored conversation compares with the last digest its ledger holds. */
export interface ConversationCheck {
  session: string;
  status: "ok" | "differs" | "missing";
}

/**
 * Checks every stored conversation against the last `conversation` digest of its session (the
 * file is rewritten after each turn, so only the last digest describes it). A file deleted after
 * the fact is `missing`; one edited is `differs`.
 *
 * @example
 * ```ts ignore
 * checkStoredConversations(ledgerPath, ledger).filter((c) => c.status !== "ok");
 * ```
 */
export function checkStoredConversations(
  ledgerPath: string,
  reader: {
    entries(
      f?: { kinds?: ("event")[] },
    ): { session: string; payload: Record<string, unknown> }[];
  },
): ConversationCheck[] {
  const last = new Map<string, string>();
  for (const e of reader.entries({ kinds: ["event"] })) {
    if (e.payload.type === "conversation") last.set(e.session, String(e.payload.digest));
  }
  const out: ConversationCheck[] = [];
  for (const [session, digest] of last) {
    let c: StoredConversation;
    try {
      c = JSON.parse(Deno.readTextFileSync(join(conversationDir(ledgerPath), `${session}.json`)));
    } catch {
      out.push({ session, status: "missing" });
      continue;
    }
    out.push({ session, status: conversationDigest(c) === digest ? "ok" : "differs" });
  }
  return out;
}
