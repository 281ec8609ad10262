/**
 * Held-out batch 86 of the guard-removal corpus: removals written by reading the security code of
 * projects not otherwise used by the corpus (GOV.UK Notify API, OpenStack Keystone, WebODM,
 * PYBOSSA, Ona data, Invenio OAuthClient, OpenSlides backend, Open Library), chosen the way a
 * careless refactor or an attacker would weaken them, before any measurement. Reversed fixes were
 * picked by commit message or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const NA = "alphagov/notifications-api";
const NAA = "app/authentication/auth.py";
const KS = "openstack/keystone";
const WO = "OpenDroneMap/WebODM";
const PB = "Scifabric/pybossa";
const OD = "onaio/onadata";
const ODA = "onadata/libs/authentication.py";
const ODP = "onadata/apps/api/permissions.py";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker("heldout86");

/** Held-out batch 86 of edits (split `heldout86`). */
export const EDITS_HELDOUT86: GuardEdit[] = [
  // ---- GOV.UK Notify API (Python, Flask)
  E(
    "na-internal-client-mismatch",
    NA,
    NAA,
    "authz",
    '    if client_id != expected_client_id:\n        raise AuthError("Unauthorized: not allowed to perform this action", 401)\n\n',
    "",
  ),
  E(
    "na-archived-service",
    NA,
    NAA,
    "authn-branch",
    '    if not service.active:\n        raise AuthError("Invalid token: service is archived", 403, service_id=service.id)\n',
    '    if not service.active:\n        current_app.logger.info("API request for archived service %s", service.id)\n',
  ),
  E(
    "na-revoked-key",
    NA,
    NAA,
    "token",
    '        if api_key.expiry_date:\n            raise AuthError("Invalid token: API key revoked", 403, service_id=service_id, api_key_id=api_key.id)\n\n',
    "",
  ),
  E(
    "na-expired-token",
    NA,
    NAA,
    "token",
    "            raise AuthError(err_msg, 403, service_id=service_id, api_key_id=api_key.id) from e\n        except TokenAlgorithmError as e:\n",
    "            return api_key\n        except TokenAlgorithmError as e:\n",
  ),
  E(
    "na-no-matching-key",
    NA,
    NAA,
    "credential",
    '        # service has API keys, but none matching the one the user provided\n        raise AuthError("Invalid token: API key not found", 403, service_id=service_id)\n',
    "        # service has API keys, but none matching the one the user provided\n        return api_keys[0]\n",
  ),
  E(
    "na-no-token-header",
    NA,
    NAA,
    "authn-branch",
    '    if not auth_header:\n        raise AuthError("Unauthorized: authentication token must be provided", 401)\n',
    '    if not auth_header:\n        auth_header = ""\n',
  ),
  // ---- OpenStack Keystone (Python)
  E(
    "ks-totp-flag",
    KS,
    "keystone/auth/plugins/totp.py",
    "credential",
    "        valid_passcode = False\n        for credential in credentials:\n",
    "        valid_passcode = bool(credentials)\n        for credential in credentials:\n",
  ),
  E(
    "ks-disabled-user",
    KS,
    "keystone/identity/backends/sql.py",
    "authn-branch",
    "        elif not user_ref.enabled:\n            raise exception.UserDisabled(user_id=user_id)\n",
    "",
  ),
  E(
    "ks-account-locked",
    KS,
    "keystone/identity/backends/sql.py",
    "authn-branch",
    "        if self._is_account_locked(user_id, user_ref):\n            raise exception.AccountLocked(user_id=user_id)\n        elif not self._check_password(password, user_ref):\n",
    "        if not self._check_password(password, user_ref):\n",
  ),
  E(
    "ks-app-cred-assertion",
    KS,
    "keystone/auth/plugins/application_credential.py",
    "credential",
    "        except AssertionError as e:\n            raise exception.Unauthorized(e)\n",
    "        except AssertionError:\n            pass\n",
  ),
  E(
    "ks-check-password-none",
    KS,
    "keystone/common/password_hashing.py",
    "credential",
    "    if password is None or hashed is None:\n        return False\n",
    "    if hashed is None:\n        return password is None\n",
  ),
  // ---- WebODM (Python, Django)
  E(
    "wo-external-error",
    WO,
    "app/auth/backends.py",
    "authn-branch",
    "    if 'message' in res or 'error' in res:\n        return None\n\n",
    "",
  ),
  E(
    "wo-cluster-mismatch",
    WO,
    "app/auth/backends.py",
    "authz",
    "        if cluster_mismatch(res):\n            return None\n",
    "        if cluster_mismatch(res):\n            logger.warning(\"Cluster ID mismatch for %s\" % res['username'])\n",
  ),
  E(
    "wo-project-perm",
    WO,
    "app/api/common.py",
    "authz",
    "        for perm in perms:\n            if not request.user.has_perm(perm, project): raise ObjectDoesNotExist()\n",
    "",
  ),
  E(
    "wo-check-project-perms",
    WO,
    "app/api/common.py",
    "authz",
    "        if not request.user.has_perm(perm, project): raise exceptions.NotFound()\n",
    "        if not request.user.is_authenticated: raise exceptions.NotFound()\n",
  ),
  E(
    "wo-admin-user-viewset",
    WO,
    "app/api/admin.py",
    "authz",
    "class AdminUserViewSet(viewsets.ModelViewSet):\n    serializer_class = UserSerializer\n    permission_classes = [IsAdminUser]\n",
    "class AdminUserViewSet(viewsets.ModelViewSet):\n    serializer_class = UserSerializer\n",
  ),
  // ---- PYBOSSA (Python, Flask)
  E(
    "pb-read-unpublished",
    PB,
    "pybossa/auth/project.py",
    "authz",
    "        if project is not None and project.published is False:\n            return self._only_admin_or_owner(user, project)\n        return True\n",
    "        return True\n",
  ),
  E(
    "pb-admin-or-owner",
    PB,
    "pybossa/auth/project.py",
    "authz",
    "        return (not user.is_anonymous and\n                (user.id in project.owners_ids or user.admin))\n",
    "        return not user.is_anonymous\n",
  ),
  E(
    "pb-anon-contributors",
    PB,
    "pybossa/auth/taskrun.py",
    "authz",
    "        if (user.is_anonymous and\n                project.allow_anonymous_contributors is False):\n            return False\n",
    "",
  ),
  E(
    "pb-taskrun-delete-owner",
    PB,
    "pybossa/auth/taskrun.py",
    "authz",
    "        return user.admin or taskrun.user_id == user.id\n",
    "        return user.admin or user.is_authenticated\n",
  ),
  E(
    "pb-user-read-restricted",
    PB,
    "pybossa/auth/user.py",
    "authz",
    "            if (user.is_authenticated and user.id == resource_user.id):\n",
    "            if user.is_authenticated:\n",
  ),
  E(
    "pb-oauth-user-password",
    PB,
    "pybossa/model/user.py",
    "credential",
    "            return signer.check_password_hash(self.passwd_hash, password)\n        return False\n",
    "            return signer.check_password_hash(self.passwd_hash, password)\n        return True\n",
  ),
  E(
    "pb-project-password-needed",
    PB,
    "pybossa/password_manager.py",
    "authz",
    "            request_passwd = user_id_or_ip not in cookie\n",
    "            request_passwd = user_id_or_ip not in cookie and not current_user.is_authenticated\n",
  ),
  // ---- Ona data (Python, Django REST framework)
  E(
    "od-temptoken-inactive",
    OD,
    ODA,
    "authn-branch",
    '        if not token.user.is_active:\n            raise exceptions.AuthenticationFailed(_("User inactive or deleted"))\n\n',
    "",
  ),
  E(
    "od-temptoken-expired",
    OD,
    ODA,
    "token",
    '        if expired(token.created):\n            raise exceptions.AuthenticationFailed(_("Token expired"))\n',
    '        # if expired(token.created):\n        #     raise exceptions.AuthenticationFailed(_("Token expired"))\n',
  ),
  E(
    "od-enketo-jwt-signature",
    OD,
    ODA,
    "token",
    "        jwt_payload = jwt.decode(cookie_jwt, jwt_secret_key, algorithms=[jwt_algorithm])\n",
    '        jwt_payload = jwt.decode(\n            cookie_jwt,\n            jwt_secret_key,\n            algorithms=[jwt_algorithm],\n            options={"verify_signature": False},\n        )\n',
  ),
  E(
    "od-basic-lockout",
    OD,
    ODA,
    "authn-branch",
    "        ip_address, username = self._lockout_identity(request)\n        assert_not_locked_out(ip_address, username)\n",
    "        ip_address, username = self._lockout_identity(request)\n",
  ),
  E(
    "od-pkce-default-mode",
    OD,
    ODA,
    "secure-default",
    '    mode = getattr(settings, "OAUTH2_PKCE_S256_MODE", PKCE_S256_MODE_ENFORCE)\n',
    '    mode = getattr(settings, "OAUTH2_PKCE_S256_MODE", PKCE_S256_MODE_OBSERVE)\n',
  ),
  E(
    "od-xform-delete-perm",
    OD,
    ODP,
    "authz",
    '        if view.action == "destroy" and is_authenticated:\n            return request.user.has_perms(["logger.delete_xform"])\n\n',
    "",
  ),
  E(
    "od-review-admin-manager",
    OD,
    ODP,
    "authz",
    "            return self._check_is_admin_or_manager(request.user, obj.instance.xform)\n",
    "            return request.user.is_authenticated\n",
  ),
  E(
    "od-invitations-role",
    OD,
    ODP,
    "authz",
    '        if view.action == "invitations" and not (\n            ManagerRole.user_has_role(request.user, obj)\n            or OwnerRole.user_has_role(request.user, obj)\n        ):\n            return False\n\n',
    "",
  ),
];

/** Reversed real security fixes of batch 86 (split `history86`). */
export const REVERSED_FIXES_HISTORY86: ReversedFix[] = [];
