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
const VG = "versity/versitygw";
const VGA = "s3api/middlewares/authentication.go";
const VGC = "auth/access-control.go";
const SS = "supabase/storage";
const SSJ = "src/internal/auth/jwt.ts";
const SSP = "src/http/plugins/jwt.ts";
const SSV = "src/http/plugins/signature-v4.ts";
const BL = "0xERR0R/blocky";
const BLC = "config/config.go";

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
  // ---- mochi-mqtt/server (Go), continued
  E(
    "mq-subscribe-acl-removed",
    MQ,
    MQS,
    "authz",
    "\t\t} else if !s.hooks.OnACLCheck(cl, sub.Filter, false) {\n\t\t\treasonCodes[i] = packets.ErrNotAuthorized.Code\n\t\t\tif s.Options.Capabilities.Compatibilities.ObscureNotAuthorized {\n\t\t\t\treasonCodes[i] = packets.ErrUnspecifiedError.Code\n\t\t\t}\n",
    "\t\t} else if false {\n\t\t\treasonCodes[i] = packets.ErrNotAuthorized.Code\n\t\t\tif s.Options.Capabilities.Compatibilities.ObscureNotAuthorized {\n\t\t\t\treasonCodes[i] = packets.ErrUnspecifiedError.Code\n\t\t\t}\n",
  ),
  E(
    "mq-hook-auth-failure-returns-true",
    MQ,
    "hooks/auth/auth.go",
    "authn-branch",
    '\th.Log.Info("client failed authentication check",\n\t\t"username", string(pk.Connect.Username),\n\t\t"remote", cl.Net.Remote)\n\treturn false\n',
    '\th.Log.Info("client failed authentication check",\n\t\t"username", string(pk.Connect.Username),\n\t\t"remote", cl.Net.Remote)\n\treturn true\n',
  ),
  // ---- slackhq/nebula (Go), continued
  E(
    "nb-disconnect-invalid-default-off",
    NB,
    "interface.go",
    "secure-default",
    '\t\tf.disconnectInvalid.Store(c.GetBool("pki.disconnect_invalid", true))\n',
    '\t\tf.disconnectInvalid.Store(c.GetBool("pki.disconnect_invalid", false))\n',
  ),
  // ---- emersion/go-imap (Go), continued
  E(
    "gi-client-tls-verify-skipped",
    GI,
    "imapclient/client.go",
    "secure-default",
    '\tif tlsConfig.ServerName == "" {\n\t\ttlsConfig.ServerName = host\n\t}\n',
    '\tif tlsConfig.ServerName == "" {\n\t\ttlsConfig.InsecureSkipVerify = true\n\t}\n',
  ),
  E(
    "gi-sasl-identity-impersonation",
    GI,
    "imapserver/authenticate.go",
    "authz",
    '\t\t\tif identity != "" && identity != username {\n\t\t\t\treturn &imap.Error{\n\t\t\t\t\tType: imap.StatusResponseTypeNo,\n\t\t\t\t\tCode: imap.ResponseCodeAuthorizationFailed,\n\t\t\t\t\tText: "SASL identity not supported",\n\t\t\t\t}\n\t\t\t}\n\t\t\treturn c.session.Login(username, password)\n',
    '\t\t\tif identity != "" {\n\t\t\t\tusername = identity\n\t\t\t}\n\t\t\treturn c.session.Login(username, password)\n',
  ),
  // ---- versity/versitygw (Go)
  E(
    "vg-admin-role-check-removed",
    VG,
    "s3api/middlewares/admin.go",
    "authz",
    "\t\tacct := utils.ContextKeyAccount.Get(ctx).(auth.Account)\n\t\tif acct.Role != auth.RoleAdmin {\n\t\t\treturn s3err.GetAPIError(s3err.ErrAdminAccessDenied)\n\t\t}\n",
    "\t\t_ = utils.ContextKeyAccount.Get(ctx).(auth.Account)\n",
  ),
  E(
    "vg-sigv4-compare-weakened",
    VG,
    "s3api/utils/auth-reader.go",
    "credential",
    "\tif auth.Signature != genAuth.Signature {\n",
    '\tif auth.Signature == "" {\n',
  ),
  E(
    "vg-date-skew-not-validated",
    VG,
    VGA,
    "token",
    "\t\t// Validate the dates difference\n\t\terr = utils.ValidateDate(tdate)\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\n",
    "",
  ),
  E(
    "vg-credential-date-mismatch-ignored",
    VG,
    VGA,
    "token",
    "\t\tif date[:8] != authData.Date {\n\t\t\treturn s3err.MalformedAuth.DateMismatch()\n\t\t}\n",
    "\t\t// if date[:8] != authData.Date {\n\t\t// \treturn s3err.MalformedAuth.DateMismatch()\n\t\t// }\n",
  ),
  E(
    "vg-missing-authorization-passes",
    VG,
    VGA,
    "authn-branch",
    '\t\tauthorization := ctx.Get("Authorization")\n\t\tif authorization == "" {\n\t\t\treturn s3err.GetInvalidArgumentErr(s3err.InvalidArgAuthHeader, authorization)\n\t\t}\n',
    '\t\tauthorization := ctx.Get("Authorization")\n\t\tif authorization == "" {\n\t\t\treturn nil\n\t\t}\n',
  ),
  E(
    "vg-readonly-write-allowed",
    VG,
    VGC,
    "authz",
    "\tif opts.Readonly {\n\t\tif opts.AclPermission == PermissionWrite || opts.AclPermission == PermissionWriteAcp {\n\t\t\treturn s3err.GetAPIError(s3err.ErrAccessDenied)\n\t\t}\n\t}\n",
    "",
  ),
  E(
    "vg-acl-disabled-owner-unchecked",
    VG,
    "auth/acl.go",
    "authz",
    "\t\tif acl.Owner != access {\n\t\t\treturn s3err.GetAPIError(s3err.ErrAccessDenied)\n\t\t}\n\n\t\treturn nil\n",
    "\t\treturn nil\n",
  ),
  E(
    "vg-ldap-tls-skip-verify-default-on",
    VG,
    "cmd/versitygw/main.go",
    "secure-default",
    '\t\t\tEnvVars:     []string{"VGW_IAM_LDAP_TLS_SKIP_VERIFY"},\n\t\t\tDestination: &ldapTLSSkipVerify,\n',
    '\t\t\tEnvVars:     []string{"VGW_IAM_LDAP_TLS_SKIP_VERIFY"},\n\t\t\tValue:       true,\n\t\t\tDestination: &ldapTLSSkipVerify,\n',
  ),
  // ---- supabase/storage (TypeScript)
  E(
    "ss-admin-apikey-membership-dropped",
    SS,
    "src/http/plugins/apikey.ts",
    "credential",
    "      if (typeof request.headers.apikey !== 'string' || !apiKeys.has(request.headers.apikey)) {\n",
    "      if (typeof request.headers.apikey !== 'string') {\n",
  ),
  E(
    "ss-jwt-algorithms-unrestricted",
    SS,
    SSJ,
    "token",
    "    const { payload } = await jwtVerify<T>(token, getJWTVerificationKey(secret, jwks || null), {\n      algorithms: getJWTAlgorithms(jwks || null),\n    })\n",
    "    const { payload } = await jwtVerify<T>(token, getJWTVerificationKey(secret, jwks || null))\n",
  ),
  E(
    "ss-jwk-alg-mismatch-tolerated",
    SS,
    SSJ,
    "token",
    '    if (!jwk && mismatchedJwk) {\n      throw ERRORS.AccessDenied(\n        `JWT algorithm "${header.alg}" does not match JWK algorithm "${mismatchedJwk.alg}"`\n      )\n    }\n',
    "    if (!jwk && mismatchedJwk) {\n      return getPreparedJWTVerificationKey(mismatchedJwk, header.alg)\n    }\n",
  ),
  E(
    "ss-jwt-cache-ignores-expiry",
    SS,
    SSJ,
    "token",
    "  if (cachedPayload && cachedPayload.exp && cachedPayload.exp * 1000 > Date.now()) {\n",
    "  if (cachedPayload) {\n",
  ),
  E(
    "ss-invalid-jwt-falls-back-to-anon",
    SS,
    SSP,
    "authn-branch",
    "        if (request.routeOptions.config.allowInvalidJwt) {\n          return\n        }\n        const err = e as Error\n        throw ERRORS.AccessDenied(err.message, err)\n",
    "        return\n",
  ),
  E(
    "ss-role-enforcer-skips-auth-check",
    SS,
    SSP,
    "authn-branch",
    "      if (!request.isAuthenticated) {\n        done(ERRORS.AccessDenied('Access denied: JWT is not authenticated').withStatusCode(403))\n        return\n      }\n\n",
    "",
  ),
  E(
    "ss-role-missing-allowed",
    SS,
    SSP,
    "authz",
    "      const hasRoles = request.jwtPayload?.role && opts.roles.includes(request.jwtPayload.role)\n",
    "      const hasRoles = !request.jwtPayload?.role || opts.roles.includes(request.jwtPayload.role)\n",
  ),
  E(
    "ss-sigv4-mismatch-without-session-allowed",
    SS,
    SSV,
    "credential",
    "  if (!isVerified && !sessionToken) {\n    throw ERRORS.SignatureDoesNotMatch(\n      'The request signature we calculated does not match the signature you provided. Check your key and signing method.'\n    )\n  }\n\n",
    "",
  ),
  E(
    "ss-sigv4-missing-claims-not-rejected",
    SS,
    SSV,
    "authn-branch",
    "    if (!claims) {\n      throw ERRORS.AccessDenied('Missing claims')\n    }\n\n",
    "",
  ),
  E(
    "ss-db-tls-verify-off-for-all-hosts",
    SS,
    "src/internal/database/postgres/ssl.ts",
    "secure-default",
    "  if (hostname && isIpAddress(hostname)) {\n",
    "  if (hostname) {\n",
  ),
  // ---- 0xERR0R/blocky (Go)
  E(
    "bl-min-tls-floor-lowered",
    BL,
    BLC,
    "secure-default",
    "\tminAllowed := tls.Config{MinVersion: tls.VersionTLS12}.MinVersion\n",
    "\tminAllowed := tls.Config{MinVersion: tls.VersionTLS10}.MinVersion\n",
  ),
  E(
    "bl-min-tls-serve-default-lowered",
    BL,
    BLC,
    "secure-default",
    '\tMinTLSServeVer TLSVersion `default:"1.2" yaml:"minTlsServeVersion"`\n',
    '\tMinTLSServeVer TLSVersion `default:"1.0" yaml:"minTlsServeVersion"`\n',
  ),
  // ---- MicahParks/keyfunc (Go)
  E(
    "kf-jwk-alg-mismatch-ignored",
    "MicahParks/keyfunc",
    "keyfunc.go",
    "token",
    '\t\tif a := jwk.Marshal().ALG.String(); a != "" && a != alg {\n\t\t\treturn nil, fmt.Errorf(`%w: JWK "alg" parameter value %q does not match token "alg" parameter value %q`, ErrKeyfunc, a, alg)\n\t\t}\n',
    "",
  ),
];

/** Reversed real security fixes of batch 88 (split `history88`), chosen by message only. */
export const REVERSED_FIXES_HISTORY88: ReversedFix[] = [
  {
    id: "nb-conntrack-before-cert-check",
    repo: NB,
    commit: "95d98b1f",
    path: "firewall.go",
    cls: "authz",
    note: "firewall: move conntrack check after cert+IP verification",
    split: "history88",
  },
  {
    id: "nb-parsev6-firewall-bypass",
    repo: NB,
    commit: "c1eea118",
    path: "outside.go",
    cls: "authz",
    note: "fix firewall port/proto bypass in parseV6 from uint8 extension-header length overflow",
    split: "history88",
  },
  {
    id: "nb-handshake-pubkey-coherency",
    repo: NB,
    commit: "2f71d6b2",
    path: "handshake_ix.go",
    cls: "authn-branch",
    note: "ensure the noise pubkey matches the cert pubkey after cert verification in handshakes",
    split: "history88",
  },
  {
    id: "md-GHSA-5835-4gvc-32pc",
    repo: MD,
    commit: "6a06337",
    path: "internal/auth/ldap/ldap.go",
    cls: "credential",
    note: "auth/ldap: fix GHSA-5835-4gvc-32pc (escape username in filter and DN template)",
    split: "history88",
  },
  {
    id: "bl-GHSA-x845-2f78-7v36",
    repo: BL,
    commit: "2496d125",
    path: "resolver/dnssec/validator.go",
    cls: "token",
    note: "close DNSSEC validation bypass & cache-scope pollution (GHSA-x845-2f78-7v36)",
    split: "history88",
  },
  {
    id: "kf-alg-check",
    repo: "MicahParks/keyfunc",
    commit: "5a2fb27",
    path: "keyfunc.go",
    cls: "token",
    note: "perform algorithm verification (alg_check)",
    split: "history88",
  },
  {
    id: "vg-policy-key-normalization",
    repo: VG,
    commit: "cd0b4e6d",
    path: "auth/bucket_policy.go",
    cls: "authz",
    note: "fix: normalize object keys during bucket policy evaluation",
    split: "history88",
  },
];
