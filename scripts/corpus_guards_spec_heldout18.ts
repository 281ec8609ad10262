/**
 * Eighteenth held-out batch of the guard-removal corpus: removals written by reading the security
 * code of projects not otherwise used by the corpus (Radicale, django-two-factor-auth,
 * social-app-django, python-socketio, Flask-SocketIO, Twisted, Gradio, firebase-admin-python,
 * python-slack-sdk, twilio-python, Supervisor), chosen the way a careless refactor or an attacker
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
    "ra-login-cache-digest-any",
    RA,
    "radicale/auth/__init__.py",
    "credential",
    "                if digest == digest_cache:\n",
    "                if digest_cache:\n",
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
  // ---- django-two-factor-auth (Python)
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
  E(
    "tf-remember-agent-throttle-ignored",
    TF,
    TFC,
    "authn-branch",
    "                        if verify_is_allowed and validate_remember_device_cookie(\n",
    "                        if validate_remember_device_cookie(\n",
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
    "        valid_password = user.has_usable_password() if hasattr(user, \"has_usable_password\") else True\n        return valid_password or qs.exists()\n",
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
    "si-admin-auth-list-any",
    SI,
    "src/socketio/admin.py",
    "credential",
    "            elif isinstance(self.auth, list):\n                authenticated = client_auth in self.auth\n",
    "            elif isinstance(self.auth, list):\n                authenticated = bool(client_auth)\n",
  ),
  E(
    "si-connect-refused-swallowed",
    SI,
    "src/socketio/server.py",
    "authn-branch",
    '        except exceptions.ConnectionRefusedError as exc:\n            fail_reason = exc.error_args\n            success = False\n        except ConnectionRefusedError:\n            fail_reason = {"message": "Connection refused by server"}\n            success = False\n',
    "        except Exception:\n            self.logger.exception('connect handler failed')\n            success = None\n",
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
    "tw-file-password-db-hash-truthy",
    TW,
    "src/twisted/cred/checkers.py",
    "credential",
    "                    if h == p:\n",
    "                    if h:\n",
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
];

/** Reversed real security fixes (split `history18`). */
export const REVERSED_FIXES_HISTORY18: ReversedFix[] = [];
