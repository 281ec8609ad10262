/**
 * Twenty-sixth held-out batch of the guard-removal corpus: removals written by reading the
 * security code of projects not otherwise used by the corpus (privacyidea, ckan, OctoPrint, lnbits), chosen the way a careless
 * refactor or an attacker would weaken them, before any measurement. Reversed fixes were picked by
 * commit message or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const H26 = "heldout26" as const;
const R_PRIVACYIDEA = "privacyidea/privacyidea";
const R_CKAN = "ckan/ckan";
const R_OCTOPRINT = "OctoPrint/OctoPrint";
const R_LNBITS = "lnbits/lnbits";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker(H26);

/** The twenty-sixth held-out batch of edits (split `heldout26`). */
export const EDITS_HELDOUT26: GuardEdit[] = [
  // ---- privacyidea/privacyidea
  E(
    "pi-jwt-trusted-username-unanchored",
    R_PRIVACYIDEA,
    "privacyidea/api/lib/utils.py",
    "token",
    '                        if re.match(trusted_jwt.get("username") + "$", j.get("username")):',
    '                        if re.match(trusted_jwt.get("username"), j.get("username")):',
  ),
  E(
    "pi-jwt-hs256-no-expiry",
    R_PRIVACYIDEA,
    "privacyidea/api/lib/utils.py",
    "token",
    "            r = jwt.decode(auth_token, current_app.secret_key, algorithms=['HS256'])",
    "            r = jwt.decode(auth_token, current_app.secret_key, algorithms=['HS256'],\n                           options={\"verify_exp\": False})",
  ),
  E(
    "pi-jwt-role-not-required",
    R_PRIVACYIDEA,
    "privacyidea/api/lib/utils.py",
    "authz",
    '    if required_role and r.get("role") not in required_role:\n        # If we require a certain role like "admin", but the users role does\n        # not match\n        raise AuthError(_("Authentication failure. You do not have the necessary "\n                          "role ({required_role}) to access this resource!").format(required_role=required_role),\n                        id=Error.AUTHENTICATE_MISSING_RIGHT)\n',
    "",
  ),
  E(
    "pi-admin-required-any-role",
    R_PRIVACYIDEA,
    "privacyidea/api/auth.py",
    "authz",
    "        check_auth_token(required_role=[ROLE.ADMIN])",
    "        check_auth_token(required_role=[ROLE.ADMIN, ROLE.USER])",
  ),
  E(
    "pi-passkey-disabled-token-accepted",
    R_PRIVACYIDEA,
    "privacyidea/api/auth.py",
    "authn-branch",
    '        if not token.is_active():\n            log.debug(f"Authentication attempted with disabled token {token.get_serial()}")\n            g.audit_object.log({"info": log_used_user(user, "Token is disabled"),\n                                "success": False,\n                                "authentication": AUTH_RESPONSE.REJECT,\n                                "serial": token.get_serial(),\n                                "token_type": token.get_type()})\n            return send_result(False, rid=2, details={"message": "Token is disabled"})\n\n',
    '        if not token.is_active():\n            log.debug(f"Authentication attempted with disabled token {token.get_serial()}")\n\n',
  ),
  E(
    "pi-remote-user-no-existence-check",
    R_PRIVACYIDEA,
    "privacyidea/api/auth.py",
    "authn-branch",
    '            g.audit_object.log({"user": user.login, "realm": user.realm, "info": log_used_user(user)})\n            if user.exist():\n                user_auth = True\n                if user.realm in superuser_realms:\n                    role = ROLE.ADMIN\n                    admin_auth = True\n',
    '            g.audit_object.log({"user": user.login, "realm": user.realm, "info": log_used_user(user)})\n            user_auth = True\n            if user.realm in superuser_realms:\n                role = ROLE.ADMIN\n                admin_auth = True\n',
  ),
  E(
    "pi-otp-checked-without-pin",
    R_PRIVACYIDEA,
    "privacyidea/lib/tokenclass.py",
    "credential",
    "            pin_match = self.check_pin(pin, user=user, options=options)\n            if pin_match is True:\n                otp_counter = self.check_otp(otpval, options=options)\n",
    "            pin_match = self.check_pin(pin, user=user, options=options) or not pin\n            if pin_match is True:\n                otp_counter = self.check_otp(otpval, options=options)\n",
  ),
  E(
    "pi-db-admin-unknown-ok",
    R_PRIVACYIDEA,
    "privacyidea/lib/auth.py",
    "credential",
    "    if admin:\n        success = verify_with_pepper(admin.password, password)\n",
    "    if admin:\n        success = verify_with_pepper(admin.password, password) or not admin.password\n",
  ),
  E(
    "pi-client-key-secret-unchecked",
    R_PRIVACYIDEA,
    "privacyidea/lib/clients.py",
    "credential",
    "    if not client or not hmac.compare_digest(client.key_hash, _hash_secret(secret)):\n        return None\n",
    "    if not client:\n        return None\n",
  ),
  E(
    "pi-ldap-tls-validate-none",
    R_PRIVACYIDEA,
    "privacyidea/lib/resolvers/LDAPIdResolver.py",
    "secure-default",
    "            tls_context = Tls(validate=tls_verify,",
    "            tls_context = Tls(validate=ssl.CERT_NONE,",
  ),
  // ---- ckan/ckan
  E(
    "ckan-user-update-any-logged-in",
    R_CKAN,
    "ckan/logic/auth/update.py",
    "authz",
    "    if user == user_obj.name:\n        # Allow users to update their own user accounts.\n",
    "    if user:\n        # Allow users to update their own user accounts.\n",
  ),
  E(
    "ckan-reset-key-presence-only",
    R_CKAN,
    "ckan/logic/auth/update.py",
    "token",
    "    if user_obj.reset_key and 'reset_key' in data_dict:\n        if user_obj.reset_key == data_dict['reset_key']:\n            return {'success': True}\n",
    "    if user_obj.reset_key and 'reset_key' in data_dict:\n        return {'success': True}\n",
  ),
  E(
    "ckan-package-update-groups-unchecked",
    R_CKAN,
    "ckan/logic/auth/update.py",
    "authz",
    "        if not success:\n            return {'success': False,\n                    'msg': _('User %s not authorized to edit package %s') %\n                            (str(user), package.id)}\n    else:\n        check2 = _check_group_auth(context, data_dict)\n        if not check2:\n            return {'success': False,\n                    'msg': _('User %s not authorized to edit these groups') %\n                            (str(user))}\n",
    "        if not success:\n            return {'success': False,\n                    'msg': _('User %s not authorized to edit package %s') %\n                            (str(user), package.id)}\n",
  ),
  E(
    "ckan-vocabulary-update-open",
    R_CKAN,
    "ckan/logic/auth/update.py",
    "authz",
    "def vocabulary_update(context: Context, data_dict: DataDict) -> AuthResult:\n    # sysadmins only\n    return {'success': False}\n",
    "def vocabulary_update(context: Context, data_dict: DataDict) -> AuthResult:\n    return {'success': True}\n",
  ),
  E(
    "ckan-deleted-user-authorized",
    R_CKAN,
    "ckan/authz.py",
    "authn-branch",
    "            # deleted users are always unauthorized\n            if user.is_deleted():\n                return {'success': False}\n            # sysadmins can do anything unless the auth_sysadmins_check\n            # decorator was used in which case they are treated like all other\n            # users.\n            elif user.sysadmin:\n",
    "            # sysadmins can do anything unless the auth_sysadmins_check\n            # decorator was used in which case they are treated like all other\n            # users.\n            if user.sysadmin:\n",
  ),
  E(
    "ckan-any-member-role-grants",
    R_CKAN,
    "ckan/authz.py",
    "authz",
    "        perms = ROLE_PERMISSIONS.get(row.capacity, [])\n        if 'admin' in perms or permission in perms:\n            return True\n",
    "        perms = ROLE_PERMISSIONS.get(row.capacity, [])\n        if perms:\n            return True\n",
  ),
  E(
    "ckan-api-token-unverified-fallback",
    R_CKAN,
    "ckan/lib/api_token.py",
    "token",
    '            log.error(u"Cannot decode JWT token: %s", e)\n            data = None\n',
    '            log.error(u"Cannot decode JWT token: %s", e)\n            data = jwt.decode(encoded, options={"verify_signature": False})\n',
  ),
  E(
    "ckan-sha1-hash-prefix-match",
    R_CKAN,
    "ckan/model/user.py",
    "credential",
    "        if passlib.utils.consteq(hashed_pass.hexdigest(), current_hash):",
    "        if hashed_pass.hexdigest().startswith(current_hash):",
  ),
  E(
    "ckan-csrf-json-exempt",
    R_CKAN,
    "ckan/config/middleware/flask_app.py",
    "authz",
    '            if request.method not in app.config["WTF_CSRF_METHODS"]:\n                return\n',
    '            if request.method not in app.config["WTF_CSRF_METHODS"] or request.is_json:\n                return\n',
  ),
  E(
    "ckan-csrf-ssl-strict-default-off",
    R_CKAN,
    "ckan/config/middleware/flask_app.py",
    "secure-default",
    '        app.config.setdefault("WTF_CSRF_SSL_STRICT", True)',
    '        app.config.setdefault("WTF_CSRF_SSL_STRICT", False)',
  ),
  // ---- OctoPrint/OctoPrint
  E(
    "oc-password-verify-error-accepts",
    R_OCTOPRINT,
    "src/octoprint/access/users.py",
    "credential",
    "                try:\n                    return password_hash.verify(password, self._passwordHash)\n                except ValueError:\n                    pass\n",
    "                try:\n                    return password_hash.verify(password, self._passwordHash)\n                except ValueError:\n                    return True\n",
  ),
  E(
    "oc-csrf-values-not-compared",
    R_OCTOPRINT,
    "src/octoprint/server/util/csrf.py",
    "token",
    "        return hmac.compare_digest(value_cookie, value_header)",
    "        return bool(value_cookie) and bool(value_header)",
  ),
  E(
    "oc-csrf-apikey-header-bypass",
    R_OCTOPRINT,
    "src/octoprint/server/util/csrf.py",
    "authz",
    '    if session and session.get("login_mechanism") == "apikey":',
    '    if "X-Api-Key" in request.headers or (\n        session and session.get("login_mechanism") == "apikey"\n    ):',
  ),
  E(
    "oc-plugin-apikey-remote",
    R_OCTOPRINT,
    "src/octoprint/server/util/__init__.py",
    "authz",
    "        else:\n            if is_loopback_address(remote_address):\n                plugin = plugin_manager().resolve_plugin_apikey(apikey)\n                if plugin:\n                    user = octoprint.server.userManager.internal_user_factory()\n",
    "        else:\n            plugin = plugin_manager().resolve_plugin_apikey(apikey)\n            if plugin:\n                user = octoprint.server.userManager.internal_user_factory()\n",
  ),
  E(
    "oc-require-login-inactive-ok",
    R_OCTOPRINT,
    "src/octoprint/server/util/__init__.py",
    "authn-branch",
    "    if user is None or user.is_anonymous or not user.is_active:\n        _flask.abort(403)",
    "    if user is None or user.is_anonymous:\n        _flask.abort(403)",
  ),
  E(
    "oc-require-login-user-id-ignored",
    R_OCTOPRINT,
    "src/octoprint/server/util/__init__.py",
    "authz",
    '        if user_id is not None and current_user.get_id() != user_id:\n            requires_login = True\n            login_kwargs["user_id"] = user_id\n\n',
    "",
  ),
  E(
    "oc-passive-login-inactive-kept",
    R_OCTOPRINT,
    "src/octoprint/server/util/flask.py",
    "authn-branch",
    "        if not u.is_active:\n            # inactive user, switch to anonymous\n            u = octoprint.server.userManager.anonymous_user_factory()\n\n",
    "",
  ),
  E(
    "oc-remember-cookie-js-readable",
    R_OCTOPRINT,
    "src/octoprint/server/__init__.py",
    "secure-default",
    '        app.config["REMEMBER_COOKIE_HTTPONLY"] = True',
    '        app.config["REMEMBER_COOKIE_HTTPONLY"] = False',
  ),
  // ---- lnbits/lnbits
  E(
    "ln-adminkey-not-required",
    R_LNBITS,
    "lnbits/decorators.py",
    "authz",
    '    async def _extract_key_type(self, key_value: str, wallet: BaseWallet) -> KeyType:\n        if self.expected_key_type is KeyType.admin and wallet.adminkey != key_value:\n            raise HTTPException(\n                status_code=HTTPStatus.FORBIDDEN,\n                detail="Invalid adminkey.",\n            )\n\n        key_type',
    "    async def _extract_key_type(self, key_value: str, wallet: BaseWallet) -> KeyType:\n        key_type",
  ),
  E(
    "ln-access-token-expiry-off",
    R_LNBITS,
    "lnbits/decorators.py",
    "token",
    '        payload: dict = jwt.decode(access_token, settings.auth_secret_key, ["HS256"])\n        return await _get_account_from_jwt_payload(',
    '        payload: dict = jwt.decode(\n            access_token,\n            settings.auth_secret_key,\n            ["HS256"],\n            options={"verify_exp": False},\n        )\n        return await _get_account_from_jwt_payload(',
  ),
  E(
    "ln-api-token-acl-skipped",
    R_LNBITS,
    "lnbits/decorators.py",
    "authz",
    "    if payload.api_token_id:\n        await _check_account_api_access(\n            account.id, payload.api_token_id, path, method, conn=conn\n        )\n\n",
    "",
  ),
  E(
    "ln-userid-only-admin-allowed",
    R_LNBITS,
    "lnbits/decorators.py",
    "authn-branch",
    '            account = await get_account(usr.hex, conn=new_conn)\n            if account and account.is_admin:\n                raise HTTPException(\n                    HTTPStatus.FORBIDDEN, "User id only access for admins is forbidden."\n                )\n',
    "            account = await get_account(usr.hex, conn=new_conn)\n",
  ),
  E(
    "ln-nostr-event-signature-unchecked",
    R_LNBITS,
    "lnbits/core/views/auth_api.py",
    "token",
    '    if not verify_event(event):\n        raise HTTPException(HTTPStatus.BAD_REQUEST, "Nostr login event is not valid.")\n',
    '    # if not verify_event(event):\n    #     raise HTTPException(HTTPStatus.BAD_REQUEST, "Nostr login event is not valid.")\n',
  ),
  E(
    "ln-nostr-inactive-account-login",
    R_LNBITS,
    "lnbits/core/views/auth_api.py",
    "authn-branch",
    '    if not account.activated:\n        raise HTTPException(HTTPStatus.UNAUTHORIZED, "User is not activated.")\n',
    "",
  ),
  E(
    "ln-old-password-optional",
    R_LNBITS,
    "lnbits/core/views/auth_api.py",
    "credential",
    '    if account.password_hash:\n        if not data.password_old:\n            raise ValueError("Missing old password.")\n        if not account.verify_password(data.password_old):\n            raise ValueError("Invalid old password.")\n',
    '    if account.password_hash and data.password_old:\n        if not account.verify_password(data.password_old):\n            raise ValueError("Invalid old password.")\n',
  ),
  E(
    "ln-admin-cookie-js-readable",
    R_LNBITS,
    "lnbits/core/views/auth_api.py",
    "secure-default",
    '        "admin_access_token", cookie_access_token, httponly=True, max_age=max_age',
    '        "admin_access_token", cookie_access_token, httponly=False, max_age=max_age',
  ),
];

/** Reversed real security fixes of the twenty-sixth batch (split `history26`), chosen by message only. */
export const REVERSED_FIXES_HISTORY26: ReversedFix[] = [];
