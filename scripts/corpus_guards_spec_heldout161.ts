/**
 * Held-out batch 161 of the guard-removal corpus: removals written by reading the security code of
 * projects not otherwise used by the corpus (robbert229/jwt, 99designs/basicauth-go, dgoogauth,
 * go-scp, plivo-python, mailgun.js, tinyhttp), chosen the way a careless refactor or an attacker
 * would weaken them, before any measurement. Reversed fixes were picked by commit message only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const RJ = "robbert229/jwt";
const RJA = "algorithms.go";
const BA = "99designs/basicauth-go";
const BAF = "basicauth.go";
const DG = "dgryski/dgoogauth";
const DGF = "googauth.go";
const GS = "bramvdbogaerde/go-scp";
const GSK = "auth/key.go";
const PL = "plivo/plivo-python";
const PLU = "plivo/utils/__init__.py";
const PLV = "plivo/utils/signature_v3.py";
const MG = "mailgun/mailgun.js";
const TH = "tinyhttp/tinyhttp";
const THS = "packages/cookie-signature/src/index.ts";
const THP = "packages/proxy-addr/src/index.ts";
const THR = "packages/app/src/request.ts";
const THC = "packages/cookie/src/index.ts";
const PLB = "plivo/rest/base_client.py";
const PLJ = "plivo/utils/jwt.py";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker("heldout161");

/** Held-out batch 161 of edits (split `heldout161`). */
export const EDITS_HELDOUT161: GuardEdit[] = [
  // ---- robbert229/jwt (Go)
  E(
    "rj-signature-step-dropped",
    RJ,
    RJA,
    "token",
    '\tif err = a.validateSignature(encoded); err != nil {\n\t\terr = errors.Wrap(err, "failed to validate signature")\n\t\treturn\n\t}\n\n',
    "",
  ),
  E(
    "rj-expiry-commented",
    RJ,
    RJA,
    "token",
    '\t\tif exp.Before(time.Now()) {\n\t\t\treturn errors.New("token has expired")\n\t\t}\n',
    '\t\t// if exp.Before(time.Now()) {\n\t\t// \treturn errors.New("token has expired")\n\t\t// }\n\t\t_ = exp\n',
  ),
  E(
    "rj-nbf-result-ignored",
    RJ,
    RJA,
    "token",
    '\tif err = a.validateNbf(claims); err != nil {\n\t\terr = errors.Wrap(err, "failed to validate nbf")\n\t}\n',
    "\t_ = a.validateNbf(claims)\n",
  ),
  E(
    "rj-validate-decodes-only",
    RJ,
    RJA,
    "token",
    "\t_, err := a.DecodeAndValidate(encoded)\n",
    "\t_, err := a.Decode(encoded)\n",
  ),
  E(
    "rj-mac-prefix-compare",
    RJ,
    RJA,
    "token",
    "\tif !hmac.Equal([]byte(b64Signature), []byte(b64SignedAttempt)) {\n",
    "\tif !strings.HasPrefix(b64SignedAttempt, b64Signature) {\n",
  ),
  E(
    "rj-nbf-day-leeway",
    RJ,
    RJA,
    "token",
    "\t\tif nbf.After(time.Now()) {\n",
    "\t\tif nbf.After(time.Now().Add(24 * time.Hour)) {\n",
  ),
  // ---- 99designs/basicauth-go (Go)
  E(
    "ba-missing-header-passes",
    BA,
    BAF,
    "authn-branch",
    "\t\t\tif !ok {\n\t\t\t\tunauthorized(w, realm)\n\t\t\t\treturn\n\t\t\t}\n",
    "\t\t\tif !ok {\n\t\t\t\tnext.ServeHTTP(w, r)\n\t\t\t\treturn\n\t\t\t}\n",
  ),
  E(
    "ba-plain-compare",
    BA,
    BAF,
    "credential",
    "\t\t\t\tvalidPasswordBytes := []byte(validPassword)\n\t\t\t\tpasswordBytes := []byte(password)\n\t\t\t\t// take the same amount of time if the lengths are different\n\t\t\t\t// this is required since ConstantTimeCompare returns immediately when slices of different length are compared\n\t\t\t\tif len(password) != len(validPassword) {\n\t\t\t\t\tsubtle.ConstantTimeCompare(validPasswordBytes, validPasswordBytes)\n\t\t\t\t} else {\n\t\t\t\t\tif subtle.ConstantTimeCompare(passwordBytes, validPasswordBytes) == 1 {\n\t\t\t\t\t\tnext.ServeHTTP(w, r)\n\t\t\t\t\t\treturn\n\t\t\t\t\t}\n\t\t\t\t}\n",
    "\t\t\t\tif password == validPassword {\n\t\t\t\t\tnext.ServeHTTP(w, r)\n\t\t\t\t\treturn\n\t\t\t\t}\n",
  ),
  E(
    "ba-known-user-fallthrough",
    BA,
    BAF,
    "authn-branch",
    "\t\t\t}\n\n\t\t\tunauthorized(w, realm)\n\t\t})\n",
    "\t\t\t}\n\n\t\t\tnext.ServeHTTP(w, r)\n\t\t})\n",
  ),
  E(
    "ba-unknown-user-empty-list",
    BA,
    BAF,
    "authn-branch",
    "\t\t\tvalidPasswords, userFound := credentials[username]\n\t\t\tif !userFound {\n\t\t\t\tunauthorized(w, realm)\n\t\t\t\treturn\n\t\t\t}\n",
    '\t\t\tvalidPasswords, userFound := credentials[username]\n\t\t\tif !userFound {\n\t\t\t\tvalidPasswords = []string{""}\n\t\t\t}\n',
  ),
  // ---- dgryski/dgoogauth (Go)
  E(
    "dg-scratch-any-code",
    DG,
    DGF,
    "credential",
    "\tif scratch {\n\t\treturn c.checkScratchCodes(code), nil\n\t}\n",
    "\tif scratch {\n\t\treturn true, nil\n\t}\n",
  ),
  E(
    "dg-hotp-counter-kept",
    DG,
    DGF,
    "credential",
    "\t\t\tc.HotpCounter += i + 1\n",
    "",
  ),
  E(
    "dg-totp-last-digits",
    DG,
    DGF,
    "credential",
    "\t\tif ComputeCode(c.Secret, int64(t)) == code {\n",
    "\t\tif ComputeCode(c.Secret, int64(t))%1000 == code%1000 {\n",
  ),
  E(
    "dg-format-check-lenient",
    DG,
    DGF,
    "authn-branch",
    "\tcode, err := strconv.Atoi(password)\n\n\tif err != nil {\n\t\treturn false, ErrInvalidCode\n\t}\n",
    "\tcode, _ := strconv.Atoi(password)\n",
  ),
  // ---- bramvdbogaerde/go-scp (Go)
  E(
    "gs-agent-ignores-host-key",
    GS,
    GSK,
    "secure-default",
    "\t\t\tssh.PublicKeysCallback(agentClient.Signers),\n\t\t},\n\t\tHostKeyCallback: keyCallBack,\n",
    "\t\t\tssh.PublicKeysCallback(agentClient.Signers),\n\t\t},\n\t\tHostKeyCallback: ssh.InsecureIgnoreHostKey(),\n",
  ),
  E(
    "gs-password-ignores-host-key",
    GS,
    GSK,
    "secure-default",
    "\t\t\tssh.Password(password),\n\t\t},\n\t\tHostKeyCallback: keyCallBack,\n",
    "\t\t\tssh.Password(password),\n\t\t},\n\t\tHostKeyCallback: ssh.InsecureIgnoreHostKey(),\n",
  ),
  // ---- plivo/plivo-python (Python)
  E(
    "pl-v2-prefix-match",
    PL,
    PLU,
    "credential",
    "                         .digest()).strip() == signature\n",
    "                         .digest()).strip().startswith(signature)\n",
  ),
  E(
    "plp-v3-any-signature",
    PL,
    PLV,
    "credential",
    "    return signature in v3_signature.split(b',')\n",
    "    return signature in v3_signature.split(b',') or len(v3_signature) > 0\n",
  ),
  E(
    "pl-v3-nonce-unbound",
    PL,
    PLV,
    "token",
    "    base_url = bytearray('{}.{}'.format(string_format(base_url), string_format(nonce)), 'utf-8')\n",
    "    base_url = bytearray(string_format(base_url), 'utf-8')\n",
  ),
  // ---- mailgun/mailgun.js (TS)
  E(
    "mg-default-url-plain-http",
    MG,
    "lib/Classes/MailgunClient.ts",
    "secure-default",
    "      config.url = 'https://api.mailgun.net';\n",
    "      config.url = 'http://api.mailgun.net';\n",
  ),
  // ---- tinyhttp/tinyhttp (TS)
  E(
    "th-unsign-length-only",
    TH,
    THS,
    "credential",
    "  return timingSafeEqual(macBuffer, valBuffer) ? str : false\n",
    "  return macBuffer.length === Buffer.byteLength(val) ? str : false\n",
  ),
  E(
    "th-trust-none-flipped",
    TH,
    THP,
    "secure-default",
    "const trustNone = () => false\n",
    "const trustNone = () => true\n",
  ),
  E(
    "th-untrusted-hop-not-cut",
    TH,
    THP,
    "authz",
    "    if (trust(addrs[i], i)) continue\n    addrs.length = i + 1\n",
    "    if (trust(addrs[i], i)) continue\n",
  ),
  E(
    "th-forwarded-proto-untrusted",
    TH,
    THR,
    "secure-default",
    "  if (!trustRemoteAddress(req, trust)) return proto\n\n",
    "",
  ),
  E(
    "th-forwarded-host-any-peer",
    TH,
    THR,
    "secure-default",
    "  if (trustRemoteAddress(req, trust)) {\n    const forwardedHost = getForwardedHeaderHostString(req)\n    if (forwardedHost) return forwardedHost\n  }\n",
    "  const forwardedHost = getForwardedHeaderHostString(req)\n  if (forwardedHost) return forwardedHost\n",
  ),
  E(
    "th-cookie-secure-commented",
    TH,
    THC,
    "secure-default",
    "  if (opt.secure) str += '; Secure'\n",
    "  // if (opt.secure) str += '; Secure'\n",
  ),
  E(
    "th-cookie-httponly-dropped",
    TH,
    THC,
    "secure-default",
    "  if (opt.httpOnly) str += '; HttpOnly'\n\n",
    "",
  ),
  E(
    "th-trust-proxy-default-hop",
    TH,
    "packages/app/src/app.ts",
    "secure-default",
    "      'trust proxy': 0,\n",
    "      'trust proxy': 1,\n",
  ),
  // ---- plivo/plivo-python (Python), client and token
  E(
    "pl-auth-id-format-unchecked",
    PL,
    PLB,
    "authn-branch",
    "    if not (is_valid_mainaccount(auth_id) or is_valid_subaccount(auth_id)):\n        raise AuthenticationError('Invalid auth_id supplied: %s' % auth_id)\n\n",
    "",
  ),
  E(
    "pl-missing-credentials-swallowed",
    PL,
    PLB,
    "authn-branch",
    "        except KeyError:\n            raise AuthenticationError('The Plivo Python SDK '\n                                      'could not find your auth credentials.')\n",
    "        except KeyError:\n            pass\n",
  ),
  E(
    "pl-token-lifetime-unbounded",
    PL,
    PLJ,
    "token",
    "                    check(lambda lifetime: 180 <= lifetime <= 86400,\n",
    "                    check(lambda lifetime: 180 <= lifetime,\n",
  ),
  E(
    "pl-valid-till-range-dropped",
    PL,
    PLJ,
    "token",
    '            if self.lifetime < 180 or self.lifetime > 86400:\n                raise ValidationError(\n                    "validity of %s seconds is out of permitted range [180, 86400]" %\n                    self.lifetime)\n',
    "",
  ),
  E(
    "mg-api-key-optional",
    MG,
    "lib/Classes/MailgunClient.ts",
    "authn-branch",
    "    if (!config.key) {\n      throw new Error('Parameter \"key\" is required');\n    }\n\n",
    "",
  ),
  E(
    "dg-reuse-list-not-consulted",
    DG,
    DGF,
    "token",
    "\t\t\t\tfor _, timeCode := range c.DisallowReuse {\n\t\t\t\t\tif timeCode == t {\n\t\t\t\t\t\treturn false\n\t\t\t\t\t}\n\t\t\t\t}\n\n",
    "",
  ),
  E(
    "th-non-ip-peer-trusted",
    TH,
    THP,
    "authz",
    "    if (!isip(addr)) return false\n",
    "    if (!isip(addr)) return true\n",
  ),
  E(
    "th-hops-one-extra",
    TH,
    THP,
    "authz",
    "  return (_, i) => i < hops\n",
    "  return (_, i) => i <= hops\n",
  ),
  E(
    "th-zero-prefix-accepted",
    TH,
    THP,
    "authz",
    "  if (range == null || range <= 0 || range > max) throw new TypeError(`invalid range on address: ${note}`)\n",
    "  if (range == null || range < 0 || range > max) throw new TypeError(`invalid range on address: ${note}`)\n",
  ),
];

/** Reversed real fixes of batch 161 (split `history161`). */
export const REVERSED_FIXES_HISTORY161: ReversedFix[] = [
  {
    id: "rj-timing-mac-compare",
    repo: RJ,
    commit: "eddce24",
    path: RJA,
    cls: "credential",
    note: "spoil timing side-channel attack when comparing macs",
    split: "history161",
  },
  {
    id: "rj-three-parts-check",
    repo: RJ,
    commit: "c9dd026",
    path: RJA,
    cls: "token",
    note: "check the token to have 3 parts present upon decoding",
    split: "history161",
  },
  {
    id: "ba-constant-time",
    repo: BA,
    commit: "8706088",
    path: BAF,
    cls: "credential",
    note: "fix timing attack: use constant time comparison",
    split: "history161",
  },
  {
    id: "pl-v3-signature-validation",
    repo: PL,
    commit: "7c6e0ae",
    path: PLV,
    cls: "credential",
    note: "fixed the signature validation when a different language is present",
    split: "history161",
  },
];
