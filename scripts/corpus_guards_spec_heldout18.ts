/**
 * Eighteenth held-out batch of the guard-removal corpus: removals written by reading the security
 * code of projects not otherwise used by the corpus (Radicale, django-two-factor-auth,
 * social-app-django, python-socketio, Twisted, Gradio, firebase-admin-python,
 * python-slack-sdk, twilio-python, Supervisor, http-auth, goji/httpauth), chosen the way a careless refactor or an attacker
 * would weaken them, before any measurement. Reversed fixes were picked by commit message or
 * advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const H18 = "heldout18" as const;
const RA = "Kozea/Radicale";
const RAH = "radicale/auth/htpasswd.py";
const RAL = "radicale/auth/ldap.py";
const TF = "jazzband/django-two-factor-auth";
const TFU = "two_factor/views/utils.py";
const TFC = "two_factor/views/core.py";
const SA = "python-social-auth/social-app-django";
const SAS = "social_django/storage.py";
const SI = "miguelgrinberg/python-socketio";
const TW = "twisted/twisted";
const TWS = "src/twisted/internet/_sslverify.py";
const TWC = "src/twisted/cred/credentials.py";
const TWK = "src/twisted/conch/checkers.py";
const GR = "gradio-app/gradio";
const GRR = "gradio/routes.py";
const FB = "firebase/firebase-admin-python";
const FBT = "firebase_admin/_token_gen.py";
const FBC = "firebase_admin/_auth_client.py";
const FBA = "firebase_admin/app_check.py";
const SL = "slackapi/python-slack-sdk";
const SLS = "slack_sdk/signature/__init__.py";
const TL = "twilio/twilio-python";
const TLV = "twilio/request_validator.py";
const SV = "Supervisor/supervisor";
const HA = "gevorg/http-auth";
const HAD = "src/auth/digest.js";
const GH = "goji/httpauth";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker(H18);

/** The eighteenth held-out batch of edits (split `heldout18`). */
export const EDITS_HELDOUT18: GuardEdit[] = [
  // ---- Radicale (Python)
  E(
    "ra-htpasswd-plain-eq",
    RA,
    RAH,
    "credential",
    '        return ("PLAIN", hmac.compare_digest(hash_value.encode(), password.encode()))\n',
    '        return ("PLAIN", hash_value == password)\n',
  ),
  E(
    "ra-ldap2-user-bind-skipped",
    RA,
    RAL,
    "credential",
    "            conn.simple_bind_s(user_dn, password)\n            if self._ldap_user_attr:\n",
    "            # conn.simple_bind_s(user_dn, password)\n            if self._ldap_user_attr:\n",
  ),
  E(
    "ra-owner-only-foreign-path",
    RA,
    "radicale/rights/owner_only.py",
    "authz",
    '            return "R"\n        if self._verify_user and user != sane_path.split("/", maxsplit=1)[0]:\n            return ""\n',
    '            return "R"\n',
  ),
  E(
    "ra-owner-write-any-user-owns",
    RA,
    "radicale/rights/owner_write.py",
    "authz",
    '            owned = user == sane_path.split("/", maxsplit=1)[0]\n',
    "            owned = bool(user)\n",
  ),
  E(
    "ra-ldap2-ambiguous-user",
    RA,
    RAL,
    "authn-branch",
    '            if len(res) != 1:\n                """User could not be found unambiguously"""\n                logger.debug(f"_login2 no unique DN found for \'{login}\'")\n                return ""\n',
    "",
  ),
  E(
    "ra-ldap2-tls-never",
    RA,
    RAL,
    "secure-default",
    "                conn.set_option(self.ldap.OPT_X_TLS_REQUIRE_CERT, verifyMode[self._ldap_ssl_verify_mode])\n",
    "                conn.set_option(self.ldap.OPT_X_TLS_REQUIRE_CERT, self.ldap.OPT_X_TLS_NEVER)\n",
  ),
  E(
    "ra-auth-type-default-none",
    RA,
    "radicale/config.py",
    "secure-default",
    '    ("auth", OrderedDict([\n        ("type", {\n            "value": "denyall",\n',
    '    ("auth", OrderedDict([\n        ("type", {\n            "value": "none",\n',
  ),
  E(
    "ra-rights-type-default-authenticated",
    RA,
    "radicale/config.py",
    "authz",
    '    ("rights", OrderedDict([\n        ("type", {\n            "value": "owner_only",\n',
    '    ("rights", OrderedDict([\n        ("type", {\n            "value": "authenticated",\n',
  ),
  // ---- django-two-factor-auth (Python)
  E(
    "tf-setup-view-anonymous",
    TF,
    TFC,
    "authz",
    "@method_decorator([never_cache, login_required], name='dispatch')\nclass SetupView(",
    "@method_decorator(never_cache, name='dispatch')\nclass SetupView(",
  ),
  E(
    "tf-otp-mixin-unverified-without-device",
    TF,
    "two_factor/views/mixins.py",
    "authz",
    "        if not request.user.is_verified():\n            if self.raise_unverified:\n",
    "        if not request.user.is_verified() and default_device(request.user):\n            if self.raise_unverified:\n",
  ),
  E(
    "tf-remember-cookie-no-expiry",
    TF,
    TFU,
    "token",
    "    timestamp_int = b62_decode(timestamp)\n    age = time.time() - timestamp_int\n    if age > settings.TWO_FACTOR_REMEMBER_COOKIE_AGE:\n        raise SignatureExpired(\n            'Signature age %s > %s seconds' % (age, settings.TWO_FACTOR_REMEMBER_COOKIE_AGE)\n        )\n\n",
    "",
  ),
  E(
    "tf-remember-cookie-value-present",
    TF,
    TFU,
    "token",
    "    if input_cookie_value != cookie_value:\n",
    "    if not input_cookie_value:\n",
  ),
  E(
    "tf-device-token-form-any",
    TF,
    "two_factor/forms.py",
    "credential",
    "        if not self.device.verify_token(token):\n",
    "        if not token:\n",
  ),
  E(
    "tf-backup-tokens-login-only",
    TF,
    TFC,
    "authz",
    "@method_decorator([never_cache, otp_required], name='dispatch')\nclass BackupTokensView(FormView):\n",
    "@method_decorator([never_cache, login_required], name='dispatch')\nclass BackupTokensView(FormView):\n",
  ),
  E(
    "tf-disable-view-no-otp",
    TF,
    "two_factor/views/profile.py",
    "authz",
    "        fn = otp_required(super().dispatch, login_url=self.success_url, redirect_field_name=None)\n        return fn(*args, **kwargs)\n",
    "        return super().dispatch(*args, **kwargs)\n",
  ),
  // ---- social-app-django (Python)
  E(
    "sa-disconnect-no-csrf",
    SA,
    "social_django/views.py",
    "authz",
    "@require_POST\n@csrf_protect\ndef disconnect(",
    "@require_POST\ndef disconnect(",
  ),
  E(
    "sa-partial-resume-nonce-any",
    SA,
    "social_django/strategy.py",
    "token",
    "        return bool(expected_nonce) and submitted_nonce == expected_nonce\n",
    "        return bool(submitted_nonce)\n",
  ),
  E(
    "sa-partial-resume-any-method",
    SA,
    "social_django/strategy.py",
    "authz",
    '        if not self.request or self.request.method != "POST":\n            return False\n',
    "        if not self.request:\n            return False\n",
  ),
  E(
    "sa-active-users-filter-empty",
    SA,
    SAS,
    "secure-default",
    '        active_filter = getattr(settings, setting_name("ACTIVE_USERS_FILTER"), {"is_active": True})\n',
    '        active_filter = getattr(settings, setting_name("ACTIVE_USERS_FILTER"), {})\n',
  ),
  E(
    "sa-get-user-first-match",
    SA,
    SAS,
    "authn-branch",
    "        users = cls.filter_active_users(**kwargs)\n        if len(users) != 1:\n            return None\n        return users[0]\n",
    "        return cls.filter_active_users(**kwargs).first()\n",
  ),
  E(
    "sa-allowed-to-disconnect-always",
    SA,
    SAS,
    "authz",
    '        valid_password = user.has_usable_password() if hasattr(user, "has_usable_password") else True\n        return valid_password or qs.exists()\n',
    "        return True\n",
  ),
  E(
    "sa-session-expiry-longest",
    SA,
    "social_django/views.py",
    "secure-default",
    "            session_expiry = min(received_expiration_time, max_session_length)\n",
    "            session_expiry = max(received_expiration_time, max_session_length)\n",
  ),
  // ---- python-socketio (Python)
  E(
    "si-admin-auth-optional",
    SI,
    "src/socketio/admin.py",
    "secure-default",
    "        if auth is None:\n            raise ValueError('auth must be specified')\n",
    "",
  ),
  E(
    "si-async-admin-auth-not-enforced",
    SI,
    "src/socketio/async_admin.py",
    "authn-branch",
    "                    authenticated = self.auth(client_auth)\n            if not authenticated:\n                raise ConnectionRefusedError('authentication failed')\n",
    "                    authenticated = self.auth(client_auth)\n            if not authenticated:\n                self.sio.logger.warning('admin authentication failed')\n",
  ),
  E(
    "si-event-from-unconnected-namespace",
    SI,
    "src/socketio/server.py",
    "authz",
    "        if not self.manager.is_connected(sid, namespace):\n            self.logger.warning('%s is not connected to namespace %s',\n                                sid, namespace)\n            return\n        if self.async_handlers:\n",
    "        if self.async_handlers:\n",
  ),
  // ---- Twisted (Python)
  E(
    "tw-guard-login-failed-anonymous",
    TW,
    "src/twisted/web/_auth/wrapper.py",
    "authn-branch",
    "        except error.LoginFailed:\n            return UnauthorizedResource(self._credentialFactories)\n",
    "        except error.LoginFailed:\n            return util.DeferredResource(self._login(Anonymous()))\n",
  ),
  E(
    "tw-tls-hostname-mismatch-ignored",
    TW,
    TWS,
    "secure-default",
    "            except VerificationError:\n                f = Failure()\n                transport = connection.get_app_data()\n                transport.failVerification(f)\n",
    "            except VerificationError:\n                pass\n",
  ),
  E(
    "tw-client-tls-trust-root-dropped",
    TW,
    TWS,
    "secure-default",
    "    certificateOptions = OpenSSLCertificateOptions(\n        trustRoot=trustRoot,\n        acceptableProtocols=acceptableProtocols,\n",
    "    certificateOptions = OpenSSLCertificateOptions(\n        acceptableProtocols=acceptableProtocols,\n",
  ),
  E(
    "tw-peer-cert-not-required",
    TW,
    TWS,
    "secure-default",
    "            if self.requireCertificate:\n                verifyFlags |= SSL.VERIFY_FAIL_IF_NO_PEER_CERT\n",
    "",
  ),
  E(
    "tw-digest-opaque-age-unchecked",
    TW,
    TWC,
    "token",
    '        if (\n            int(self._getTime()) - when\n            > DigestCredentialFactory.CHALLENGE_LIFETIME_SECS\n        ):\n            raise error.LoginFailed(\n                "Invalid response, incompatible opaque/nonce too old"\n            )\n\n',
    "",
  ),
  E(
    "tw-digest-opaque-digest-unchecked",
    TW,
    TWC,
    "token",
    '        digest = hexlify(md5(key + self.privateKey).digest())\n        if digest != opaqueParts[0]:\n            raise error.LoginFailed("Invalid response, invalid opaque value")\n',
    "",
  ),
  E(
    "tw-conch-unlisted-key-accepted",
    TW,
    TWK,
    "authn-branch",
    '        if not validKey:\n            return failure.Failure(UnauthorizedLogin("invalid key"))\n',
    "",
  ),
  E(
    "tw-conch-empty-crypted-accepted",
    TW,
    TWK,
    "credential",
    '                    if crypted == "":\n                        continue\n',
    '                    if crypted == "":\n                        return defer.succeed(credentials.username)\n',
  ),
  // ---- Gradio (Python)
  E(
    "gr-file-route-no-login",
    GR,
    GRR,
    "authz",
    '        @router.head("/file={path_or_url:path}", dependencies=[Depends(login_check)])\n        @router.get("/file={path_or_url:path}", dependencies=[Depends(login_check)])\n',
    '        @router.head("/file={path_or_url:path}")\n        @router.get("/file={path_or_url:path}")\n',
  ),
  E(
    "gr-upload-no-login",
    GR,
    GRR,
    "authz",
    '        @router.post("/upload", dependencies=[Depends(login_check)])\n',
    '        @router.post("/upload")\n',
  ),
  E(
    "gr-login-password-not-compared",
    GR,
    GRR,
    "credential",
    "                and username in app.auth  # type: ignore\n                and compare_passwords_securely(password, app.auth[username])  # type: ignore\n",
    "                and username in app.auth  # type: ignore\n",
  ),
  E(
    "gr-login-check-ignores-auth-dependency",
    GR,
    GRR,
    "authn-branch",
    "        def login_check(user: str = Depends(get_current_user)):\n            if (app.auth is None and app.auth_dependency is None) or user is not None:\n",
    "        def login_check(user: str = Depends(get_current_user)):\n            if app.auth is None or user is not None:\n",
  ),
  E(
    "gr-access-cookie-readable",
    GR,
    GRR,
    "secure-default",
    '                    key=f"access-token-{app.cookie_id}",\n                    value=token,\n                    httponly=True,\n',
    '                    key=f"access-token-{app.cookie_id}",\n                    value=token,\n                    httponly=False,\n',
  ),
  E(
    "gr-oauth-session-expiry-ignored",
    GR,
    "gradio/oauth.py",
    "token",
    '    expires_at = oauth_info.get("expires_at")\n    if expires_at is not None and expires_at < time.time():\n        session.pop("oauth_info", None)\n        return None\n\n',
    "",
  ),
  // ---- firebase-admin-python (Python)
  E(
    "fb-id-token-issuer-unchecked",
    FB,
    FBT,
    "token",
    "        elif issuer != expected_issuer:\n            error_message = (\n                f'Firebase {self.short_name} has incorrect \"iss\" (issuer) claim. Expected '\n                f'\"{expected_issuer}\" but got \"{issuer}\". {project_id_match_msg} '\n                f'{verify_id_token_msg}')\n",
    "",
  ),
  E(
    "fb-revoked-token-accepted",
    FB,
    FBC,
    "token",
    "        if verified_claims.get('iat') * 1000 < user.tokens_valid_after_timestamp:\n            raise exc_type(f'The Firebase {label} has been revoked.')\n",
    "",
  ),
  E(
    "fb-disabled-user-accepted",
    FB,
    FBC,
    "authn-branch",
    "        if user.disabled:\n            raise _auth_utils.UserDisabledError('The user record is disabled.')\n",
    "        # if user.disabled:\n        #     raise _auth_utils.UserDisabledError('The user record is disabled.')\n",
  ),
  E(
    "fb-tenant-missing-accepted",
    FB,
    FBC,
    "authz",
    "            if self.tenant_id != token_tenant_id:\n",
    "            if token_tenant_id and self.tenant_id != token_tenant_id:\n",
  ),
  E(
    "fb-app-check-issuer-unchecked",
    FB,
    FBA,
    "token",
    "        if not payload.get('iss').startswith(self._APP_CHECK_ISSUER):\n            raise ValueError('Token does not contain the correct \"iss\" (issuer).')\n",
    "",
  ),
  // ---- python-slack-sdk (Python)
  E(
    "sl-signature-timestamp-window",
    SL,
    SLS,
    "token",
    "        if abs(self.clock.now() - int(timestamp)) > 60 * 5:\n            return False\n\n",
    "",
  ),
  E(
    "sl-signature-plain-compare",
    SL,
    SLS,
    "credential",
    "        return hmac.compare_digest(calculated_signature, signature)\n",
    "        return calculated_signature == signature\n",
  ),
  E(
    "sl-signature-missing-headers-pass",
    SL,
    SLS,
    "authn-branch",
    "        if timestamp is None or signature is None:\n            return False\n",
    "        if timestamp is None or signature is None:\n            return True\n",
  ),
  E(
    "sl-oauth-state-file-expired-valid",
    SL,
    "slack_sdk/oauth/state_store/file/__init__.py",
    "token",
    "            os.remove(filepath)  # consume the file by deleting it\n            return still_valid\n",
    "            os.remove(filepath)  # consume the file by deleting it\n            return True\n",
  ),
  // ---- twilio-python (Python)
  E(
    "tl-compare-no-length-check",
    TL,
    TLV,
    "credential",
    "    if len(string1) != len(string2):\n        return False\n    result = True\n",
    "    result = True\n",
  ),
  E(
    "tl-body-hash-ignored",
    TL,
    TLV,
    "credential",
    "        return valid_body_hash and (valid_signature or valid_signature_with_port)\n",
    "        return valid_signature or valid_signature_with_port\n",
  ),
  E(
    "tl-jwt-header-alg-trusted",
    TL,
    "twilio/jwt/__init__.py",
    "token",
    '            alg = headers.get("alg")\n            if alg != cls.ALGORITHM:\n                raise ValueError(\n                    f"Incorrect decoding algorithm {alg}, "\n                    f"expecting {cls.ALGORITHM}."\n                )\n\n            payload = jwt_lib.decode(\n                jwt,\n                key,\n                algorithms=[cls.ALGORITHM],\n',
    '            alg = headers.get("alg")\n\n            payload = jwt_lib.decode(\n                jwt,\n                key,\n                algorithms=[alg],\n',
  ),
  // ---- Supervisor (Python)
  E(
    "sv-tail-handler-unauthenticated",
    SV,
    "supervisor/http.py",
    "authz",
    "            tailhandler = supervisor_auth_handler(users, tailhandler)\n",
    "",
  ),
  E(
    "sv-sha-password-accepted",
    SV,
    "supervisor/http.py",
    "credential",
    "                password_hash = sha1(as_bytes(password)).hexdigest()\n                return stored_password[5:] == password_hash\n",
    "                password_hash = sha1(as_bytes(password)).hexdigest()\n                return True\n",
  ),
  E(
    "sv-unknown-auth-scheme-passes",
    SV,
    "supervisor/medusa/auth_handler.py",
    "authn-branch",
    "                sys.stderr.write('unknown/unsupported auth method: %s\\n' % scheme)\n                self.handle_unauthorized(request)\n",
    "                sys.stderr.write('unknown/unsupported auth method: %s\\n' % scheme)\n                self.handler.handle_request(request)\n",
  ),
  E(
    "sv-unix-socket-world-writable",
    SV,
    "supervisor/options.py",
    "secure-default",
    "            else:\n                chmod = 0o700\n            config['chmod'] = chmod\n",
    "            else:\n                chmod = 0o777\n            config['chmod'] = chmod\n",
  ),
  // ---- http-auth (JavaScript)
  E(
    "ha-basic-file-user-password-unchecked",
    HA,
    "src/auth/basic.js",
    "credential",
    "        if (user.username === username && this.validate(user.hash, password)) {\n",
    "        if (user.username === username) {\n",
  ),
  E(
    "ha-digest-response-present",
    HA,
    HAD,
    "credential",
    "    return response === co.response;\n",
    "    return !!co.response;\n",
  ),
  E(
    "ha-digest-nonce-not-validated",
    HA,
    HAD,
    "token",
    "    if (this.validateNonce(co.nonce, co.qop, co.nc)) {\n",
    "    if (co.nonce) {\n",
  ),
  E(
    "ha-digest-nonce-count-replay",
    HA,
    HAD,
    "token",
    "            if (ncNum > serverNonce[2]) {\n",
    "            if (ncNum >= serverNonce[2]) {\n",
  ),
  E(
    "ha-check-failed-login-continues",
    HA,
    "src/auth/base.js",
    "authn-branch",
    '        } else if (!result.pass) {\n          this.emit("fail", result, req);\n          this.ask(res, result);\n        } else {\n',
    "        } else {\n",
  ),
  // ---- goji/httpauth (Go)
  E(
    "gh-empty-user-allowed",
    GH,
    "basic_auth.go",
    "authn-branch",
    '\t// In simple mode, prevent authentication with empty credentials if User is\n\t// not set. Allow empty passwords to support non-password use-cases.\n\tif b.opts.AuthFunc == nil && b.opts.User == "" {\n\t\treturn false\n\t}\n\n',
    "",
  ),
  E(
    "gh-simple-password-not-compared",
    GH,
    "basic_auth.go",
    "credential",
    "\tgivenUser := sha256.Sum256([]byte(user))\n\tgivenPass := sha256.Sum256([]byte(pass))\n\trequiredUser := sha256.Sum256([]byte(b.opts.User))\n\trequiredPass := sha256.Sum256([]byte(b.opts.Password))\n\n\t// Compare the supplied credentials to those set in our options\n\tif subtle.ConstantTimeCompare(givenUser[:], requiredUser[:]) == 1 &&\n\t\tsubtle.ConstantTimeCompare(givenPass[:], requiredPass[:]) == 1 {\n",
    "\tgivenUser := sha256.Sum256([]byte(user))\n\trequiredUser := sha256.Sum256([]byte(b.opts.User))\n\n\t// Compare the supplied credentials to those set in our options\n\tif subtle.ConstantTimeCompare(givenUser[:], requiredUser[:]) == 1 {\n",
  ),
  E(
    "gh-unauthorized-falls-through",
    GH,
    "basic_auth.go",
    "authn-branch",
    "\tif b.authenticate(r) == false {\n\t\tb.requestAuth(w, r)\n\t\treturn\n\t}\n",
    "\tif b.authenticate(r) == false {\n\t\tb.requestAuth(w, r)\n\t}\n",
  ),
];

/** Reversed real security fixes (split `history18`). */
export const REVERSED_FIXES_HISTORY18: ReversedFix[] = [
  {
    id: "tf-GHSA-vhr6-pvjm-9qwf",
    repo: TF,
    commit: "454fd9842fa6e8bb772dbf0943976bc8e3335359",
    path: TFC,
    cls: "credential",
    note: "GHSA-vhr6-pvjm-9qwf: discontinue storing credentials in the session store",
    split: "history18",
  },
  {
    id: "sa-validate-email-unchecked",
    repo: SA,
    commit: "2bcd91daca113feba365cf1cec2b563e956e992e",
    path: "social/strategies/base.py",
    cls: "authn-branch",
    note: "vulnerability: BaseStrategy.validate_email() did not actually check the email address",
    split: "history18",
  },
  {
    id: "ra-failed-login-random-delay",
    repo: RA,
    commit: "059ba8dec1f22ccbeab837e288b3833a099cee2d",
    path: "radicale/auth.py",
    cls: "credential",
    note: "security fix: random timer against timing oracles and simple brute-force attacks",
    split: "history18",
  },
  {
    id: "ra-rights-regex-injection",
    repo: RA,
    commit: "4bfe7c9f7991d534c8b9fbe153af9d341f925f98",
    path: "radicale/rights/regex.py",
    cls: "authz",
    note: "prevent regex injection: a user name like .* bypassed owner_only/owner_write",
    split: "history18",
  },
  {
    id: "sv-CVE-2017-11610",
    repo: SV,
    commit: "90c5df80777bfec03d041740465027f83d22e27b",
    path: "supervisor/xmlrpc.py",
    cls: "authz",
    note: "CVE-2017-11610: disable object traversal in XML-RPC dispatch",
    split: "history18",
  },
  {
    id: "tw-xmlrpc-https-verify",
    repo: TW,
    commit: "be58a175b89440de687f068200d207b24a5f5254",
    path: "src/twisted/web/xmlrpc.py",
    cls: "secure-default",
    note: "xmlrpc: verify HTTPS certificates against the system trust store",
    split: "history18",
  },
  {
    id: "tw-CVE-2019-12855",
    repo: TW,
    commit: "488bdd0b80cd1084359e34b8d36ae536520b1f86",
    path: "src/twisted/words/protocols/jabber/xmlstream.py",
    cls: "secure-default",
    note: "CVE-2019-12855: XMPP client verifies the server certificate by default",
    split: "history18",
  },
  {
    id: "gr-auth-dependency-awaited",
    repo: GR,
    commit: "5019a2402779d40d7c0b42817fc73bd2df3d8022",
    path: GRR,
    cls: "authn-branch",
    note:
      "async auth_dependency was never awaited, so every anonymous request counted as authenticated",
    split: "history18",
  },
];
