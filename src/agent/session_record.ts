/**
 * What a session did, read back from its ledger entries: its actions (id, tool, class, outcome,
 * whether undone), its refusals, and the facts a compaction summary must keep (the actions that
 * can still be undone and the files they touched). A resumed session spans several ledger
 * sessions ("parts"); every function takes them all.
 *
 * @module
 */
import type { LedgerEntry } from "../ledger/mod.ts";

/** Reads entries (the Ledger's `entries`). */
export interface EntryReader {
  entries(filter?: { session?: string; kinds?: LedgerEntry["kind"][] }): LedgerEntry[];
}

/** One action of the session. */
export interface ActionSummary {
  id: string;
  session: string;
  tool: string;
  class: string;
  summary: string;
  /** `ok`, `error`, … from the outcome; `started` when no outcome was recorded. */
  outcome: string;
  undone: boolean;
  writes: string[];
}

/** One refused call. */
export interface RefusalSummary {
  session: string;
  tool: string;
  stage: string;
  reason: string;
}

function entriesOf(ledger: EntryReader, parts: string[], kinds: LedgerEntry["kind"][]) {
  return parts.flatMap((session) => ledger.entries({ session, kinds }));
}

/**
 * Every action of the session's parts, oldest first.
 *
 * @example
 * ```ts ignore
 * sessionActions(ledger, [session.id]).map((a) => a.id); // ["act_…", …]
 * ```
 */
export function sessionActions(ledger: EntryReader, parts: string[]): ActionSummary[] {
  const all = entriesOf(ledger, parts, ["intent", "outcome", "undo"]);
  const outcome = new Map<string, string>();
  const undone = new Set<string>();
  for (const e of all) {
    if (!e.actionId) continue;
    if (e.kind === "outcome") outcome.set(e.actionId, String(e.payload.status ?? "?"));
    // Undo entries of the action itself (a skipped undo leaves it standing).
    if (e.kind === "undo" && e.payload.status === "undone") undone.add(e.actionId);
  }
  // `retie undo` records in its own session: look there too.
  for (const e of ledger.entries({ kinds: ["undo"] })) {
    if (e.actionId && e.payload.status === "undone") undone.add(e.actionId);
  }
  return all.filter((e) => e.kind === "intent" && e.actionId).map((e) => {
    const effect = (e.payload.effect ?? {}) as { summary?: string; writes?: string[] };
    return {
      id: e.actionId!,
      session: e.session,
      tool: String(e.payload.tool ?? "?"),
      class: String(e.payload.class ?? "?"),
      summary: String(effect.summary ?? e.payload.tool ?? ""),
      outcome: outcome.get(e.actionId!) ?? "started",
      undone: undone.has(e.actionId!),
      writes: Array.isArray(effect.writes) ? effect.writes.map(String) : [],
    };
  });
}

/**
 * Every refusal of the session's parts, oldest first.
 *
 * @example
 * ```ts ignore
 * sessionRefusals(ledger, [session.id]).length; // 0 when the gate refused nothing
 * ```
 */
export function sessionRefusals(ledger: EntryReader, parts: string[]): RefusalSummary[] {
  return entriesOf(ledger, parts, ["refusal"]).map((e) => ({
    session: e.session,
    tool: String(e.payload.tool ?? "?"),
    stage: String(e.payload.stage ?? "?"),
    reason: String(e.payload.reason ?? ""),
  }));
}

/**
 * The facts a compaction summary keeps verbatim: actions that can still be undone, files changed.
 *
 * @example
 * ```ts ignore
 * compactionFacts(ledger, [session.id]); // "Actions that can still be undone (/undo ID): …"
 * ```
 */
export function compactionFacts(ledger: EntryReader, parts: string[]): string {
  const actions = sessionActions(ledger, parts);
  const undoable = actions.filter((a) => a.class === "reversible" && !a.undone);
  const files = [...new Set(actions.filter((a) => !a.undone).flatMap((a) => a.writes))];
  const out: string[] = [];
  if (undoable.length) {
    out.push(
      "Actions that can still be undone (from the ledger):\n" +
        undoable.slice(-40).map((a) => `- ${a.id} ${a.summary} (${a.outcome})`).join("\n"),
    );
  }
  if (files.length) out.push(`Files changed so far: ${files.slice(-60).join(", ")}`);
  return out.join("\n\n");
}

/**
 * The parts of a session: the sessions it continued (from its `resume` event), then itself.
 *
 * @example
 * ```ts ignore
 * sessionParts(ledger, "ses_0123456789ab"); // ["ses_…first", "ses_0123456789ab"]
 * ```
 */
export function sessionParts(ledger: EntryReader, session: string): string[] {
  const resume = ledger.entries({ session, kinds: ["event"] })
    .find((e) => e.payload.type === "resume");
  const earlier = Array.isArray(resume?.payload.parts) ? resume.payload.parts.map(String) : [];
  return [...earlier, session];
}
