/**
 * Worker of the parallel verifier: checks Ed25519 signatures of a batch of entries and answers with
 * the seqs whose signature does not verify.
 *
 * @module
 */
import { signatureOk } from "./verify.ts";

/** A batch of signatures to check. */
export interface SignatureBatch {
  id: number;
  seqs: number[];
  signers: string[];
  hashes: string[];
  signatures: string[];
}

/** The answer to a {@link SignatureBatch}. */
export interface SignatureVerdict {
  id: number;
  bad: { seq: number; signer: string }[];
}

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<SignatureBatch>) => void) | null;
  postMessage(m: SignatureVerdict): void;
};

scope.onmessage = (e) => {
  const b = e.data;
  const bad: SignatureVerdict["bad"] = [];
  for (let i = 0; i < b.seqs.length; i++) {
    if (!signatureOk({ signer: b.signers[i], hash: b.hashes[i], signature: b.signatures[i] })) {
      bad.push({ seq: b.seqs[i], signer: b.signers[i] });
    }
  }
  scope.postMessage({ id: b.id, bad });
};
