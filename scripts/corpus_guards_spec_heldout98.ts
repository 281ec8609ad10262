/**
 * Held-out batch 98 of the guard-removal corpus: removals written by reading the security code of
 * Python projects not otherwise used by the corpus (gns3-server, open-event-server, scrapyd,
 * supysonic, byceps, galaxy_ng, rssant, headphones, IntelOwl), chosen the way a careless refactor
 * or an attacker would weaken them, before any measurement. Reversed fixes were picked by commit
 * message only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const H98 = "heldout98" as const;
const GN = "GNS3/gns3-server";
const GNR = "gns3server/web/route.py";
const OE = "fossasia/open-event-server";
const OEA = "app/api/auth.py";
const OEP = "app/api/helpers/permissions.py";
const SD = "scrapy/scrapyd";
const SDB = "scrapyd/basicauth.py";
const SS = "spl0k/supysonic";
const SSU = "supysonic/managers/user.py";
const SSB = "supysonic/api/_blueprint.py";
const SSF = "supysonic/frontend/__init__.py";
const BC = "byceps/byceps";
const BCA = "byceps/services/authn/authn_service.py";
const BCV = "byceps/util/views.py";
const GX = "ansible/galaxy_ng";
const GXT = "galaxy_ng/app/auth/token_auth.py";
const GXP = "galaxy_ng/app/access_control/access_policy.py";
const RA = "anyant/rssant";
const RAI = "rssant_common/image_token.py";
const HP = "rembo10/headphones";
const HPA = "headphones/api.py";
const IO = "intelowlproject/IntelOwl";
const IOP = "api_app/permissions.py";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker(H98);

/** Held-out batch 98 of edits (split `heldout98`). */
export const EDITS_HELDOUT98: GuardEdit[] = [
  // ---- GNS3/gns3-server (Python, aiohttp)
  E(
    "gns-basic-auth-any-header",
    GN,
    GNR,
    "credential",
    '            if request.headers["AUTHORIZATION"] == aiohttp.helpers.BasicAuth(user, password, "utf-8").encode():\n',
    '            if request.headers["AUTHORIZATION"].startswith("Basic "):\n',
  ),
  E(
    "gns-route-auth-skipped",
    GN,
    GNR,
    "authn-branch",
    "                # Authenticate\n                response = cls.authenticate(request, route, server_config)\n                if response is not None:\n                    return response\n\n",
    "",
  ),
  E(
    "gns-ws-exception-widened",
    GN,
    GNR,
    "authz",
    '        if not server_config.getboolean("auth", False) or request.path.endswith("console/ws"):\n',
    '        if not server_config.getboolean("auth", False) or "/ws" in request.path or request.method == "GET":\n',
  ),
  // ---- fossasia/open-event-server (Python, Flask)
  E(
    "oe-fresh-login-any-identity",
    OE,
    OEA,
    "authn-branch",
    "    if not identity or (existing_identity and identity != existing_identity):\n",
    "    if not identity:\n",
  ),
  E(
    "oe-blocked-account-login",
    OE,
    OEA,
    "authn-branch",
    "    if identity.is_blocked:\n        logging.info('Admin has marked this account as spam')\n        return jsonify(error='Admin has marked this account as spam'), 401\n\n",
    "",
  ),
  E(
    "oe-change-password-old-unchecked",
    OE,
    OEA,
    "credential",
    "        if user.is_correct_password(old_password):\n",
    "        if old_password:\n",
  ),
  E(
    "oe-refresh-token-no-expiry",
    OE,
    OEA,
    "token",
    "        identity=current_user, fresh=False, expires_delta=expiry_time\n",
    "        identity=current_user, fresh=False, expires_delta=False\n",
  ),
  E(
    "oe-refresh-route-undecorated",
    OE,
    OEA,
    "token",
    "@jwt_refresh_token_required\ndef refresh_token():\n",
    "def refresh_token():\n",
  ),
  E(
    "oe-empty-stored-password-matches",
    OE,
    "app/models/user.py",
    "credential",
    "        if password == self._password:\n            return True\n        return False\n",
    "        if password == self._password or not self._password:\n            return True\n        return False\n",
  ),
  E(
    "oe-super-admin-check-removed",
    OE,
    OEP,
    "authz",
    "        if not user.is_super_admin:\n            raise ForbiddenError({'source': ''}, 'Super admin access is required')\n",
    "",
  ),
  E(
    "oe-owner-any-event",
    OE,
    OEP,
    "authz",
    "        if 'event_id' in kwargs and user.is_owner(kwargs['event_id']):\n",
    "        if 'event_id' in kwargs:\n",
  ),
  E(
    "oe-jwt-required-no-verify",
    OE,
    OEP,
    "token",
    "        verify_jwt_in_request()\n        current_user.last_accessed_at = datetime.now()\n",
    "        # verify_jwt_in_request()\n        current_user.last_accessed_at = datetime.now()\n",
  ),
  // ---- scrapy/scrapyd (Python, Twisted)
  E(
    "sd-password-not-compared",
    SD,
    SDB,
    "credential",
    "        if credentials.username == self.username and credentials.password == self.password:\n",
    "        if credentials.username == self.username:\n",
  ),
  E(
    "sd-auth-opt-in-flag",
    SD,
    SDB,
    "secure-default",
    '    if username and password:\n        log.info("Basic authentication enabled")\n',
    '    if username and password and config.getboolean("auth_enabled", False):\n        log.info("Basic authentication enabled")\n',
  ),
  E(
    "sd-unauthorized-login-succeeds",
    SD,
    SDB,
    "authn-branch",
    "        return defer.fail(error.UnauthorizedLogin())\n",
    '        log.warn("Unauthorized login for {username}", username=credentials.username)\n        return defer.succeed(credentials.username)\n',
  ),
  // ---- spl0k/supysonic (Python, Flask)
  E(
    "ss-compare-digest-weak",
    SS,
    SSU,
    "credential",
    "        return hmac.compare_digest(encrypted, user.password)\n",
    "        return hmac.compare_digest(encrypted, user.password) or password == user.password\n",
  ),
  E(
    "ss-change-password-no-old-check",
    SS,
    SSU,
    "credential",
    '        if not UserManager.__compare_password(user, old_pass):\n            raise ValueError("Wrong password")\n\n',
    "",
  ),
  E(
    "ss-query-auth-failure-ignored",
    SS,
    SSB,
    "authn-branch",
    '    user = UserManager.try_auth(username, password)\n    if user is None:\n        logger.error(\n            "Failed login attempt for user %s (IP: %s)", username, request.remote_addr\n        )\n        raise Unauthorized()\n',
    '    user = UserManager.try_auth(username, password)\n    if user is None:\n        logger.error(\n            "Failed login attempt for user %s (IP: %s)", username, request.remote_addr\n        )\n',
  ),
  E(
    "ss-frontend-login-redirect-gone",
    SS,
    SSF,
    "authn-branch",
    '    if should_login and request.endpoint != "frontend.login":\n        flash("Please login")\n        return redirect(url_for("frontend.login"))\n',
    '    if should_login and request.endpoint != "frontend.login":\n        flash("Please login")\n',
  ),
  E(
    "ss-admin-only-any-user",
    SS,
    SSF,
    "authz",
    '        if not request.user or not request.user.admin:\n            return redirect(url_for("frontend.index"))\n',
    '        if not request.user:\n            return redirect(url_for("frontend.index"))\n',
  ),
  E(
    "ss-list-users-undecorated",
    SS,
    "supysonic/api/user.py",
    "authz",
    '@api_routing("/getUsers")\n@admin_only\ndef users_info():\n',
    '@api_routing("/getUsers")\ndef users_info():\n',
  ),
  E(
    "ss-change-other-password",
    SS,
    "supysonic/api/user.py",
    "authz",
    "    if username != request.user.name and not request.user.admin:\n        raise Forbidden()\n\n    user = User.get(name=username)\n",
    "    user = User.get(name=username)\n",
  ),
  // ---- byceps/byceps (Python, Flask)
  E(
    "bc-suspended-account-login",
    BC,
    BCA,
    "authn-branch",
    "    if user.suspended:\n        return Err(UserAccountSuspendedError())\n\n",
    "",
  ),
  E(
    "bc-password-check-skipped",
    BC,
    BCA,
    "credential",
    "    return (\n        _identify_account(screen_name_or_email_address)\n        .and_then(_check_account)\n        .and_then(check_password)\n    )\n",
    "    return _identify_account(screen_name_or_email_address).and_then(\n        _check_account\n    )\n",
  ),
  E(
    "bc-hash-none-accepted",
    BC,
    "byceps/services/authn/password/authn_password_domain_service.py",
    "credential",
    "        return (password_hash is not None) and _werkzeug_check_password_hash(\n            password_hash, password\n        )\n",
    "        return (password_hash is None) or _werkzeug_check_password_hash(\n            password_hash, password\n        )\n",
  ),
  E(
    "bc-session-user-not-bound",
    BC,
    "byceps/services/authn/session/authn_session_repository.py",
    "token",
    "                .where(DbSessionToken.token == token)\n                .where(DbSessionToken.user_id == user_id)\n",
    "                .where(DbSessionToken.token == token)\n",
  ),
  E(
    "bc-session-empty-token",
    BC,
    "byceps/services/authn/session/authn_session_service.py",
    "token",
    "    if not auth_token:\n        # Authentication token must not be empty.\n        return False\n\n",
    "",
  ),
  E(
    "bc-api-token-suspended-ok",
    BC,
    BCV,
    "token",
    "        if api_token.suspended:\n            www_authenticate = WWWAuthenticate('Bearer')\n            www_authenticate['error'] = 'invalid_token'\n            abort(401, www_authenticate=www_authenticate)\n",
    "        if api_token.suspended:\n            www_authenticate = WWWAuthenticate('Bearer')\n            www_authenticate['error'] = 'invalid_token'\n",
  ),
  E(
    "bc-permission-required-noop",
    BC,
    BCV,
    "authz",
    "            if not g.user.has_permission(permission):\n                abort(403)\n            return func(*args, **kwargs)\n",
    "            return func(*args, **kwargs)\n",
  ),
  E(
    "bc-api-token-missing-passes",
    BC,
    BCV,
    "authn-branch",
    "        if api_token is None:\n            www_authenticate = WWWAuthenticate('Bearer')\n            abort(401, www_authenticate=www_authenticate)\n",
    "        if api_token is None and request.method != 'GET':\n            www_authenticate = WWWAuthenticate('Bearer')\n            abort(401, www_authenticate=www_authenticate)\n",
  ),
  // ---- ansible/galaxy_ng (Python, Django/DRF)
  E(
    "gx-token-inactive-user",
    GX,
    GXT,
    "authn-branch",
    "        if not token.user.is_active:\n            raise exceptions.AuthenticationFailed('User inactive or deleted')\n\n",
    "",
  ),
  E(
    "gx-token-expiry-inverted",
    GX,
    GXT,
    "token",
    "                    if token.created < utc_now - datetime.timedelta(minutes=expiry):\n",
    "                    if token.created > utc_now + datetime.timedelta(minutes=expiry):\n",
  ),
  E(
    "gx-rh-identity-unknown-type",
    GX,
    "galaxy_ng/app/auth/auth.py",
    "authn-branch",
    "                user = {}\n            except KeyError:\n                raise AuthenticationFailed\n        else:\n            raise AuthenticationFailed\n",
    '                user = {}\n            except KeyError:\n                raise AuthenticationFailed\n        else:\n            username = identity.get("username", "anonymous")\n            account = username\n            user = {}\n',
  ),
  E(
    "gx-entitled-by-default",
    GX,
    GXP,
    "secure-default",
    '        return entitlement.get("is_entitled", False)\n',
    '        return entitlement.get("is_entitled", True)\n',
  ),
  E(
    "gx-update-collection-any-user",
    GX,
    GXP,
    "authz",
    '        return has_model_or_object_permissions(\n            request.user, "galaxy.upload_to_namespace", namespace\n        )\n',
    "        return request.user.is_authenticated\n",
  ),
  E(
    "gx-view-users-unconditional",
    GX,
    GXP,
    "authz",
    '        if request.user.has_perm("galaxy.view_user"):  # noqa: SIM103\n            return True\n\n        return False\n',
    "        return True\n",
  ),
  E(
    "gx-my-user-any-object",
    GX,
    GXP,
    "authz",
    "    def is_current_user(self, request, view, action):\n        return request.user == view.get_object()\n",
    "    def is_current_user(self, request, view, action):\n        return request.user.is_authenticated\n",
  ),
  E(
    "gx-unauth-access-default-on",
    GX,
    "galaxy_ng/app/settings.py",
    "secure-default",
    "GALAXY_ENABLE_UNAUTHENTICATED_COLLECTION_ACCESS = False\n",
    "GALAXY_ENABLE_UNAUTHENTICATED_COLLECTION_ACCESS = True\n",
  ),
  E(
    "gx-csrf-middleware-removed",
    GX,
    "galaxy_ng/app/settings.py",
    "authz",
    "    'django.middleware.csrf.CsrfViewMiddleware',\n",
    "",
  ),
  // ---- anyant/rssant (Python, Django)
  E(
    "ra-image-token-sign-unchecked",
    RA,
    RAI,
    "token",
    "        expect_sign = cls._sign(text, secret=secret)\n        if sign != expect_sign:\n            raise ImageTokenDecodeError('image token signature mismatch')\n",
    "        expect_sign = cls._sign(text, secret=secret)\n        if sign != expect_sign:\n            pass  # tolerate tokens signed with a rotated secret\n",
  ),
  E(
    "ra-image-token-never-expires",
    RA,
    RAI,
    "token",
    "            if is_expired:\n                raise ImageTokenExpiredError('image token expired')\n",
    "            if is_expired:\n                payload['timestamp'] = int(clock())\n",
  ),
  E(
    "ra-service-secret-empty-match",
    RA,
    "rssant_api/views/common.py",
    "credential",
    "        return secrets.compare_digest(secret, expected_secret)\n",
    "        return not expected_secret or secrets.compare_digest(secret, expected_secret)\n",
  ),
  E(
    "ra-default-permission-allow-any",
    RA,
    "rssant/settings/settings.py",
    "secure-default",
    "    'DEFAULT_PERMISSION_CLASSES': ('rest_framework.permissions.IsAuthenticated',),\n",
    "    'DEFAULT_PERMISSION_CLASSES': ('rest_framework.permissions.AllowAny',),\n",
  ),
  E(
    "ra-feed-creation-any-owner",
    RA,
    "rssant_api/views/feed.py",
    "authz",
    "        feed_creation = FeedCreation.get_by_pk(\n            id, user_id=request.user.id, detail=detail\n        )\n",
    "        feed_creation = FeedCreation.get_by_pk(id, detail=detail)\n",
  ),
  // ---- rembo10/headphones (Python, CherryPy)
  E(
    "hp-api-key-not-compared",
    HP,
    HPA,
    "credential",
    "        if kwargs['apikey'] != headphones.CONFIG.API_KEY:\n            self.data = 'Incorrect API key'\n            return\n        else:\n            self.apikey = kwargs.pop('apikey')\n",
    "        self.apikey = kwargs.pop('apikey')\n",
  ),
  E(
    "hp-api-key-missing-ok",
    HP,
    HPA,
    "authn-branch",
    "        if 'apikey' not in kwargs:\n            self.data = 'Missing api key'\n            return\n\n",
    "",
  ),
  E(
    "hp-verify-ssl-default-off",
    HP,
    "headphones/config.py",
    "secure-default",
    "    'VERIFY_SSL_CERT': (bool_int, 'Advanced', 1),\n",
    "    'VERIFY_SSL_CERT': (bool_int, 'Advanced', 0),\n",
  ),
  E(
    "hp-request-verify-false",
    HP,
    "headphones/request.py",
    "secure-default",
    '    kwargs["verify"] = bool(headphones.CONFIG.VERIFY_SSL_CERT)\n',
    '    kwargs["verify"] = False\n',
  ),
  E(
    "hp-web-auth-off",
    HP,
    "headphones/webstart.py",
    "authn-branch",
    "            'tools.auth_basic.on': True,\n",
    "            'tools.auth_basic.on': options.get('http_auth', False),\n",
  ),
  // ---- intelowlproject/IntelOwl (Python, Django/DRF)
  E(
    "io-owner-any-authenticated",
    IO,
    IOP,
    "authz",
    "        return obj_owner == request.user\n",
    "        return request.user.is_authenticated\n",
  ),
  E(
    "io-same-org-not-compared",
    IO,
    IOP,
    "authz",
    "            obj.owner.has_membership()\n            and request.user.has_membership()\n            and obj.owner.membership.organization_id\n            == request.user.membership.organization_id\n",
    "            obj.owner.has_membership()\n            and request.user.has_membership()\n",
  ),
  E(
    "io-org-admin-any-member",
    IO,
    IOP,
    "authz",
    "                request.user.has_membership()\n                and request.user.membership.is_admin\n                and obj_owner.membership.organization\n",
    "                request.user.has_membership()\n                and obj_owner.membership.organization\n",
  ),
  E(
    "io-plugin-actions-any-member",
    IO,
    IOP,
    "authz",
    "        if request.user.has_membership():\n            return request.user.membership.is_admin\n        else:\n            return request.user.is_superuser\n",
    "        if request.user.has_membership():\n            return True\n        else:\n            return request.user.is_superuser\n",
  ),
  E(
    "io-change-password-old-unchecked",
    IO,
    "authentication/views.py",
    "credential",
    "        if not check_password(old_password, user.password):\n",
    "        if not old_password:\n",
  ),
  E(
    "io-https-cookies-not-secure",
    IO,
    "intel_owl/settings/security.py",
    "secure-default",
    "    CSRF_COOKIE_SECURE = True\n    SESSION_COOKIE_SECURE = True\n",
    "    CSRF_COOKIE_SECURE = False\n    SESSION_COOKIE_SECURE = False\n",
  ),
  E(
    "io-default-permission-commented",
    IO,
    "intel_owl/settings/rest.py",
    "secure-default",
    '    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],\n',
    '    # "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],\n',
  ),
  E(
    "io-token-ttl-unbounded",
    IO,
    "intel_owl/settings/rest.py",
    "token",
    '    "DEFAULT_TOKEN_TTL": timedelta(days=14),\n',
    '    "DEFAULT_TOKEN_TTL": None,\n',
  ),
  // ---- additions across the same projects
  E(
    "bc-verification-token-any-purpose",
    BC,
    "byceps/services/verification_token/verification_token_service.py",
    "token",
    "        select(DbVerificationToken)\n        .filter_by(token=token_value)\n        .filter_by(_purpose=purpose.name)\n",
    "        select(DbVerificationToken).filter_by(token=token_value)\n",
  ),
  E(
    "bc-reset-token-never-expires",
    BC,
    "byceps/services/verification_token/verification_token_service.py",
    "token",
    "    return now >= (token.created_at + expires_after)\n",
    "    return token.created_at is None\n",
  ),
  E(
    "oe-jwt-blacklist-disabled",
    OE,
    "app/instance.py",
    "token",
    "    app.config['JWT_BLACKLIST_ENABLED'] = True\n",
    "    app.config['JWT_BLACKLIST_ENABLED'] = False\n",
  ),
  E(
    "oe-verify-email-unsigned",
    OE,
    OEA,
    "token",
    "        data = s.loads(token)\n",
    "        data = s.loads_unsafe(token)[1]\n",
  ),
  E(
    "sd-bind-all-interfaces",
    SD,
    "scrapyd/default_scrapyd.conf",
    "secure-default",
    "bind_address      = 127.0.0.1\n",
    "bind_address      = 0.0.0.0\n",
  ),
  E(
    "ss-session-cookie-script-readable",
    SS,
    "supysonic/config.py",
    "secure-default",
    "    SESSION_COOKIE_HTTPONLY = True\n",
    "    SESSION_COOKIE_HTTPONLY = False\n",
  ),
];

const R = "history98" as const;

/** Security fixes of the same projects, reversed (split `history98`). */
export const REVERSED_FIXES_HISTORY98: ReversedFix[] = [
  {
    id: "ss-timing-attacks",
    repo: SS,
    commit: "39d661c",
    path: SSU,
    cls: "credential",
    note: "security: circumvent timing attacks",
    split: R,
  },
  {
    id: "ss-csrf-protection",
    repo: SS,
    commit: "ce4f92b",
    path: "supysonic/web.py",
    cls: "authz",
    note: "security: add CSRF protection",
    split: R,
  },
  {
    id: "oe-discount-code-permission",
    repo: OE,
    commit: "d370e0961",
    path: "app/api/discount_codes.py",
    cls: "authz",
    note: "fix: permission check in ticket discount codes access",
    split: R,
  },
  {
    id: "oe-admin-translations-security",
    repo: OE,
    commit: "3d5ec8ab8",
    path: "app/api/admin_translations.py",
    cls: "authz",
    note: "fix: admin translations security",
    split: R,
  },
  {
    id: "oe-password-security-issue",
    repo: OE,
    commit: "8d4911882",
    path: "app/views/admin/home.py",
    cls: "credential",
    note: "fix confirmation issue and fix password security issue",
    split: R,
  },
  {
    id: "oe-refreshed-token-expiry",
    repo: OE,
    commit: "6a3bcf8dc",
    path: OEA,
    cls: "token",
    note: "fix: set expiry of refreshed access token to 90 minutes",
    split: R,
  },
  {
    id: "gx-approve-collections-permission",
    repo: GX,
    commit: "f0f6e7bc",
    path: GXP,
    cls: "authz",
    note: "approving collections via API permission problems",
    split: R,
  },
  {
    id: "gns-debug-export-local-only",
    repo: GN,
    commit: "8ad5670ee",
    path: "gns3server/handlers/api/controller/server_handler.py",
    cls: "authz",
    note: "for security reasons debug information can only be exported from the local server",
    split: R,
  },
  {
    id: "gx-dast-security-issues",
    repo: GX,
    commit: "7fa3adf4",
    path: "galaxy_ng/app/settings.py",
    cls: "secure-default",
    note: "address DAST security issues",
    split: R,
  },
];
