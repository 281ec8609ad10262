/**
 * Helpers for the changed-line shape tests: what an edit draws, and one-way cases (a finding
 * forward, silence on the reverse edit, which adds the guard back).
 *
 * @module
 */
import assert from "node:assert/strict";
import { lineGuardFindings } from "../../src/inspect/guard_lines.ts";

/**
 * The details of the shapes' findings for an edit (empty when silent). The learned signal, which
 * reads words and not shapes, is left out: its own tests and the corpora measure it.
 */
export function seen(path: string, before: string, after: string): string[] {
  return lineGuardFindings(path, before, after, { learned: false }).map((f) =>
    `${f.rule}: ${f.detail}`
  );
}

/** The edit `from` → `to` applied once to `text` (the snippet must be there). */
export function edit(text: string, from: string, to: string): string {
  assert.ok(text.includes(from), `snippet not in text: ${from}`);
  return text.replace(from, to);
}

/** A finding matching `re` forward, and none on the reverse edit. */
export function oneWay(path: string, before: string, after: string, re: RegExp) {
  assert.match(seen(path, before, after).join("\n"), re, `${path}: forward`);
  assert.deepEqual(seen(path, after, before), [], `${path}: reversed`);
}

/** A one-way case: `from` → `to` in `before` must draw `finds`; the reverse must not. */
export interface OneWayCase {
  what: string;
  path: string;
  before: string;
  from: string;
  to: string;
  finds: RegExp;
}

/** No finding for `from` → `to` applied once to `text` of `path`. */
export function silentEdit(path: string, text: string, from: string, to: string) {
  assert.deepEqual(seen(path, text, edit(text, from, to)), [], `${path}: ${from} → ${to}`);
}

/** Every case one way (a finding forward, none reversed); the failures are named together. */
export function oneWayAll(cases: readonly OneWayCase[]) {
  const failed: string[] = [];
  for (const c of cases) {
    try {
      oneWay(c.path, c.before, edit(c.before, c.from, c.to), c.finds);
    } catch (e) {
      failed.push(`${c.what}\n${(e as Error).message}`);
    }
  }
  assert.deepEqual(failed, []);
}
