/**
 * Batch 88 of the held-out guard-removal corpus: removals written by reading the security code of
 * projects not otherwise used by the corpus (mochi-mqtt, nebula, maddy, kataras/jwt, go-imap and
 * others), chosen the way a careless refactor or an attacker would weaken them, before any
 * measurement. Reversed fixes were picked by commit message or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const MQ = "mochi-mqtt/server";
const MQL = "hooks/auth/ledger.go";
const MQS = "server.go";
const NB = "slackhq/nebula";
const NBP = "cert/ca_pool.go";
const NBF = "firewall.go";
const MD = "foxcpp/maddy";
const MDH = "internal/auth/pass_table/hash.go";
const MDS = "internal/auth/shadow/module.go";
const KJ = "kataras/jwt";
const GI = "emersion/go-imap";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker("heldout88");

/** Held-out batch 88 of edits (split `heldout88`). */
export const EDITS_HELDOUT88: GuardEdit[] = [
  // ---- mochi-mqtt/server (Go)
  E(
    "mq-ledger-user-password-dropped",
    MQ,
    MQL,
    "credential",
    '\t\tif u, ok := l.Users[string(cl.Properties.Username)]; ok &&\n\t\t\tu.Password != "" &&\n\t\t\tu.Password == RString(pk.Connect.Password) {\n',
    "\t\tif u, ok := l.Users[string(cl.Properties.Username)]; ok {\n",
  ),
  E(
    "mq-ledger-user-acl-deny-becomes-allow",
    MQ,
    MQL,
    "authz",
    "\t\t\t\t\t} else {\n\t\t\t\t\t\treturn n, false\n\t\t\t\t\t}\n",
    "\t\t\t\t\t} else {\n\t\t\t\t\t\treturn n, true\n\t\t\t\t\t}\n",
  ),
  E(
    "mq-ledger-rule-explicit-deny-removed",
    MQ,
    MQL,
    "authz",
    "\t\t\tfor filter := range rule.Filters {\n\t\t\t\tif filter.FilterMatches(topic) {\n\t\t\t\t\treturn n, false\n\t\t\t\t}\n\t\t\t}\n",
    "",
  ),
  E(
    "mq-connect-auth-failure-logged-only",
    MQ,
    MQS,
    "authn-branch",
    '\tif !s.hooks.OnConnectAuthenticate(cl, pk) { // [MQTT-3.1.4-2]\n\t\terr := s.SendConnack(cl, packets.ErrBadUsernameOrPassword, false, nil)\n\t\tif err != nil {\n\t\t\treturn fmt.Errorf("invalid connection send ack: %w", err)\n\t\t}\n\n\t\treturn packets.ErrBadUsernameOrPassword\n\t}\n',
    '\tif !s.hooks.OnConnectAuthenticate(cl, pk) { // [MQTT-3.1.4-2]\n\t\ts.Log.Warn("client failed authentication", "client", cl.ID)\n\t}\n',
  ),
  E(
    "mq-publish-acl-qos0-skipped",
    MQ,
    MQS,
    "authz",
    "\tif !cl.Net.Inline && !s.hooks.OnACLCheck(cl, pk.TopicName, true) {\n\t\tif pk.FixedHeader.Qos == 0 {\n\t\t\treturn nil\n\t\t}\n",
    "\tif !cl.Net.Inline && pk.FixedHeader.Qos > 0 && !s.hooks.OnACLCheck(cl, pk.TopicName, true) {\n",
  ),
  E(
    "mq-deliver-read-acl-removed",
    MQ,
    MQS,
    "authz",
    "\tout := pk.Copy(false)\n\tif !s.hooks.OnACLCheck(cl, pk.TopicName, false) {\n\t\treturn out, packets.ErrNotAuthorized\n\t}\n",
    "\tout := pk.Copy(false)\n",
  ),
  // ---- slackhq/nebula (Go)
  E(
    "nb-blocklist-not-consulted",
    NB,
    NBP,
    "token",
    "\tif ncp.IsBlocklisted(certFp) {\n\t\treturn nil, ErrBlockListed\n\t}\n\n\tsigner, err := ncp.GetCAForCert(c)\n",
    "\tsigner, err := ncp.GetCAForCert(c)\n",
  ),
  E(
    "nb-cert-expiry-ignored",
    NB,
    NBP,
    "token",
    "\tif c.Expired(now) {\n\t\treturn nil, ErrExpired\n\t}\n",
    "\t// expiry is enforced by the handshake timeout\n",
  ),
  E(
    "nb-signature-check-only-uncached",
    NB,
    NBP,
    "token",
    "\tif !c.CheckSignature(signer.Certificate.PublicKey()) {\n\t\treturn nil, ErrSignatureMismatch\n\t}\n",
    "\tif len(signerFp) > 0 && !c.CheckSignature(signer.Certificate.PublicKey()) {\n\t\treturn nil, ErrSignatureMismatch\n\t}\n",
  ),
  E(
    "nb-ca-constraints-error-dropped",
    NB,
    NBP,
    "authz",
    "\terr = CheckCAConstraints(signer.Certificate, c)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n",
    "\t_ = CheckCAConstraints(signer.Certificate, c)\n",
  ),
  E(
    "nb-remote-addr-cert-mismatch-allowed",
    NB,
    NBF,
    "authz",
    "\t\tif h.vpnAddrs[0] != fp.RemoteAddr {\n\t\t\tf.metrics(incoming).droppedRemoteAddr.Inc(1)\n\t\t\treturn ErrInvalidRemoteIP\n\t\t}\n",
    "\t\tif h.vpnAddrs[0] != fp.RemoteAddr {\n\t\t\tf.metrics(incoming).droppedRemoteAddr.Inc(1)\n\t\t}\n",
  ),
  E(
    "nb-no-matching-rule-passes",
    NB,
    NBF,
    "authz",
    "\tif !table.match(fp, incoming, h.ConnectionState.peerCert, caPool) {\n\t\tf.metrics(incoming).droppedNoRule.Inc(1)\n\t\treturn ErrNoMatchingRule\n\t}\n",
    "\tif !table.match(fp, incoming, h.ConnectionState.peerCert, caPool) {\n\t\tf.metrics(incoming).droppedNoRule.Inc(1)\n\t}\n",
  ),
  E(
    "nb-cert-notbefore-ignored",
    NB,
    "cert/cert_v1.go",
    "token",
    "\treturn c.details.notBefore.After(t) || c.details.notAfter.Before(t)\n",
    "\treturn c.details.notAfter.Before(t)\n",
  ),
  // ---- foxcpp/maddy (Go)
  E(
    "md-argon2-compare-inverted",
    MD,
    MDH,
    "credential",
    '\tpassHash := argon2.IDKey([]byte(pass), salt, uint32(time), uint32(memory), uint8(threads), Argon2Size)\n\tif subtle.ConstantTimeCompare(passHash, hash) != 1 {\n\t\treturn fmt.Errorf("pass_table: hash mismatch")\n\t}\n',
    '\tpassHash := argon2.IDKey([]byte(pass), salt, uint32(time), uint32(memory), uint8(threads), Argon2Size)\n\tif subtle.ConstantTimeCompare(passHash, hash) == -1 {\n\t\treturn fmt.Errorf("pass_table: hash mismatch")\n\t}\n',
  ),
  E(
    "md-sha256-compare-removed",
    MD,
    MDH,
    "credential",
    '\tsum := sha256.Sum256(hashInput)\n\n\tif subtle.ConstantTimeCompare(sum[:], hash) != 1 {\n\t\treturn fmt.Errorf("pass_table: hash mismatch")\n\t}\n\treturn nil\n',
    "\t_ = sha256.Sum256(hashInput)\n\n\treturn nil\n",
  ),
  E(
    "md-bcrypt-error-swallowed",
    MD,
    MDH,
    "credential",
    "\treturn bcrypt.CompareHashAndPassword([]byte(hashSalt), []byte(pass))\n",
    "\tif err := bcrypt.CompareHashAndPassword([]byte(hashSalt), []byte(pass)); err != nil && err != bcrypt.ErrMismatchedHashAndPassword {\n\t\treturn err\n\t}\n\treturn nil\n",
  ),
  E(
    "md-shadow-account-expiry-removed",
    MD,
    MDS,
    "authn-branch",
    '\tif !ent.IsAccountValid() {\n\t\treturn fmt.Errorf("shadow: account is expired")\n\t}\n\n',
    "",
  ),
  E(
    "md-shadow-password-expiry-commented",
    MD,
    MDS,
    "authn-branch",
    '\tif !ent.IsPasswordValid() {\n\t\treturn fmt.Errorf("shadow: password is expired")\n\t}\n',
    '\t// if !ent.IsPasswordValid() {\n\t// \treturn fmt.Errorf("shadow: password is expired")\n\t// }\n',
  ),
  E(
    "md-shadow-locked-password-allowed",
    MD,
    "internal/auth/shadow/verify.go",
    "authn-branch",
    "\tif e.Pass[0] == '!' {\n\t\treturn errors.New(\"verify: locked password\")\n\t}\n",
    "",
  ),
  E(
    "md-ldap-bind-failure-ignored",
    MD,
    "internal/auth/ldap/ldap.go",
    "credential",
    "\tif err := conn.Bind(userDN, password); err != nil {\n\t\treturn module.ErrUnknownCredentials\n\t}\n",
    '\tif err := conn.Bind(userDN, password); err != nil {\n\t\ta.log.Error("bind failed", err, "dn", userDN)\n\t}\n',
  ),
  E(
    "md-submission-auth-not-required",
    MD,
    "internal/endpoint/smtp/session.go",
    "authn-branch",
    '\tif s.endp.authAlwaysRequired && s.connState.AuthUser == "" {\n\t\treturn smtp.ErrAuthRequired\n\t}\n\n',
    "",
  ),
  E(
    "md-insecure-auth-default-on",
    MD,
    "internal/endpoint/smtp/smtp.go",
    "secure-default",
    '\tcfg.Bool("insecure_auth", endp.name == "lmtp", false, &endp.serv.AllowInsecureAuth)\n',
    '\tcfg.Bool("insecure_auth", endp.name == "lmtp", true, &endp.serv.AllowInsecureAuth)\n',
  ),
  // ---- kataras/jwt (Go)
  E(
    "kj-signature-verify-skipped",
    KJ,
    "token.go",
    "token",
    "\theaderPayload := joinParts(header, payload)\n\tif err := alg.Verify(key, headerPayload, signatureDecoded); err != nil {\n\t\treturn nil, nil, nil, err\n\t}\n",
    "\t_ = joinParts(header, payload)\n",
  ),
  E(
    "kj-hmac-equal-negation-dropped",
    KJ,
    "hmac.go",
    "token",
    "\tif !hmac.Equal(expectedSignature, signature) {\n",
    "\tif len(expectedSignature) == 0 && !hmac.Equal(expectedSignature, signature) {\n",
  ),
  E(
    "kj-expiry-not-checked",
    KJ,
    "claims.go",
    "token",
    "\tif claims.Expiry > 0 {\n\t\tif now > claims.Expiry {\n\t\t\treturn ErrExpired\n\t\t}\n\t}\n\n\treturn nil\n",
    "\treturn nil\n",
  ),
  E(
    "kj-nbf-comparison-inverted",
    KJ,
    "claims.go",
    "token",
    "\t\tif now < claims.NotBefore {\n",
    "\t\tif now > claims.NotBefore {\n",
  ),
  E(
    "kj-expected-issuer-removed",
    KJ,
    "expected.go",
    "token",
    '\tif v := e.Issuer; v != "" {\n\t\tif v != c.Issuer {\n\t\t\treturn fmt.Errorf("%w: iss", ErrExpected)\n\t\t}\n\t}\n\n',
    "",
  ),
  E(
    "kj-expected-audience-length-only",
    KJ,
    "expected.go",
    "token",
    '\t\tfor i := range c.Audience {\n\t\t\tif v := e.Audience[i]; v != c.Audience[i] {\n\t\t\t\treturn fmt.Errorf("%w: aud (%q)", ErrExpected, v)\n\t\t\t}\n\t\t}\n',
    "",
  ),
  E(
    "kj-blocklist-check-removed",
    KJ,
    "blocklist.go",
    "token",
    "\tif has, _ := b.Has(key); has {\n\t\treturn ErrBlocked\n\t}\n\n\treturn nil\n",
    "\treturn nil\n",
  ),
  // ---- emersion/go-imap (Go)
  E(
    "gi-login-tls-requirement-removed",
    GI,
    "imapserver/login.go",
    "secure-default",
    '\tif !c.canAuth() {\n\t\treturn &imap.Error{\n\t\t\tType: imap.StatusResponseTypeNo,\n\t\t\tCode: imap.ResponseCodePrivacyRequired,\n\t\t\tText: "TLS is required to authenticate",\n\t\t}\n\t}\n\tif err := c.session.Login(username, password); err != nil {\n',
    "\tif err := c.session.Login(username, password); err != nil {\n",
  ),
  E(
    "gi-login-error-ignored",
    GI,
    "imapserver/login.go",
    "authn-branch",
    "\tif err := c.session.Login(username, password); err != nil {\n\t\treturn err\n\t}\n\tc.state = imap.ConnStateAuthenticated\n",
    "\t_ = c.session.Login(username, password)\n\tc.state = imap.ConnStateAuthenticated\n",
  ),
  E(
    "gi-canauth-always-plaintext",
    GI,
    "imapserver/conn.go",
    "secure-default",
    "\treturn isTLS || c.server.options.InsecureAuth\n",
    "\treturn isTLS || !c.server.options.InsecureAuth\n",
  ),
  E(
    "gi-memserver-username-unchecked",
    GI,
    "imapserver/imapmemserver/user.go",
    "credential",
    "\tif username != u.username {\n\t\treturn imapserver.ErrAuthFailed\n\t}\n\tif subtle.ConstantTimeCompare([]byte(password), []byte(u.password)) != 1 {\n",
    "\tif subtle.ConstantTimeCompare([]byte(password), []byte(u.password)) != 1 {\n",
  ),
  E(
    "gi-memserver-password-short-circuit",
    GI,
    "imapserver/imapmemserver/user.go",
    "credential",
    "\tif subtle.ConstantTimeCompare([]byte(password), []byte(u.password)) != 1 {\n\t\treturn imapserver.ErrAuthFailed\n\t}\n\treturn nil\n",
    '\tif u.password != "" && subtle.ConstantTimeCompare([]byte(password), []byte(u.password)) != 1 {\n\t\treturn imapserver.ErrAuthFailed\n\t}\n\treturn nil\n',
  ),
];

/** Reversed real security fixes of batch 88 (split `history88`), chosen by message only. */
export const REVERSED_FIXES_HISTORY88: ReversedFix[] = [];
