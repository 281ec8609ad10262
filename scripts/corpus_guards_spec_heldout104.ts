/**
 * Held-out batch 104 of the guard-removal corpus: removals written by reading the security code of
 * Go projects not otherwise used by the corpus (kube-rbac-proxy, pREST, Centrifugo, hmq,
 * sshportal, LiveKit protocol, Permify, aws-iam-authenticator, cloudflared, Fulcio, Warrant),
 * chosen the way a careless refactor or an attacker would weaken them, before any measurement.
 * Reversed fixes were picked by commit message or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const KRP = "brancz/kube-rbac-proxy";
const KRPF = "pkg/filters/auth.go";
const PR = "prest/prest";
const PRM = "middlewares/middlewares.go";
const PRA = "controllers/auth.go";
const CF = "centrifugal/centrifugo";
const CFJ = "internal/jwtverify/token_verifier_jwt.go";
const CFA = "internal/admin/handlers.go";
const HMQ = "fhmq/hmq";
const HMQH = "plugins/auth/authhttp/authhttp.go";
const SSP = "moul/sshportal";
const SSPS = "pkg/bastion/ssh.go";
const LK = "livekit/protocol";
const LKV = "auth/verifier.go";
const LKG = "auth/grants.go";
const PFY = "Permify/permify";
const PFYO = "internal/authn/openid/authn.go";
const AIA = "kubernetes-sigs/aws-iam-authenticator";
const AIAT = "pkg/token/token.go";
const CFD = "cloudflare/cloudflared";
const CFDJ = "ingress/middleware/jwtvalidator.go";
const CFDT = "token/token.go";
const FUL = "sigstore/fulcio";
const FULG = "pkg/server/grpc_server.go";
const WRT = "warrant-dev/warrant";
const WRTA = "pkg/service/auth.go";
const WRTC = "pkg/authz/check/service.go";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker("heldout104");

/** Held-out batch 104 of edits (split `heldout104`). */
export const EDITS_HELDOUT104: GuardEdit[] = [
  // ---- brancz/kube-rbac-proxy (Go)
  E(
    "krp-authn-not-ok-falls-through",
    KRP,
    KRPF,
    "authn-branch",
    '\t\tif !ok {\n\t\t\thttp.Error(w, "Unauthorized", http.StatusUnauthorized)\n\t\t\treturn\n\t\t}\n\n\t\treq = req.WithContext(request.WithUser(req.Context(), res.User))\n',
    "\n\t\treq = req.WithContext(request.WithUser(req.Context(), res.User))\n",
  ),
  E(
    "krp-authn-error-logged-only",
    KRP,
    KRPF,
    "authn-branch",
    '\t\t\tklog.Errorf("Unable to authenticate the request due to an error: %v", err)\n\t\t\thttp.Error(w, "Unauthorized", http.StatusUnauthorized)\n\t\t\treturn\n',
    '\t\t\tklog.Errorf("Unable to authenticate the request due to an error: %v", err)\n',
  ),
  E(
    "krp-authz-no-opinion-allows",
    KRP,
    KRPF,
    "authz",
    "\t\t\tif authorized != authorizer.DecisionAllow {\n",
    "\t\t\tif authorized == authorizer.DecisionDeny {\n",
  ),
  E(
    "krp-static-verb-ignored",
    KRP,
    "pkg/authz/auth.go",
    "authz",
    "\t\tisAllowed(saConfig.Verb, a.GetVerb()) &&\n",
    "",
  ),
  E(
    "krp-oidc-audience-dropped",
    KRP,
    "pkg/authn/oidc.go",
    "token",
    "\t\t\t\tURL:       config.IssuerURL,\n\t\t\t\tAudiences: []string{config.ClientID},\n",
    "\t\t\t\tURL: config.IssuerURL,\n",
  ),
  E(
    "krp-tls-min-version-lowered",
    KRP,
    "cmd/kube-rbac-proxy/app/options/options.go",
    "secure-default",
    '"tls-min-version", "VersionTLS12",',
    '"tls-min-version", "VersionTLS10",',
  ),
  E(
    "krp-upstream-verify-skipped",
    KRP,
    "cmd/kube-rbac-proxy/app/transport.go",
    "secure-default",
    "\t\tTLSClientConfig: &tls.Config{\n\t\t\tRootCAs: upstreamCAPool,\n\t\t},\n",
    "\t\tTLSClientConfig: &tls.Config{\n\t\t\tRootCAs:            upstreamCAPool,\n\t\t\tInsecureSkipVerify: true,\n\t\t},\n",
  ),
  E(
    "krp-user-missing-not-rejected",
    KRP,
    KRPF,
    "authn-branch",
    '\t\tu, ok := request.UserFrom(req.Context())\n\t\tif !ok {\n\t\t\thttp.Error(w, "user not in context", http.StatusBadRequest)\n\t\t\treturn\n\t\t}\n',
    "\t\tu, _ := request.UserFrom(req.Context())\n",
  ),
  // ---- prest/prest (Go)
  E(
    "prest-expiry-not-checked",
    PR,
    PRM,
    "token",
    "\tif c.Expiry != nil && time.Now().After(c.Expiry.Time()) {\n\t\treturn ErrJWTValidate\n\t}\n",
    "",
  ),
  E(
    "prest-claims-unverified",
    PR,
    PRM,
    "token",
    "\t\t\tif err := tok.Claims([]byte(settings.JWTKey), &claims); err != nil {\n",
    "\t\t\tif err := tok.UnsafeClaimsWithoutVerification(&claims); err != nil {\n",
  ),
  E(
    "prest-empty-token-passes",
    PR,
    PRM,
    "authn-branch",
    '\t\t\tif token == "" {\n\t\t\t\tslog.Error("authorization token is empty")\n\t\t\t\thttp.Error(rw, fmt.Sprintf(jsonErrFormat, ErrAuthIsEmpty.Error()), http.StatusUnauthorized)\n\t\t\t\treturn\n\t\t\t}\n',
    '\t\t\tif token == "" {\n\t\t\t\tnext(rw, r)\n\t\t\t\treturn\n\t\t\t}\n',
  ),
  E(
    "prest-table-perms-any-user",
    PR,
    PRM,
    "authz",
    '\t\tif perms.TablePermissions(mapPath["database"], mapPath["schema"], mapPath["table"], permission, userName) {\n',
    '\t\tif userName != "" || perms.TablePermissions(mapPath["database"], mapPath["schema"], mapPath["table"], permission, userName) {\n',
  ),
  E(
    "prest-bcrypt-compare-dropped",
    PR,
    PRA,
    "credential",
    "\tif isBcryptHash(stored) {\n\t\tif bcrypt.CompareHashAndPassword([]byte(stored), []byte(password)) != nil {\n\t\t\treturn ErrUserNotFound\n\t\t}\n\t\treturn nil\n\t}\n",
    "\tif isBcryptHash(stored) {\n\t\t_ = bcrypt.CompareHashAndPassword([]byte(stored), []byte(password))\n\t\treturn nil\n\t}\n",
  ),
  E(
    "prest-legacy-digest-length-only",
    PR,
    PRA,
    "credential",
    "\t\tif digest != stored {\n",
    "\t\tif len(digest) != len(stored) {\n",
  ),
  E(
    "prest-login-error-ignored",
    PR,
    PRA,
    "authn-branch",
    "\tloggedUser, err := h.basicPasswordCheck(strings.ToLower(login.Username), login.Password)\n\tif err != nil {\n\t\tjsonError(w, err.Error(), http.StatusUnauthorized)\n\t\treturn\n\t}\n",
    "\tloggedUser, _ := h.basicPasswordCheck(strings.ToLower(login.Username), login.Password)\n",
  ),
  // ---- centrifugal/centrifugo (Go)
  E(
    "cf-audience-not-checked",
    CF,
    CFJ,
    "token",
    '\tif verifier.audience != "" && !claims.IsForAudience(verifier.audience) {\n\t\treturn errors.New("invalid audience")\n\t}\n\n',
    "",
  ),
  E(
    "cf-previous-hmac-never-expires",
    CF,
    CFJ,
    "token",
    "\t\tif validUntil := verifier.hmacPreviousSecretKeyValidUntil; validUntil > 0 && time.Now().Unix() > validUntil {\n\t\t\treturn err\n\t\t}\n",
    "",
  ),
  E(
    "cf-api-key-empty-not-rejected",
    CF,
    "internal/middleware/auth.go",
    "authn-branch",
    '\t\tif a.key == "" {\n\t\t\tlog.Error().Msg("API key is empty")\n\t\t\tw.WriteHeader(http.StatusUnauthorized)\n\t\t\treturn\n\t\t}\n',
    "",
  ),
  E(
    "cf-api-key-prefix-match",
    CF,
    "internal/middleware/auth.go",
    "credential",
    "\t\t\tif tools.SecureCompareString(a.key, authHeaderValue) {\n",
    "\t\t\tif strings.HasPrefix(a.key, authHeaderValue) {\n",
  ),
  E(
    "cf-admin-password-any-nonempty",
    CF,
    CFA,
    "credential",
    "\tif tools.SecureCompareString(formPassword, password) {\n",
    '\tif formPassword != "" {\n',
  ),
  E(
    "cf-client-cert-optional",
    CF,
    "internal/configtypes/tls.go",
    "secure-default",
    "\t\ttlsConfig.ClientAuth = tls.RequireAndVerifyClientCert\n",
    "\t\ttlsConfig.ClientAuth = tls.VerifyClientCertIfGiven\n",
  ),
  E(
    "cf-tls-min-version-removed",
    CF,
    "internal/configtypes/tls.go",
    "secure-default",
    "\ttlsConfig := &tls.Config{\n\t\tMinVersion: tls.VersionTLS12,\n\t}\n",
    "\ttlsConfig := &tls.Config{}\n",
  ),
  // ---- fhmq/hmq (Go)
  E(
    "hmq-acl-file-default-allow",
    HMQ,
    "plugins/auth/authfile/aclcheck.go",
    "authz",
    "\t\t}\n\t}\n\treturn false\n}\n\nfunc (a *AuthInfo) checkWithClientID(",
    "\t\t}\n\t}\n\treturn true\n}\n\nfunc (a *AuthInfo) checkWithClientID(",
  ),
  E(
    "hmq-sys-topics-unchecked",
    HMQ,
    "broker/auth.go",
    "authz",
    '\t\tif strings.HasPrefix(topic, "$SYS/broker/connection/clients/") {\n',
    '\t\tif strings.HasPrefix(topic, "$SYS/") {\n',
  ),
  E(
    "hmq-connect-cache-password-skipped",
    HMQ,
    HMQH,
    "credential",
    "\t\tif aCache != nil {\n\t\t\tif aCache.password == password && aCache.username == username && aCache.action == action {\n",
    "\t\tif aCache != nil {\n\t\t\tif aCache.username == username && aCache.action == action {\n",
  ),
  E(
    "hmq-acl-http-error-allows",
    HMQ,
    HMQH,
    "authz",
    '\t\tlog.Error("request acl: ", zap.Error(err))\n\t\treturn false\n',
    '\t\tlog.Error("request acl: ", zap.Error(err))\n\t\treturn true\n',
  ),
  E(
    "hmq-anonymous-connect",
    HMQ,
    "broker/broker.go",
    "authn-branch",
    "\tif typ == CLIENT && !b.CheckConnectAuth(msg.ClientIdentifier, msg.Username, string(msg.Password)) {\n",
    '\tif typ == CLIENT && msg.Username != "" && !b.CheckConnectAuth(msg.ClientIdentifier, msg.Username, string(msg.Password)) {\n',
  ),
  E(
    "hmq-publish-acl-logged-only",
    HMQ,
    "broker/client.go",
    "authz",
    '\tif !c.broker.CheckTopicAuth(PUB, c.info.clientID, c.info.username, c.info.remoteIP, topic) {\n\t\tlog.Error("Pub Topics Auth failed, ", zap.String("topic", topic), zap.String("ClientID", c.info.clientID))\n\t\treturn\n\t}\n',
    '\tif !c.broker.CheckTopicAuth(PUB, c.info.clientID, c.info.username, c.info.remoteIP, topic) {\n\t\tlog.Error("Pub Topics Auth failed, ", zap.String("topic", topic), zap.String("ClientID", c.info.clientID))\n\t}\n',
  ),
  // ---- moul/sshportal (Go)
  E(
    "ssp-host-key-mismatch-logged",
    SSP,
    SSPS,
    "secure-default",
    '\t\tif !bytes.Equal(host.HostKey, key.Marshal()) {\n\t\t\treturn fmt.Errorf("ssh: host key mismatch")\n\t\t}\n',
    '\t\tif !bytes.Equal(host.HostKey, key.Marshal()) {\n\t\t\tlog.Printf("warning: host key changed for %s", hostname)\n\t\t}\n',
  ),
  E(
    "ssp-no-acl-default-allow",
    SSP,
    "pkg/bastion/acl.go",
    "authz",
    "\t\taction, err := checkACLsHook(aclCheckCmd, string(dbmodels.ACLActionDeny), user, host)\n",
    "\t\taction, err := checkACLsHook(aclCheckCmd, string(dbmodels.ACLActionAllow), user, host)\n",
  ),
  E(
    "ssp-invite-empty-token-lookup",
    SSP,
    SSPS,
    "token",
    '\t\t\tif len(inputToken) > 0 {\n\t\t\t\tdb.Where("invite_token = ?", inputToken).First(&actx.user)\n\t\t\t}\n',
    '\t\t\tdb.Where("invite_token = ?", inputToken).First(&actx.user)\n',
  ),
  E(
    "ssp-invite-token-reusable",
    SSP,
    SSPS,
    "token",
    '\t\t\t\t// token is only usable once\n\t\t\t\tactx.user.InviteToken = ""\n\t\t\t\tdb.Model(&actx.user).Updates(&actx.user)\n\n',
    "",
  ),
  E(
    "ssp-unknown-user-bastion-allowed",
    SSP,
    SSPS,
    "authn-branch",
    "\tif actx.user.ID == 0 && actx.userType() != userTypeHealthcheck {\n",
    "\tif actx.user.ID == 0 && actx.userType() == userTypeShell {\n",
  ),
  E(
    "ssp-backup-admin-check-removed",
    SSP,
    "pkg/bastion/shell.go",
    "authz",
    '\t\t\t\t\tDescription: "ssh admin@portal config backup > sshportal.bkp",\n\t\t\t\t\tAction: func(c *cli.Context) error {\n\t\t\t\t\t\tif err := myself.CheckRoles([]string{"admin"}); err != nil {\n\t\t\t\t\t\t\treturn err\n\t\t\t\t\t\t}\n',
    '\t\t\t\t\tDescription: "ssh admin@portal config backup > sshportal.bkp",\n\t\t\t\t\tAction: func(c *cli.Context) error {\n',
  ),
  // ---- livekit/protocol (Go)
  E(
    "lk-issuer-not-bound",
    LK,
    LKV,
    "token",
    "\t\tjwt.WithIssuer(v.apiKey),\n",
    "",
  ),
  E(
    "lk-empty-key-allowed",
    LK,
    LKV,
    "token",
    '\tif key == nil || key == "" {\n\t\treturn nil, nil, ErrKeysMissing\n\t}\n',
    "",
  ),
  E(
    "lk-webhook-checksum-optional",
    LK,
    "webhook/verifier.go",
    "credential",
    "\tif subtle.ConstantTimeCompare([]byte(claims.Sha256), []byte(hash)) != 1 {\n",
    '\tif claims.Sha256 != "" && subtle.ConstantTimeCompare([]byte(claims.Sha256), []byte(hash)) != 1 {\n',
  ),
  E(
    "lk-publish-source-ignores-can-publish",
    LK,
    LKG,
    "authz",
    "func (v *VideoGrant) GetCanPublishSource(source livekit.TrackSource) bool {\n\tif !v.GetCanPublish() {\n\t\treturn false\n\t}\n",
    "func (v *VideoGrant) GetCanPublishSource(source livekit.TrackSource) bool {\n",
  ),
  E(
    "lk-own-metadata-default-true",
    LK,
    LKG,
    "secure-default",
    "\tif v.CanUpdateOwnMetadata == nil {\n\t\treturn false\n\t}\n",
    "\tif v.CanUpdateOwnMetadata == nil {\n\t\treturn true\n\t}\n",
  ),
  E(
    "lk-insecure-without-ca",
    LK,
    "xtls/tls.go",
    "secure-default",
    "\tif c.Insecure {\n",
    '\tif c.Insecure || c.CACertFile == "" {\n',
  ),
  // ---- Permify/permify (Go)
  E(
    "pfy-audience-check-removed",
    PFY,
    PFYO,
    "token",
    '\tif ok := claims.VerifyAudience(oidc.Audience, true); !ok {\n\t\tslog.Warn("token audience is invalid", "expected", oidc.Audience, "actual", claims["aud"])\n\t\treturn errors.New(base.ErrorCode_ERROR_CODE_INVALID_AUDIENCE.String())\n\t}\n',
    "",
  ),
  E(
    "pfy-preshared-any-bearer",
    PFY,
    "internal/authn/preshared/authn.go",
    "credential",
    "\tif _, found := a.keys[key]; found {\n",
    '\tif _, found := a.keys[key]; found || key != "" {\n',
  ),
  E(
    "pfy-auth-func-error-swallowed",
    PFY,
    "internal/middleware/authn.go",
    "authn-branch",
    "\t\terr := authenticator.Authenticate(ctx)\n\t\tif err != nil {\n\t\t\treturn nil, err\n\t\t}\n\t\treturn ctx, nil\n",
    "\t\t_ = authenticator.Authenticate(ctx)\n\t\treturn ctx, nil\n",
  ),
  E(
    "pfy-preshared-stream-interceptor-dropped",
    PFY,
    "internal/servers/server.go",
    "authz",
    "\t\t\tauthenticator, err = preshared.NewKeyAuthn(ctx, authentication.Preshared)\n\t\t\tif err != nil {\n\t\t\t\treturn err\n\t\t\t}\n\t\t\tunaryInterceptors = append(unaryInterceptors, grpcAuth.UnaryServerInterceptor(middleware.AuthFunc(authenticator)))\n\t\t\tstreamingInterceptors = append(streamingInterceptors, grpcAuth.StreamServerInterceptor(middleware.AuthFunc(authenticator)))\n",
    "\t\t\tauthenticator, err = preshared.NewKeyAuthn(ctx, authentication.Preshared)\n\t\t\tif err != nil {\n\t\t\t\treturn err\n\t\t\t}\n\t\t\tunaryInterceptors = append(unaryInterceptors, grpcAuth.UnaryServerInterceptor(middleware.AuthFunc(authenticator)))\n",
  ),
  // ---- kubernetes-sigs/aws-iam-authenticator (Go)
  E(
    "aia-sts-host-not-verified",
    AIA,
    AIAT,
    "token",
    "\tif err = v.verifyHost(parsedURL.Host); err != nil {\n\t\treturn nil, err\n\t}\n\n",
    "",
  ),
  E(
    "aia-presign-expiry-skipped",
    AIA,
    AIAT,
    "token",
    '\tif now.After(expiration) {\n\t\treturn nil, FormatError{fmt.Sprintf("X-Amz-Date parameter is expired (%.f minute expiration) %s", presignedURLExpiration.Minutes(), dateParam)}\n\t}\n',
    '\tif now.After(expiration) {\n\t\tlogrus.Debugf("X-Amz-Date parameter is expired (%.f minute expiration) %s", presignedURLExpiration.Minutes(), dateParam)\n\t}\n',
  ),
  E(
    "aia-http-scheme-accepted",
    AIA,
    AIAT,
    "secure-default",
    '\tif parsedURL.Scheme != "https" {\n',
    '\tif parsedURL.Scheme != "https" && parsedURL.Scheme != "http" {\n',
  ),
  E(
    "aia-sts-non-200-tolerated",
    AIA,
    AIAT,
    "authn-branch",
    "\tif response.StatusCode != 200 {\n",
    "\tif response.StatusCode >= 500 {\n",
  ),
  E(
    "aia-unmapped-identity-accepted",
    AIA,
    "pkg/server/server.go",
    "authz",
    '\tif len(errs) > 0 {\n\t\treturn "", nil, utilerrors.NewAggregate(errs)\n\t}\n\treturn "", nil, errutil.ErrNotMapped\n',
    '\tif len(errs) > 0 {\n\t\treturn "", nil, utilerrors.NewAggregate(errs)\n\t}\n\treturn identity.CanonicalARN, []string{}, nil\n',
  ),
  // ---- cloudflare/cloudflared (Go)
  E(
    "cfd-access-jwt-missing-passes",
    CFD,
    CFDJ,
    "authn-branch",
    '\t\treturn &HandleResult{\n\t\t\tShouldFilterRequest: true,\n\t\t\tStatusCode:          http.StatusForbidden,\n\t\t\tReason:              "no access token in request",\n\t\t}, nil\n',
    "\t\treturn &HandleResult{ShouldFilterRequest: false}, nil\n",
  ),
  E(
    "cfd-access-aud-any-configured",
    CFD,
    CFDJ,
    "token",
    "\t\t\tif acceptedAudTag == jwtAudTag {\n",
    '\t\t\tif acceptedAudTag != "" {\n',
  ),
  E(
    "cfd-access-expiry-skipped",
    CFD,
    CFDJ,
    "token",
    "\tconfig := &oidc.Config{\n\t\tSkipClientIDCheck: true,\n\t}\n",
    "\tconfig := &oidc.Config{\n\t\tSkipClientIDCheck: true,\n\t\tSkipExpiryCheck:   true,\n\t}\n",
  ),
  E(
    "cfd-socks-empty-password-accepted",
    CFD,
    "socks/authenticator.go",
    "credential",
    "\tif a.IsValid(string(user), string(pass)) {\n",
    "\tif passLen == 0 || a.IsValid(string(user), string(pass)) {\n",
  ),
  E(
    "cfd-socks-failure-not-an-error",
    CFD,
    "socks/authenticator.go",
    "authn-branch",
    '\tif _, err := writer.Write([]byte{userAuthVersion, authFailure}); err != nil {\n\t\treturn err\n\t}\n\n\treturn fmt.Errorf("User authentication failed")\n',
    "\t_, err := writer.Write([]byte{userAuthVersion, authFailure})\n\treturn err\n",
  ),
  E(
    "cfd-metadata-hostname-not-matched",
    CFD,
    CFDT,
    "token",
    '\tif !strings.EqualFold(claims.Hostname, reqURL.Hostname()) {\n\t\treturn nil, fmt.Errorf("metadata JWT hostname %q does not match request host %q", claims.Hostname, reqURL.Hostname())\n\t}\n',
    "",
  ),
  E(
    "cfd-no-tls-verify-default-on",
    CFD,
    "cmd/cloudflared/tunnel/cmd.go",
    "secure-default",
    '\t\t\tName:    ingress.NoTLSVerifyFlag,\n\t\t\tUsage:   legacyTunnelFlag("Disables TLS verification of the certificate presented by your origin. Will allow any certificate from the origin to be accepted. Note: The connection from your machine to Cloudflare\'s Edge is still encrypted."),\n',
    '\t\t\tName:    ingress.NoTLSVerifyFlag,\n\t\t\tUsage:   legacyTunnelFlag("Disables TLS verification of the certificate presented by your origin. Will allow any certificate from the origin to be accepted. Note: The connection from your machine to Cloudflare\'s Edge is still encrypted."),\n\t\t\tValue:   true,\n',
  ),
  // ---- sigstore/fulcio (Go)
  E(
    "ful-proof-of-possession-unchecked",
    FUL,
    FULG,
    "credential",
    "\t\tif err := challenges.CheckSignatureWithVerifier(verifier, proofOfPossession, principal.Name(ctx)); err != nil {\n\t\t\treturn nil, handleFulcioGRPCError(ctx, codes.InvalidArgument, err, invalidSignature)\n\t\t}\n",
    "\t\t_ = challenges.CheckSignatureWithVerifier(verifier, proofOfPossession, principal.Name(ctx))\n",
  ),
  E(
    "ful-csr-signature-unchecked",
    FUL,
    FULG,
    "credential",
    "\t\tif err := csr.CheckSignature(); err != nil {\n\t\t\treturn nil, handleFulcioGRPCError(ctx, codes.InvalidArgument, err, invalidSignature)\n\t\t}\n\n",
    "",
  ),
  E(
    "ful-uri-subject-host-suffix",
    FUL,
    "pkg/identity/uri/principal.go",
    "authz",
    "\tif uSubject.Hostname() != uDomain.Hostname() {\n",
    "\tif !strings.HasSuffix(uSubject.Hostname(), uDomain.Hostname()) {\n",
  ),
  E(
    "ful-grpc-min-tls-dropped",
    FUL,
    "cmd/app/grpc.go",
    "secure-default",
    "\t\t\treturn c.GetCertificate(), nil\n\t\t},\n\t\tMinVersion: tls.VersionTLS13,\n\t}))\n",
    "\t\t\treturn c.GetCertificate(), nil\n\t\t},\n\t}))\n",
  ),
  // ---- warrant-dev/warrant (Go)
  E(
    "wrt-api-key-compare-removed",
    WRT,
    WRTA,
    "credential",
    '\t\tif !secureCompareEqual(tokenString, warrantCfg.GetAuthentication().ApiKey) {\n\t\t\tSendErrorResponse(w, NewUnauthorizedError("Invalid API key"))\n\t\t\treturn\n\t\t}\n\n',
    "",
  ),
  E(
    "wrt-empty-configured-key-matches",
    WRT,
    WRTA,
    "credential",
    "\t\treturn subtle.ConstantTimeCompare([]byte(given), []byte(actual)) == 1\n",
    '\t\treturn actual == "" || subtle.ConstantTimeCompare([]byte(given), []byte(actual)) == 1\n',
  ),
  E(
    "wrt-tenant-context-client-controlled",
    WRT,
    WRTC,
    "authz",
    '\t\t} else {\n\t\t\twarrantCheck.CheckWarrantSpec.Context["tenant"] = authInfo.TenantId\n\t\t}\n',
    "\t\t}\n",
  ),
  E(
    "wrt-policy-error-matches",
    WRT,
    WRTC,
    "authz",
    '\t\tlog.Err(err).Msgf("check: error while evaluating policy %s", w.Policy)\n\t\treturn false\n',
    '\t\tlog.Err(err).Msgf("check: error while evaluating policy %s", w.Policy)\n\t\treturn true\n',
  ),
];

/** Reversed real security fixes of batch 104 (split `history104`), chosen by message only. */
export const REVERSED_FIXES_HISTORY104: ReversedFix[] = [
  {
    id: "prest-jwt-bypass-without-key",
    repo: PR,
    commit: "b62662d2",
    path: PRM,
    cls: "token",
    note: "fix JWT auth bypass when default enforcement runs without a key",
    split: "history104",
  },
  {
    id: "lk-require-exp-claim",
    repo: LK,
    commit: "5a20e57c",
    path: LKV,
    cls: "token",
    note: "require exp claim when verifying access tokens",
    split: "history104",
  },
  {
    id: "lk-verify-nbf",
    repo: LK,
    commit: "17875e94",
    path: LKV,
    cls: "token",
    note: "verify nbf",
    split: "history104",
  },
  {
    id: "cfd-access-app-identity-signed-metadata",
    repo: CFD,
    commit: "d96b8c85",
    path: CFDT,
    cls: "token",
    note:
      "verify Access app identity with signed metadata (unsigned headers could select another app's token)",
    split: "history104",
  },
  {
    id: "ful-GHSA-59jp-pj84-45mr",
    repo: FUL,
    commit: "eaae2f2b",
    path: "pkg/config/config.go",
    cls: "token",
    note: "GHSA-59jp-pj84-45mr: anchor meta issuer regexp matching",
    split: "history104",
  },
  {
    id: "cf-ssrf-unverified-jwt-claims",
    repo: CF,
    commit: "dab80fe3",
    path: CFJ,
    cls: "token",
    note: "fix possible SSRF via unverified JWT claims",
    split: "history104",
  },
  {
    id: "cf-admin-socket-auth-insecure-only",
    repo: CF,
    commit: "ef511599",
    path: "libcentrifugo/admin.go",
    cls: "authn-branch",
    note: "fix admin socket auth: only authenticate automatically in insecure mode",
    split: "history104",
  },
  {
    id: "hmq-acl-username-ip-swapped",
    repo: HMQ,
    commit: "6be79cb",
    path: "plugins/auth/authfile/acl.go",
    cls: "authz",
    note: "authfile plugin used username as IP and IP as username in ACL checks",
    split: "history104",
  },
];
