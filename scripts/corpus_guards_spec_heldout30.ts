/**
 * Thirtieth held-out batch of the guard-removal corpus: removals written by reading the security
 * code of projects not otherwise used by the corpus (Saleor, invenio-accounts, invenio-access,
 * plone.restapi, Read the Docs, pulpcore, Kitsune, Taiga backend, django-oscar), chosen the way a
 * careless refactor or an attacker would weaken them, before any measurement. Reversed fixes were
 * picked by commit message or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const H30 = "heldout30" as const;
const SAL = "saleor/saleor";
const IA = "inveniosoftware/invenio-accounts";
const IAR = "invenio_accounts/views/rest.py";
const IAC = "inveniosoftware/invenio-access";
const IACP = "invenio_access/permissions.py";
const PR = "plone/plone.restapi";
const PRP = "src/plone/restapi/pas/plugin.py";
const PRU = "src/plone/restapi/services/users/update.py";
const RTD = "readthedocs/readthedocs.org";
const RTDI = "readthedocs/api/v2/views/integrations.py";
const PULP = "pulp/pulpcore";
const PULPA = "pulpcore/app/access_policy.py";
const KIT = "mozilla/kitsune";
const KITD = "kitsune/access/decorators.py";
const KITA = "kitsune/users/auth.py";
const TG = "taigaio/taiga-back";
const TGP = "taiga/permissions/services.py";
const TGT = "taiga/auth/tokens.py";
const OSC = "django-oscar/django-oscar";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker(H30);

/** The thirtieth held-out batch of edits (split `heldout30`). */
export const EDITS_HELDOUT30: GuardEdit[] = [
  // ---- Saleor (Python)
  E(
    "sal-refresh-csrf-only-if-sent",
    SAL,
    "saleor/graphql/account/mutations/authentication/refresh_token.py",
    "token",
    "        if need_csrf:\n            cls.clean_csrf_token(csrf_token, payload)\n",
    "        if need_csrf and csrf_token:\n            cls.clean_csrf_token(csrf_token, payload)\n",
  ),
  E(
    "sal-backend-token-key-not-compared",
    SAL,
    "saleor/core/auth_backend.py",
    "token",
    '    if user.jwt_token_key != user_jwt_token:\n        raise jwt.InvalidTokenError(\n            "Invalid token. Create new one by using tokenCreate mutation."\n        )\n\n',
    "",
  ),
  E(
    "sal-access-payload-refresh-type",
    SAL,
    "saleor/core/jwt.py",
    "token",
    "    if jwt_type not in [JWT_ACCESS_TYPE, JWT_THIRDPARTY_ACCESS_TYPE]:\n",
    "    if jwt_type not in [JWT_ACCESS_TYPE, JWT_THIRDPARTY_ACCESS_TYPE, JWT_REFRESH_TYPE]:\n",
  ),
  E(
    "sal-payload-user-any-active-state",
    SAL,
    "saleor/core/jwt.py",
    "authn-branch",
    '    user = User.objects.filter(email=payload["email"], is_active=True).first()\n',
    '    user = User.objects.filter(email=payload["email"]).first()\n',
  ),
  E(
    "sal-create-token-inactive-allowed",
    SAL,
    "saleor/graphql/account/mutations/authentication/create_token.py",
    "authn-branch",
    '        if not user.is_active:\n            raise ValidationError(\n                {\n                    "email": ValidationError(\n                        "Account inactive.",\n                        code=AccountErrorCode.INACTIVE.value,\n                    )\n                }\n            )\n        return user\n',
    "        return user\n",
  ),
  E(
    "sal-app-token-perms-union",
    SAL,
    "saleor/core/jwt.py",
    "authz",
    "        PERMISSIONS_FIELD: list(app_permission_enums & user_permission_enums),\n",
    "        PERMISSIONS_FIELD: list(app_permission_enums | user_permission_enums),\n",
  ),
  E(
    "sal-auth-filter-or-perms",
    SAL,
    "saleor/permission/utils.py",
    "authz",
    "        return all(perm_results) and any(auth_filters_results)\n",
    "        return all(perm_results) or any(auth_filters_results)\n",
  ),
  E(
    "sal-account-delete-token-static-hash",
    SAL,
    "saleor/core/tokens.py",
    "token",
    '        return f"{user.pk}{user.password}{timestamp}{email}"\n',
    '        return f"{user.pk}{timestamp}"\n',
  ),
  E(
    "sal-set-password-token-result-ignored",
    SAL,
    "saleor/graphql/account/mutations/authentication/set_password.py",
    "token",
    "        if not valid_token or error:\n",
    "        if error:\n",
  ),
  E(
    "sal-password-change-old-optional",
    SAL,
    "saleor/graphql/account/mutations/authentication/password_change.py",
    "credential",
    "            if user.has_usable_password():\n                cls.raise_invalid_credentials()\n",
    "",
  ),
  // ---- invenio-accounts (Python)
  E(
    "ia-rest-login-disabled-account",
    IA,
    IAR,
    "authn-branch",
    '        if not user.is_active:\n            _abort(get_message("DISABLED_ACCOUNT")[0])\n',
    "",
  ),
  E(
    "ia-rest-login-empty-password",
    IA,
    IAR,
    "credential",
    "        if not verify_and_update_password(password, user):\n",
    "        if password and not verify_and_update_password(password, user):\n",
  ),
  E(
    "ia-change-password-old-unverified",
    IA,
    IAR,
    "credential",
    '        if not verify_and_update_password(password, current_user):\n            _abort(get_message("INVALID_PASSWORD")[0], "password")\n',
    "",
  ),
  E(
    "ia-revoke-session-any-user",
    IA,
    IAR,
    "authz",
    "            SessionActivity.query_by_user(current_user.get_id())\n            .filter_by(sid_s=sid_s)\n",
    "            SessionActivity.query.filter_by(sid_s=sid_s)\n",
  ),
  E(
    "ia-userinfo-no-login",
    IA,
    IAR,
    "authz",
    '    """View to fetch info from current user."""\n\n    decorators = [login_required]\n',
    '    """View to fetch info from current user."""\n',
  ),
  E(
    "ia-jwt-expiry-unchecked",
    IA,
    "invenio_accounts/utils.py",
    "token",
    '                "verify_sub": False,\n            },\n',
    '                "verify_sub": False,\n                "verify_exp": False,\n            },\n',
  ),
  E(
    "ia-rest-login-unconfirmed",
    IA,
    IAR,
    "authn-branch",
    '        if requires_confirmation(user):\n            _abort(get_message("CONFIRMATION_REQUIRED")[0])\n',
    "",
  ),
  E(
    "ia-rest-local-login-disabled-ignored",
    IA,
    IAR,
    "authn-branch",
    '        if not current_app.config.get("ACCOUNTS_LOCAL_LOGIN_ENABLED"):\n            _abort(get_message("LOCAL_LOGIN_DISABLED")[0])\n\n',
    "",
  ),
  E(
    "ia-confirm-token-expired-accepted",
    IA,
    IAR,
    "token",
    "        already_confirmed = user is not None and user.confirmed_at is not None\n        if expired and not already_confirmed:\n",
    "        already_confirmed = user is not None and user.confirmed_at is not None\n        if expired and already_confirmed:\n",
  ),
  E(
    "ia-password-hash-plaintext",
    IA,
    "invenio_accounts/config.py",
    "secure-default",
    'SECURITY_PASSWORD_HASH = "pbkdf2_sha512"\n',
    'SECURITY_PASSWORD_HASH = "plaintext"\n',
  ),
  // ---- invenio-access (Python)
  E(
    "iac-allow-by-default-on",
    IAC,
    IACP,
    "secure-default",
    "    allow_by_default = False\n",
    "    allow_by_default = True\n",
  ),
  E(
    "iac-empty-needs-no-dummy",
    IAC,
    IACP,
    "authz",
    "        if needs_empty and deny_access_when_empty_needs:\n            # Add at least one dummy need so that it will always deny access\n            result.needs.update(action_needs)\n",
    "",
  ),
  E(
    "iac-db-excludes-as-needs",
    IAC,
    IACP,
    "authz",
    "                if db_action.exclude:\n                    action.excludes.add(db_action.need)\n                else:\n                    action.needs.add(db_action.need)\n",
    "                action.needs.add(db_action.need)\n",
  ),
  E(
    "iac-authenticated-need-for-all",
    IAC,
    "invenio_access/loaders.py",
    "authn-branch",
    "    if current_user.is_authenticated:\n        # Add the need provided to authenticated users\n        identity.provides.add(authenticated_user)\n",
    "    # Add the need provided to authenticated users\n    identity.provides.add(authenticated_user)\n",
  ),
  // ---- plone.restapi (Python)
  E(
    "pr-jwt-stored-token-not-required",
    PR,
    PRP,
    "token",
    '            if credentials["token"] not in self._tokens[userid]:\n                return\n',
    "",
  ),
  E(
    "pr-jwt-signature-unverified",
    PR,
    PRP,
    "token",
    '        payload = self._decode_token(credentials["token"])\n',
    '        payload = self._decode_token(credentials["token"], verify=False)\n',
  ),
  E(
    "pr-roles-change-always-allowed",
    PR,
    PRU,
    "authz",
    '        return ("Manager" in current_roles) == ("Manager" in list(target_roles))\n',
    "        return True\n",
  ),
  E(
    "pr-login-user-lookup-only",
    PR,
    "src/plone/restapi/services/auth/login.py",
    "credential",
    "            user = uf.authenticate(userid, password, self.request)\n",
    "            user = uf.getUser(userid)\n",
  ),
  // ---- Read the Docs (Python)
  E(
    "rtd-build-api-key-expired-ok",
    RTD,
    "readthedocs/api/v2/permissions.py",
    "token",
    "        if build_api_key.has_expired:\n            return False\n\n",
    "",
  ),
  E(
    "rtd-v3-project-admin-logged-in",
    RTD,
    "readthedocs/api/v3/permissions.py",
    "authz",
    "        project = view._get_parent_project()\n        if view.has_admin_permission(request.user, project):\n",
    "        project = view._get_parent_project()\n        if project and request.user.is_authenticated:\n",
  ),
  E(
    "rtd-gitlab-token-prefix",
    RTD,
    RTDI,
    "credential",
    "        return constant_time_compare(secret, token)\n",
    "        return secret.startswith(token)\n",
  ),
  E(
    "rtd-github-legacy-sha1-accepted",
    RTD,
    RTDI,
    "credential",
    '        result = hmac.compare_digest(\n            b"sha256=" + digest.encode(),\n            signature.encode(),\n        )\n        return result\n\n    def handle_webhook(self):\n        """\n',
    '        result = hmac.compare_digest(\n            b"sha256=" + digest.encode(),\n            signature.encode(),\n        )\n        return result or signature.startswith("sha1=")\n\n    def handle_webhook(self):\n        """\n',
  ),
  E(
    "rtd-api-webhook-token-any-project",
    RTD,
    RTDI,
    "authz",
    '            is_valid = integration.project == obj and constant_time_compare(\n                token, getattr(integration, "token", "")\n            )\n',
    '            is_valid = constant_time_compare(\n                token, getattr(integration, "token", "")\n            )\n',
  ),
  E(
    "rtd-session-cookie-script-readable",
    RTD,
    "readthedocs/settings/base.py",
    "secure-default",
    "    SESSION_COOKIE_HTTPONLY = True\n",
    "    SESSION_COOKIE_HTTPONLY = False\n",
  ),
  E(
    "rtd-email-verification-optional",
    RTD,
    "readthedocs/settings/base.py",
    "secure-default",
    '    ACCOUNT_EMAIL_VERIFICATION = "mandatory"\n',
    '    ACCOUNT_EMAIL_VERIFICATION = "optional"\n',
  ),
  E(
    "rtd-bitbucket-signature-shape-only",
    RTD,
    RTDI,
    "credential",
    '        digest = WebhookMixin.get_digest(secret, msg)\n        result = hmac.compare_digest(\n            b"sha256=" + digest.encode(),\n            signature.encode(),\n        )\n        return result\n\n\nclass IsAuthenticatedOrHasToken',
    '        digest = WebhookMixin.get_digest(secret, msg)\n        result = signature.startswith("sha256=") and len(signature) == len(digest) + 7\n        return result\n\n\nclass IsAuthenticatedOrHasToken',
  ),
  // ---- pulpcore (Python)
  E(
    "pulp-remote-user-autocreate",
    PULP,
    "pulpcore/app/authentication.py",
    "secure-default",
    "    create_unknown_user = False  # Configure RemoteUserBackend to not create users\n",
    "    create_unknown_user = True\n",
  ),
  E(
    "pulp-default-policy-authenticated",
    PULP,
    PULPA,
    "secure-default",
    'DEFAULT_ACCESS_POLICY = {"statements": [{"action": "*", "principal": "admin", "effect": "allow"}]}\n',
    'DEFAULT_ACCESS_POLICY = {\n    "statements": [{"action": "*", "principal": "authenticated", "effect": "allow"}]\n}\n',
  ),
  E(
    "pulp-queryset-scoping-skipped",
    PULP,
    PULPA,
    "authz",
    '            kwargs = queryset_scoping.get("parameters") or {}\n            qs = function(qs, **kwargs)\n',
    '            kwargs = queryset_scoping.get("parameters") or {}\n            # qs = function(qs, **kwargs)\n',
  ),
  E(
    "pulp-content-guard-denial-logged",
    PULP,
    "pulpcore/content/handler.py",
    "authz",
    '                {"p": request.path, "g": guard.name, "r": str(pe)},\n            )\n            raise HTTPForbidden(reason=str(pe))\n        return True\n',
    '                {"p": request.path, "g": guard.name, "r": str(pe)},\n            )\n        return True\n',
  ),
  E(
    "pulp-saml-session-cookie-insecure",
    PULP,
    "pulpcore/app/settings.py",
    "secure-default",
    '        if "SESSION_COOKIE_SECURE" not in settings:\n            data["SESSION_COOKIE_SECURE"] = True\n',
    '        if "SESSION_COOKIE_SECURE" not in settings:\n            data["SESSION_COOKIE_SECURE"] = False\n',
  ),
  // ---- Kitsune (Python)
  E(
    "kit-login-required-inactive-ok",
    KIT,
    KITD,
    "authn-branch",
    "            return not (user.is_authenticated and user.is_active)\n",
    "            return not user.is_authenticated\n",
  ),
  E(
    "kit-permission-required-active-only",
    KIT,
    KITD,
    "authz",
    "            return not (user.is_active and user.has_perm(perm))\n",
    "            return not user.is_active\n",
  ),
  E(
    "kit-group-required-membership-dropped",
    KIT,
    KITD,
    "authz",
    "                if not (\n                    request.user.is_active and request.user.groups.filter(name=group_name).exists()\n                ):\n",
    "                if not request.user.is_active:\n",
  ),
  E(
    "kit-subscription-fetch-no-tls-verify",
    KIT,
    KITA,
    "secure-default",
    '                verify=self.get_settings("OIDC_VERIFY_SSL", True),\n',
    '                verify=self.get_settings("OIDC_VERIFY_SSL", False),\n',
  ),
  E(
    "kit-fxa-missing-uid-continues",
    KIT,
    KITA,
    "authn-branch",
    '        if not fxa_uid:\n            log.warning("Failed to get Mozilla account UID.")\n            return users\n\n',
    "",
  ),
  E(
    "kit-password-change-logout-inverted",
    KIT,
    "kitsune/users/middleware.py",
    "authn-branch",
    "        if change_time and change_time > first_seen:\n",
    "        if change_time and change_time < first_seen:\n",
  ),
  E(
    "kit-deactivated-users-stay-logged-in",
    KIT,
    "kitsune/users/middleware.py",
    "authn-branch",
    '    def process_request(self, request):\n        user = request.user\n\n        if user.is_authenticated and not user.is_active:\n            logout(request)\n            return HttpResponseRedirect(reverse("home"))\n',
    "    def process_request(self, request):\n        pass\n",
  ),
  E(
    "kit-ssl-redirect-default-off",
    KIT,
    "kitsune/settings.py",
    "secure-default",
    'SECURE_SSL_REDIRECT = config("SECURE_SSL_REDIRECT", default=not DEBUG, cast=bool)\n',
    'SECURE_SSL_REDIRECT = config("SECURE_SSL_REDIRECT", default=False, cast=bool)\n',
  ),
  // ---- Taiga backend (Python)
  E(
    "tg-project-admin-any-member",
    TG,
    TGP,
    "authz",
    "    membership = _get_user_project_membership(user, project)\n    if membership and membership.is_admin:\n        return True\n",
    "    membership = _get_user_project_membership(user, project)\n    if membership:\n        return True\n",
  ),
  E(
    "tg-jwt-user-inactive-ok",
    TG,
    "taiga/auth/authentication.py",
    "authn-branch",
    "        if not user.is_active or user.is_system:\n            raise AuthenticationFailed(_('User is inactive'), code='user_inactive')\n",
    "        if user.is_system:\n            raise AuthenticationFailed(_('User is inactive'), code='user_inactive')\n",
  ),
  E(
    "tg-token-type-mismatch-ok",
    TG,
    TGT,
    "token",
    "        if self.token_type != token_type:\n            raise TokenError(_('Token has wrong type'))\n",
    "",
  ),
  E(
    "tg-denylist-not-consulted",
    TG,
    TGT,
    "token",
    "            self.check_denylist()\n\n            super().verify(*args, **kwargs)\n",
    "            super().verify(*args, **kwargs)\n",
  ),
  E(
    "tg-login-password-not-checked",
    TG,
    "taiga/users/services.py",
    "credential",
    "    if not user.check_password(password) or not user.is_active or user.is_system:\n",
    "    if not user.is_active or user.is_system:\n",
  ),
  E(
    "tg-cookies-not-secure",
    TG,
    "settings/common.py",
    "secure-default",
    "SESSION_COOKIE_SECURE = True\nCSRF_COOKIE_AGE = None\nCSRF_COOKIE_SECURE = True\n",
    "SESSION_COOKIE_SECURE = False\nCSRF_COOKIE_AGE = None\nCSRF_COOKIE_SECURE = False\n",
  ),
  E(
    "tg-change-password-current-optional",
    TG,
    "taiga/users/api.py",
    "credential",
    '        if not current_password and request.user.password:\n            raise exc.WrongArguments(_("Current password parameter needed"))\n\n',
    "",
  ),
  // ---- django-oscar (Python)
  E(
    "osc-email-backend-inactive-user",
    OSC,
    "src/oscar/apps/customer/auth_backends.py",
    "authn-branch",
    "            if (user.check_password(password) and self.user_can_authenticate(user))\n",
    "            if user.check_password(password)\n",
  ),
  E(
    "osc-confirm-password-not-checked",
    OSC,
    "src/oscar/apps/customer/forms.py",
    "credential",
    '        if not self.user.check_password(password):\n            raise forms.ValidationError(_("The entered password is not valid!"))\n',
    "",
  ),
  E(
    "osc-order-hash-any-order",
    OSC,
    "src/oscar/apps/order/abstract_models.py",
    "token",
    "        except BadSignature:\n            return False\n\n        return constant_time_compare(signed_number, self.number)\n",
    "        except BadSignature:\n            return False\n\n        return True\n",
  ),
  E(
    "osc-anon-order-hash-or-email",
    OSC,
    "src/oscar/apps/customer/mixins.py",
    "token",
    "            if order.check_verification_hash(self.hash) and order.email == self.email:\n",
    "            if order.check_verification_hash(self.hash) or order.email == self.email:\n",
  ),
  E(
    "osc-dashboard-perms-conditions-only",
    OSC,
    "src/oscar/views/decorators.py",
    "authz",
    "        return passes_conditions and user.has_perms(regular_permissions)\n",
    "        return passes_conditions\n",
  ),
];

/** Reversed real security fixes of the thirtieth batch (split `history30`), chosen by message only. */
export const REVERSED_FIXES_HISTORY30: ReversedFix[] = [
  {
    id: "sal-CVE-2026-48744",
    repo: SAL,
    commit: "580b93b6e0",
    path: "saleor/permission/utils.py",
    cls: "authz",
    note: "Fix CVE-2026-48744 (one-of-permissions or authorization-filter check)",
    split: "history30",
  },
  {
    id: "sal-jwt-expiration-always",
    repo: SAL,
    commit: "7a13916673",
    path: "saleor/core/jwt_manager.py",
    cls: "token",
    note: "Disallow disabling JWT expiration (verify_expiration flag was a security hole)",
    split: "history30",
  },
  {
    id: "sal-CVE-2026-44472",
    repo: SAL,
    commit: "5110542c16",
    path: "saleor/graphql/account/mutations/account/confirm_account.py",
    cls: "authn-branch",
    note: "Fix CVE-2026-44472 (account confirmation)",
    split: "history30",
  },
  {
    id: "rtd-GHSA-rmqq-mq6q-8hpg",
    repo: RTD,
    commit: "b90298313",
    path: "readthedocs/oauth/querysets.py",
    cls: "authz",
    note:
      "GHSA-rmqq-mq6q-8hpg: only admin users may import projects (check was frontend-only; API v3 had none)",
    split: "history30",
  },
  {
    id: "rtd-GHSA-45hq-g76r-46wv",
    repo: RTD,
    commit: "55511b40d",
    path: "readthedocs/api/v2/views/integrations.py",
    cls: "credential",
    note:
      "GHSA-45hq-g76r-46wv: incoming webhooks must have a secret; no auto-created integrations without one",
    split: "history30",
  },
  {
    id: "rtd-GHSA-h73w-m588-h9r6",
    repo: RTD,
    commit: "04dd0e6a7",
    path: "readthedocs/core/adapters.py",
    cls: "authn-branch",
    note:
      "GHSA-h73w-m588-h9r6: don't take secondary (unverified) emails from GitHub at social login",
    split: "history30",
  },
  {
    id: "pulp-CVE-2024-7143",
    repo: PULP,
    commit: "20cffca49",
    path: "pulpcore/tasking/_util.py",
    cls: "authz",
    note: "CVE-2024-7143: incorrect RBAC permissions in object creation tasks",
    split: "history30",
  },
  {
    id: "tg-users-info-security-bug",
    repo: TG,
    commit: "a3e4f8c2",
    path: "taiga/users/permissions.py",
    cls: "authz",
    note: "Fixed security bug on users info",
    split: "history30",
  },
];
