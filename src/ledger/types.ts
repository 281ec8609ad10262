/**
 * Types of the ledger, shared by the writer, the verifier, the guard, undo and replay. Each entry
 * kind's payload is declared in `entries.ts`.
 *
 * @module
 */
import type { AppendKind, EntryPayloads } from "./entries.ts";

/** Kinds of ledger entries. */
export type EntryKind =
  | "genesis" // opens a session: objective, provider, model, policy@digest, prompt digests, sandbox, keys, delegation
  | "delegation" // a (sub-)delegation signed by its parent's key
  | "intent" // an action about to run: call, class, decision, undo plan, findings — durable before it runs
  | "outcome" // how an action ended: status, result digest, duration, post-state
  | "refusal" // a call that never became an action, attributed to the session
  | "undo" // an undo (or a skip) of an earlier action
  | "finding" // an inspector or injection finding not tied to one action, or session marks
  | "event" // session events: model escalation and stops, approvals asked, untrusted input read
  | "checkpoint"; // the head (seq, hash) signed by the user key

/** One ledger row, as read back. */
export interface LedgerEntry {
  seq: number;
  /** ISO-8601 UTC time of the append. */
  time: string;
  session: string;
  kind: EntryKind;
  /** Groups intent, outcome and undo of one action; null for session-level entries. */
  actionId: string | null;
  /** The payload as stored: canonical JSON text. */
  payloadJson: string;
  /** Parsed payload. */
  payload: Record<string, unknown>;
  /** Hash of the previous entry (64 zero hex digits for the first). */
  prev: string;
  /** This entry's hash. */
  hash: string;
  /** Hex Ed25519 public key that signed it. */
  signer: string;
  /** Hex Ed25519 signature over the hash. */
  signature: string;
}

/** What a session appends through. Every append is committed durably before it returns. */
export interface EntrySink {
  readonly sessionId: string;
  /** Appends one entry; the payload is built by that kind's constructor in `entries.ts`. */
  append<K extends AppendKind>(
    kind: K,
    payload: EntryPayloads[K],
    actionId?: string | null,
  ): LedgerEntry;
}

/** A delegation: the user's grant of scoped, time-limited authority to an agent key. */
export interface Delegation {
  /** Hex public key of the agent (the delegate). */
  agent: string;
  /** Hex public key of the issuer (the user key, or the parent agent for sub-delegations). */
  issuer: string;
  /** Absolute real path of the workspace the agent may act in. */
  workspace: string;
  /** Reversibility classes the agent may act on. */
  classes: string[];
  /** Tool names the agent may call (`*` for any classified tool). */
  tools: string[];
  /** ISO-8601 times. */
  notBefore: string;
  expires: string;
  /** Hash of the parent delegation, or null for one issued by the user. */
  parent: string | null;
  /** A resumed session's delegation: the hash of the delegation of the session it continues
   * (absent otherwise; signed with the rest). */
  continues?: string;
  /** Hex signature by `issuer` over the canonical JSON of the fields above. */
  signature: string;
}
