/**
 * Ed25519 edge cases (docs/ledger-format.md, "Signatures"): retie's verifyHex and the reference
 * verifier refuse the same inputs, including ones @noble/ed25519's default (ZIP-215) accepts.
 */
import assert from "node:assert/strict";
import * as ed from "@noble/ed25519";
import { ed25519Problem, keyPairFromSeedHex, signHex, verifyHex } from "../../src/ledger/keys.ts";
import { refVerify } from "./reference_verifier.ts";

const L = (1n << 252n) + 27742317777372353535851937790883648493n;
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const unhex = (s: string) => Uint8Array.from(s.match(/../g)!.map((x) => parseInt(x, 16)));
const le = (b: Uint8Array) => b.reduceRight((n, x) => (n << 8n) | BigInt(x), 0n);
const toLe = (n: bigint) =>
  Uint8Array.from({ length: 32 }, (_, i) => Number((n >> BigInt(8 * i)) & 255n));
const sha512 = async (b: Uint8Array) =>
  new Uint8Array(await crypto.subtle.digest("SHA-512", new Uint8Array(b)));

const MSG = "ab".repeat(32);
const SEED = "07".repeat(32);

/** Both verifiers' answers, and noble's default (ZIP-215) for contrast. */
async function answers(pub: string, sig: string) {
  return {
    retie: verifyHex(pub, unhex(MSG), sig),
    reference: await refVerify(pub, MSG, sig),
    zip215: await ed.verifyAsync(unhex(sig), unhex(MSG), unhex(pub)).catch(() => false),
  };
}

Deno.test("ed25519: a genuine signature verifies in both verifiers", async () => {
  const k = keyPairFromSeedHex(SEED);
  const sig = signHex(k, unhex(MSG));
  assert.deepEqual(await answers(k.publicKey, sig), { retie: true, reference: true, zip215: true });
});

Deno.test("ed25519: the identity key with an all-zero signature is refused (ZIP-215 accepts it)", async () => {
  const id = "01" + "00".repeat(31);
  assert.deepEqual(await answers(id, "00".repeat(64)), {
    retie: false,
    reference: false,
    zip215: true,
  });
  assert.match(ed25519Problem(id, "00".repeat(64))!, /small order/);
});

Deno.test("ed25519: non-canonical encodings of keys are refused", async () => {
  // y = p + 1 (the identity, non-canonically), and y = 1 with the sign bit set.
  for (const pub of ["ee" + "ff".repeat(30) + "7f", "01" + "00".repeat(30) + "80"]) {
    const a = await answers(pub, "00".repeat(64));
    assert.equal(a.retie, false, pub);
    assert.equal(a.reference, false, pub);
    assert.match(ed25519Problem(pub, "00".repeat(64))!, /non-canonical/);
  }
});

Deno.test("ed25519: S + L (a malleated signature) is refused", async () => {
  const k = keyPairFromSeedHex(SEED);
  const sig = unhex(signHex(k, unhex(MSG)));
  const s = le(sig.subarray(32)) + L;
  if (s >= 1n << 256n) return; // cannot be encoded: nothing to test for this vector
  const bad = hex(sig.subarray(0, 32)) + hex(toLe(s));
  assert.deepEqual(await answers(k.publicKey, bad), {
    retie: false,
    reference: false,
    zip215: false,
  });
});

Deno.test("ed25519: a signature whose R has a small-order component (cofactored-only valid) is refused", async () => {
  // Signed by the key holder with R' = R + T (T of order 8): a cofactored verifier (ZIP-215)
  // accepts it, a cofactorless one does not; the spec is cofactorless, and both verifiers agree.
  const k = keyPairFromSeedHex(SEED);
  const h = await sha512(unhex(SEED));
  const head = h.slice(0, 32);
  head[0] &= 248;
  head[31] &= 127;
  head[31] |= 64;
  const a = le(head);
  const A = unhex(k.publicKey);
  const r = 123456789n;
  const T = ed.Point.fromBytes(
    unhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),
  );
  const R2 = ed.Point.BASE.multiply(r).add(T).toBytes();
  const kk = le(await sha512(new Uint8Array([...R2, ...A, ...unhex(MSG)]))) % L;
  const S = (r + kk * a) % L;
  const sig = hex(R2) + hex(toLe(S));
  assert.deepEqual(await answers(k.publicKey, sig), {
    retie: false,
    reference: false,
    zip215: true,
  });
});
