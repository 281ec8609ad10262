import assert from "node:assert/strict";
import { chmodSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  generateKeyPair,
  keyPairFromSeedHex,
  loadOrCreateUserKey,
  signHex,
  USER_KEY_FILE,
  verifyHex,
} from "../../src/ledger/keys.ts";
import { RetieError } from "../../src/core/errors.ts";

Deno.test("keys: sign/verify round trip; tampered message, signature or key fail", () => {
  const k = generateKeyPair();
  assert.match(k.publicKey, /^[0-9a-f]{64}$/);
  const sig = signHex(k, "hello");
  assert.match(sig, /^[0-9a-f]{128}$/);
  assert.equal(verifyHex(k.publicKey, "hello", sig), true);
  assert.equal(verifyHex(k.publicKey, new TextEncoder().encode("hello"), sig), true);
  assert.equal(verifyHex(k.publicKey, "hellp", sig), false);
  const flipped = (sig[0] === "0" ? "1" : "0") + sig.slice(1);
  assert.equal(verifyHex(k.publicKey, "hello", flipped), false);
  assert.equal(verifyHex(generateKeyPair().publicKey, "hello", sig), false);
  assert.equal(verifyHex("zz", "hello", sig), false);
  assert.equal(verifyHex(k.publicKey, "hello", "abc"), false);
});

Deno.test("keys: RFC 8032 test vector 1 (empty message) from the seed", () => {
  const k = keyPairFromSeedHex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
  assert.equal(k.publicKey, "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
  assert.equal(
    signHex(k, new Uint8Array(0)),
    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
  );
});

Deno.test("keys: user key is created 0600 in a 0700 dir and reloaded unchanged", () => {
  const dir = join(Deno.makeTempDirSync(), "config", "retie");
  const a = loadOrCreateUserKey(dir);
  const file = join(dir, USER_KEY_FILE);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  const b = loadOrCreateUserKey(dir);
  assert.equal(b.publicKey, a.publicKey);
  assert.equal(verifyHex(a.publicKey, "x", signHex(b, "x")), true);
});

Deno.test("keys: a user key others can read is refused with a chmod hint", () => {
  const dir = Deno.makeTempDirSync();
  loadOrCreateUserKey(dir);
  const file = join(dir, USER_KEY_FILE);
  chmodSync(file, 0o644);
  assert.throws(() => loadOrCreateUserKey(dir), (e: unknown) => {
    assert.ok(e instanceof RetieError);
    assert.match(e.message, /group or others can read it \(mode 644\)/);
    assert.match(e.hint ?? "", /chmod 600/);
    return true;
  });
  chmodSync(file, 0o640);
  assert.throws(() => loadOrCreateUserKey(dir), /group or others/);
});

Deno.test("keys: a damaged user key file is refused, not replaced", () => {
  const dir = Deno.makeTempDirSync();
  const file = join(dir, USER_KEY_FILE);
  writeFileSync(file, "not json", { mode: 0o600 });
  assert.throws(() => loadOrCreateUserKey(dir), /not JSON/);
  writeFileSync(
    file,
    JSON.stringify({
      format: "retie-user-key/v1",
      publicKey: "00".repeat(32),
      privateKey: "01".repeat(32),
    }),
  );
  assert.throws(() => loadOrCreateUserKey(dir), /disagree/);
});

Deno.test("keys: two processes creating the user key at once end up with one key", async () => {
  const dir = Deno.makeTempDirSync();
  const code = `import { loadOrCreateUserKey } from ${
    JSON.stringify(new URL("../../src/ledger/keys.ts", import.meta.url).href)
  }; console.log(loadOrCreateUserKey(${JSON.stringify(dir)}).publicKey);`;
  const run = () =>
    new Deno.Command(Deno.execPath(), { args: ["eval", "--ext=ts", code], stdout: "piped" })
      .output();
  const outs = await Promise.all([run(), run(), run()]);
  const keys = outs.map((o) => new TextDecoder().decode(o.stdout).trim());
  assert.equal(keys[0].length, 64);
  assert.deepEqual(new Set(keys).size, 1);
  assert.equal(loadOrCreateUserKey(dir).publicKey, keys[0]);
});
