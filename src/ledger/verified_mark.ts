/**
 * The verified mark: how far the ledger was last found valid, so that a session's start-up check
 * need not check every old signature again.
 *
 * Before a session appends, retie verifies the whole ledger. Ed25519 signatures are two thirds of
 * that cost (about 30 µs of 45 per entry here), and one ledger holds every session a user ran, so
 * it grows without bound. After a successful check retie writes `<ledger>.verified.json`: the seq
 * and hash of the last entry and a digest of every entry's `signer` and `signature` columns up to
 * it (the two columns an entry's hash does not cover), signed with the user key. The next start-up
 * still re-computes every entry's hash, every link, format and session rule, but checks signatures
 * only after the mark, and requires the entry at the mark to still have the marked hash and the
 * signature columns up to it to still have the marked digest.
 *
 * Why that finds what a full check finds: changing an entry's content without its stored hash
 * fails its hash check; re-computing its hash breaks the next entry's link unless every later hash
 * is re-computed too, which changes the entry at the mark (refused) or, past it, leaves entries
 * whose signatures no longer verify; changing a signature or signer up to the mark changes the
 * digest. Moving the mark itself takes the user key. Whenever the quick check finds anything, the
 * full check runs and its report is the one shown; `retie verify` always checks everything.
 *
 * @module
 */
import { basename } from "node:path";
import { createHash } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import { canonicalJson } from "../core/canonical_json.ts";
import { writeFileAtomicSync } from "../core/atomic_write.ts";
import { type KeyPair, signHex, verifyHex } from "./keys.ts";

/** A position in the chain: the seq of an entry, its stored hash, and the digest of the
 * signature columns of every entry up to it ({@link signaturesDigest}). */
export interface ChainPosition {
  seq: number;
  hash: string;
  signatures: string;
}

interface MarkFile extends ChainPosition {
  version: 1;
  /** The ledger file's name: a mark copied beside another ledger does not apply. */
  ledger: string;
  signer: string;
  signature: string;
}

/**
 * Where the mark of `ledgerPath` lives.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { verifiedMarkPath } from "./verified_mark.ts";
 * assert.equal(verifiedMarkPath("/s/ledger.db"), "/s/ledger.db.verified.json");
 * ```
 */
export function verifiedMarkPath(ledgerPath: string): string {
  return `${ledgerPath}.verified.json`;
}

function signedText(ledgerPath: string, at: ChainPosition): string {
  return canonicalJson({
    version: 1,
    ledger: basename(ledgerPath),
    seq: at.seq,
    hash: at.hash,
    signatures: at.signatures,
  });
}

/**
 * SHA-256 over the `signer` and `signature` columns (with their SQLite types) of every entry with
 * seq ≤ `upTo`, in seq order: what an entry's hash does not cover.
 *
 * @example
 * ```ts ignore
 * import { signaturesDigest } from "./verified_mark.ts";
 * signaturesDigest("/s/ledger.db", 120); // 64 hex digits
 * ```
 */
export function signaturesDigest(ledgerPath: string, upTo: number): string {
  const db = new DatabaseSync(ledgerPath, { readOnly: true });
  try {
    const h = createHash("sha256");
    const rows = db.prepare(
      "SELECT seq, signer, typeof(signer) AS ts, signature, typeof(signature) AS tg " +
        "FROM entries WHERE seq <= ? ORDER BY seq",
    ).iterate(upTo) as Iterable<Record<string, unknown>>;
    for (const r of rows) h.update(`${r.seq}\t${r.ts}:${r.signer}\t${r.tg}:${r.signature}\n`);
    return h.digest("hex");
  } finally {
    db.close();
  }
}

/**
 * Records that the ledger was valid up to `at`, signed by `key` (written atomically).
 *
 * @example
 * ```ts ignore
 * import { writeVerifiedMark } from "./verified_mark.ts";
 * const at = { seq: report.headSeq, hash: report.headHash };
 * writeVerifiedMark("/s/ledger.db", { ...at, signatures: signaturesDigest(path, at.seq) }, key);
 * ```
 */
export function writeVerifiedMark(ledgerPath: string, at: ChainPosition, key: KeyPair): void {
  const file: MarkFile = {
    version: 1,
    ledger: basename(ledgerPath),
    seq: at.seq,
    hash: at.hash,
    signatures: at.signatures,
    signer: key.publicKey,
    signature: signHex(key, signedText(ledgerPath, at)),
  };
  writeFileAtomicSync(verifiedMarkPath(ledgerPath), JSON.stringify(file, null, 2) + "\n");
}

/**
 * The mark of `ledgerPath` when it exists, names this ledger and verifies with `signer`'s key;
 * null otherwise (absent, unreadable, another ledger's, another key's or forged: the caller then
 * checks everything).
 *
 * @example
 * ```ts ignore
 * import { readVerifiedMark } from "./verified_mark.ts";
 * const mark = readVerifiedMark("/s/ledger.db", userKey.publicKey); // ChainPosition | null
 * ```
 */
export function readVerifiedMark(ledgerPath: string, signer: string): ChainPosition | null {
  let m: Partial<MarkFile>;
  try {
    m = JSON.parse(Deno.readTextFileSync(verifiedMarkPath(ledgerPath)));
  } catch {
    return null;
  }
  if (
    m?.version !== 1 || m.ledger !== basename(ledgerPath) || m.signer !== signer ||
    !Number.isSafeInteger(m.seq) || (m.seq as number) < 1 || typeof m.hash !== "string" ||
    !/^[0-9a-f]{64}$/.test(m.hash) || typeof m.signatures !== "string" ||
    typeof m.signature !== "string"
  ) return null;
  const at = { seq: m.seq as number, hash: m.hash, signatures: m.signatures };
  try {
    return verifyHex(signer, signedText(ledgerPath, at), m.signature) ? at : null;
  } catch {
    return null;
  }
}
