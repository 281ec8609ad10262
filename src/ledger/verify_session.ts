/**
 * The session and delegation checks of `retie verify` (docs/ledger-format.md, "What verify
 * checks", steps 11–19): who may sign what, genesis and delegations, the parent of a child
 * session, closed sessions, action ids, intents within their delegation, outcomes and undos.
 * They see only rows that passed the chain checks, and each problem belongs to its session.
 *
 * @module
 */
import type { Delegation } from "./types.ts";
import { checkScope, delegationHash, verifyDelegation } from "./delegation.ts";
import { ACTION_KINDS } from "./entries.ts";
import {
  readCheckpoint,
  readDelegationEntry,
  readGenesis,
  readIntent,
  readOutcome,
  readUndo,
} from "./entries_read.ts";
import type { CheckedRow } from "./verify_chain.ts";
import type { ProblemCode, Problems } from "./verify_problems.ts";

/** An action with an intent and no outcome: started, not confirmed (a crash, or still running). */
export interface OpenAction {
  seq: number;
  session: string;
  actionId: string;
}

interface SessionState {
  userKey: string;
  agent: string;
  delegation: Delegation;
  /** The delegation verified (an invalid one is reported at the genesis and not used further). */
  delegationOk: boolean;
  /** Hashes of the valid delegations this session holds or issued (children link to these). */
  issued: Map<string, Delegation>;
  closed: boolean;
}

/** The session checks, fed the rows that passed the chain checks, in seq order. */
export class SessionChecker {
  readonly sessions = new Map<string, SessionState>();
  readonly userKeys = new Set<string>();
  /** Checkpoint entries: seq → its signer and time (the head file must name one of them). */
  readonly checkpoints = new Map<number, { signer: string; time: string }>();
  lastCheckpoint: number | null = null;
  readonly open = new Map<string, OpenAction>();
  /** Action id → the session of its intent. */
  readonly #intents = new Map<string, string>();
  readonly #outcomes = new Set<string>();
  readonly #seenActions = new Set<string>();

  constructor(readonly problems: Problems, readonly trusted: Set<string> | null) {}

  check({ row: r, payload }: CheckedRow): void {
    const s = r.session;
    const bad = (code: ProblemCode, detail: string) => this.problems.of(s, code, r.seq, detail);
    const needsAction = ACTION_KINDS.has(r.kind);
    // An event may be about an action (a staged command's undo data): then it names it.
    const mayHaveAction = needsAction || r.kind === "event";
    if ((needsAction && r.action_id === null) || (!mayHaveAction && r.action_id !== null)) {
      bad(
        "action-id-kind",
        needsAction ? `${r.kind} without an action id` : `${r.kind} entries carry no action id`,
      );
    }
    if (r.kind === "genesis") this.#genesis(r, payload, bad);
    else this.#sessionEntry(r, payload, bad);
    if (r.kind === "event" && r.action_id !== null && this.#intents.get(r.action_id) !== s) {
      bad("event-action-unknown", `event names action ${r.action_id}, no earlier intent here`);
    }
    if (r.action_id !== null) this.#seenActions.add(r.action_id);
  }

  #genesis(r: CheckedRow["row"], payload: Record<string, unknown>, bad: Bad): void {
    const s = r.session;
    if (this.sessions.has(s)) return bad("genesis-duplicate", `second genesis for session ${s}`);
    const g = readGenesis(payload);
    if (!g.ok) return bad("genesis-malformed", `genesis payload: ${g.why}`);
    const { userPublicKey: user, agentPublicKey: agent, parentSession } = g.value;
    const d = g.value.delegation;
    this.userKeys.add(user);
    if (this.trusted && !this.trusted.has(user)) {
      bad("user-key-untrusted", `session opened by an untrusted user key ${user.slice(0, 12)}`);
    }
    if (r.signer !== user) bad("signer-role", "genesis is not signed by the session's user key");
    let why: string | null = null;
    let parentOk = true;
    if (parentSession !== null) {
      const p = this.sessions.get(parentSession);
      const linked = p?.issued.get(typeof d.parent === "string" ? d.parent : "");
      if (!p) {
        parentOk = false;
        bad("parent-session", `parent session ${parentSession} is not earlier in the ledger`);
      } else if (!p.delegationOk) {
        parentOk = false;
        bad("parent-session", `parent session ${parentSession} has an invalid delegation`);
      } else if (!linked) {
        why = `delegation does not link to a delegation of parent session ${parentSession}`;
      } else why = verifyDelegation(d, linked);
    } else {
      why = verifyDelegation(d, null) ??
        (d.issuer !== user ? "delegation is not issued by the session's user key" : null);
    }
    if (!why && d.continues !== undefined) {
      // A resumed session names the delegation it continues: it must be earlier and valid.
      const c = String(d.continues);
      if (![...this.sessions.values()].some((x) => x.issued.has(c))) {
        why = `it continues delegation ${c.slice(0, 12)}, not earlier in the ledger`;
      }
    }
    if (why) bad("delegation-invalid", `invalid delegation: ${why}`);
    const ok = !why && parentOk;
    if (ok) {
      if (agent !== d.agent) {
        bad("agent-key-mismatch", "genesis agent key is not the delegation's agent");
      } else {
        const t = Date.parse(r.time);
        if (t < Date.parse(d.notBefore) || t > Date.parse(d.expires)) {
          bad("session-outside-window", "session started outside the delegation's time window");
        }
      }
    }
    const issued = new Map<string, Delegation>();
    if (ok) issued.set(delegationHash(d), d);
    this.sessions.set(s, {
      userKey: user,
      agent,
      delegation: d,
      delegationOk: ok,
      issued,
      closed: false,
    });
  }

  #sessionEntry(r: CheckedRow["row"], payload: Record<string, unknown>, bad: Bad): void {
    const s = r.session;
    const ses = this.sessions.get(s);
    if (!ses) return bad("no-genesis", `entry of session ${s}, which has no earlier genesis`);
    if (ses.closed) {
      bad("after-final-checkpoint", `entry after session ${s} was closed by its final checkpoint`);
    }
    if (r.kind === "checkpoint") {
      if (r.signer !== ses.userKey) bad("signer-role", "checkpoint is not signed by the user key");
      const c = readCheckpoint(payload);
      if (!c.ok) return bad("checkpoint-malformed", `checkpoint payload ${c.why}`);
      if (c.value.seq !== r.seq - 1 || c.value.hash !== r.prev) {
        bad("checkpoint-link", "checkpoint does not name the entry before it");
      }
      this.checkpoints.set(r.seq, { signer: r.signer, time: r.time });
      this.lastCheckpoint = r.seq;
      if (c.value.final) ses.closed = true;
      return;
    }
    if (r.signer !== ses.agent) {
      bad("signer-role", `signer ${r.signer.slice(0, 12)} is not the agent key of session ${s}`);
    }
    const a = r.action_id;
    switch (r.kind) {
      case "delegation": {
        const e = readDelegationEntry(payload);
        const why = !e.ok
          ? "delegation entry carries no delegation"
          : !ses.delegationOk
          ? "the session's own delegation is invalid"
          : verifyDelegation(e.value.delegation, ses.delegation);
        if (why || !e.ok) return bad("delegation-invalid", `invalid sub-delegation: ${why}`);
        ses.issued.set(delegationHash(e.value.delegation), e.value.delegation);
        return;
      }
      case "intent": {
        if (a === null) return;
        if (this.#seenActions.has(a)) {
          bad("action-id-reused", `action id ${a} was used by an earlier entry`);
        }
        if (!this.#intents.has(a)) this.#intents.set(a, s);
        this.open.set(a, { seq: r.seq, session: s, actionId: a });
        const i = readIntent(payload);
        if (!i.ok) return bad("intent-malformed", `intent payload: ${i.why}`);
        if (!ses.delegationOk) return;
        const why = checkScope(ses.delegation, {
          tool: i.value.tool,
          class: i.value.class,
          paths: i.value.effect.writes,
          now: new Date(r.time),
        });
        if (why) bad("intent-out-of-scope", `intent outside the delegation: ${why}`);
        return;
      }
      case "outcome": {
        if (a === null) return;
        if (this.#intents.get(a) !== s) {
          return bad("outcome-without-intent", `outcome without an earlier intent (action ${a})`);
        }
        if (this.#outcomes.has(a)) {
          return bad("outcome-duplicate", `second outcome for action ${a}`);
        }
        this.#outcomes.add(a);
        this.open.delete(a);
        const o = readOutcome(payload);
        if (!o.ok) bad("outcome-malformed", `outcome payload: ${o.why}`);
        return;
      }
      case "undo": {
        if (a === null) return;
        if (!this.#intents.has(a)) {
          return bad("undo-without-intent", `undo of action ${a}, which has no earlier intent`);
        }
        const u = readUndo(payload);
        if (!u.ok) return bad("undo-malformed", `undo payload: ${u.why}`);
        if (u.value.target !== a) bad("undo-malformed", "undo target is not the entry's action id");
        return;
      }
    }
  }
}

type Bad = (code: ProblemCode, detail: string) => void;
