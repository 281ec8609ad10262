/**
 * Ninetieth held-out batch of the guard-removal corpus: removals written by reading the security
 * code of projects not otherwise used by the corpus (Helios voting, Cobbler, iRedAdmin, DMOJ,
 * Hypothesis LMS, INGInious, Takahē, Bodhi, Patchwork, WebVirtCloud, adhocracy4), chosen the way a
 * careless refactor or an attacker would weaken them, before any measurement. Reversed fixes were
 * picked by commit message or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const HEL = "benadida/helios-server";
const HELS = "helios/security.py";
const HELA = "helios_auth/security/__init__.py";
const CB = "cobbler/cobbler";
const IR = "iredmail/iRedAdmin";
const IRA = "libs/ldaplib/auth.py";
const DM = "DMOJ/online-judge";
const DMP = "judge/models/problem.py";
const LMS = "hypothesis/lms";
const LMSJ = "lms/services/jwt.py";
const LMSS = "lms/security.py";
const ING = "UCL-INGI/INGInious";
const INGU = "inginious/frontend/user_manager.py";
const TK = "jointakahe/takahe";
const TKS = "core/signatures.py";
const BD = "fedora-infra/bodhi";
const BDV = "bodhi-server/bodhi/server/validators.py";
const BDU = "bodhi-server/bodhi/server/auth/utils.py";
const PW = "getpatchwork/patchwork";
const WV = "retspen/webvirtcloud";
const A4 = "liqd/adhocracy4";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker("heldout90");

/** The ninetieth held-out batch of edits (split `heldout90`). */
export const EDITS_HELDOUT90: GuardEdit[] = [
  // ---- Helios voting (Django)
  E(
    "hel-election-admin-check-dropped",
    HEL,
    HELS,
    "authz",
    "      user = get_user(request)\n      if not user_can_admin_election(user, election):\n        raise PermissionDenied()\n",
    "      user = get_user(request)\n",
  ),
  E(
    "hel-password-prefix-match",
    HEL,
    "helios_auth/auth_systems/password.py",
    "credential",
    "  return (user and user.info['password'] == password)\n",
    "  return (user and user.info['password'].startswith(password))\n",
  ),
  E(
    "hel-csrf-mismatch-tolerated",
    HEL,
    HELA,
    "authz",
    '    raise Exception("A CSRF problem was detected")\n',
    "    pass  # tolerate stale tokens from cached forms\n",
  ),
  // ---- Cobbler
  E(
    "cb-configfile-empty-hash",
    CB,
    "cobbler/modules/authentication/configfile.py",
    "credential",
    "            if calculated_passwordhash == passwordhash:\n",
    "            if calculated_passwordhash == passwordhash or not passwordhash:\n",
  ),
  E(
    "cb-pam-acct-mgmt-skipped",
    CB,
    "cobbler/modules/authentication/pam.py",
    "authn-branch",
    "    if retval == 0:\n        retval = PAM_ACCT_MGMT(handle, 0)\n\n",
    "",
  ),
  E(
    "cb-ldap-empty-password",
    CB,
    "cobbler/modules/authentication/ldap.py",
    "authn-branch",
    "    if not password:\n        return False\n",
    "",
  ),
  E(
    "cb-ownership-unknown-user",
    CB,
    "cobbler/modules/authorization/ownership.py",
    "authz",
    "        # they can still use read-only XMLRPC\n        return 0\n",
    "        # they can still use read-only XMLRPC\n        return 1\n",
  ),
  E(
    "cb-ldap-reqcert-never",
    CB,
    "cobbler/modules/authentication/ldap.py",
    "secure-default",
    "            ldaps_tls.set_option(ldap.OPT_X_TLS_REQUIRE_CERT, reqcert_types[req_cert])  # type: ignore\n",
    "            ldaps_tls.set_option(ldap.OPT_X_TLS_REQUIRE_CERT, ldap.OPT_X_TLS_NEVER)  # type: ignore\n",
  ),
  // ---- iRedAdmin
  E(
    "ir-bind-any-nonempty-password",
    IR,
    IRA,
    "credential",
    "        if iredpwd.verify_password_hash(pw, password):\n",
    "        if pw and password:\n",
  ),
  E(
    "ir-login-bind-result-ignored",
    IR,
    IRA,
    "authn-branch",
    "    qr = verify_bind_dn_pw(dn=dn, password=password, conn=conn)\n    if not qr[0]:\n        return qr\n",
    "    qr = verify_bind_dn_pw(dn=dn, password=password, conn=conn)\n",
  ),
  E(
    "ir-global-admin-ip-allowlist",
    IR,
    IRA,
    "authz",
    "    if session['is_global_admin']:\n        if not iredutils.is_allowed_global_admin_login_ip(client_ip=web.ctx.ip):\n            session.kill()\n            raise web.seeother('/login?msg=NOT_ALLOWED_IP')\n\n",
    "",
  ),
  E(
    "ir-admin-inactive-allowed",
    IR,
    IRA,
    "authn-branch",
    "        search_filter = '(&(accountStatus=active)(objectClass=mailAdmin))'\n",
    "        search_filter = '(objectClass=mailAdmin)'\n",
  ),
  // ---- DMOJ online judge
  E(
    "dm-edit-own-perm-dropped",
    DM,
    DMP,
    "authz",
    "        if not user.has_perm('judge.edit_own_problem'):\n            return False\n",
    "",
  ),
  E(
    "dm-api-token-compare-dropped",
    DM,
    "judge/middleware.py",
    "token",
    "            if not hmac.compare_digest(digest, request.user.profile.api_token):\n                raise HTTPError()\n",
    "",
  ),
  E(
    "dm-webauthn-no-challenge",
    DM,
    "judge/forms.py",
    "token",
    "            if not self.webauthn_challenge:\n                raise ValidationError(_('No WebAuthn challenge issued.'))\n\n",
    "",
  ),
  E(
    "dm-bad-scratch-code-passes",
    DM,
    "judge/forms.py",
    "authn-branch",
    "            elif self.profile.is_totp_enabled:\n                raise ValidationError(_('Invalid two-factor authentication token or scratch code.'))\n            else:\n                raise ValidationError(_('Invalid scratch code.'))\n",
    "            elif self.profile.is_totp_enabled:\n                raise ValidationError(_('Invalid two-factor authentication token or scratch code.'))\n",
  ),
  // ---- Hypothesis LMS (Pyramid)
  E(
    "lms-hs256-exp-not-required",
    LMS,
    LMSJ,
    "token",
    '                options={"require": ["exp"]},\n',
    "",
  ),
  E(
    "lms-lti-kid-not-required",
    LMS,
    LMSJ,
    "token",
    '        if not unverified_header.get("kid"):\n            raise ValidationError(\n                messages={"jwt": ["Missing \'kid\' value in JWT header"]}\n            )\n\n',
    "",
  ),
  E(
    "lms-lti-audience-unchecked",
    LMS,
    LMSJ,
    "token",
    "                audience=aud,\n",
    '                options={"verify_aud": False},\n',
  ),
  E(
    "lms-admin-for-all-staff",
    LMS,
    LMSS,
    "authz",
    '            if userid in request.registry.settings["admin_users"]:\n                permissions.append(Permissions.ADMIN)\n',
    "            permissions.append(Permissions.ADMIN)\n",
  ),
  E(
    "lms-email-cookie-not-httponly",
    LMS,
    LMSS,
    "secure-default",
    "            http_only=True,\n",
    "            http_only=False,\n",
  ),
  // ---- INGInious
  E(
    "ing-unactivated-user-login",
    ING,
    INGU,
    "authn-branch",
    '            {"username": username, "activate": {"$exists": False}})\n\n        if user is None:\n',
    '            {"username": username})\n\n        if user is None:\n',
  ),
  E(
    "ing-sha512-prefix-compare",
    ING,
    INGU,
    "credential",
    "        return cls.hash_password_sha512(password) == db_hash\n",
    "        return cls.hash_password_sha512(password)[:16] == db_hash[:16]\n",
  ),
  E(
    "ing-unknown-hash-method-accepted",
    ING,
    INGU,
    "credential",
    "            raise AuthInvalidMethodException()\n",
    "            return True\n",
  ),
  E(
    "ing-closed-course-open",
    ING,
    INGU,
    "authz",
    '        if not course.get_accessibility().is_open():\n            return False if not return_reason else "closed"\n\n',
    "",
  ),
  // ---- Takahē (Django, ActivityPub)
  E(
    "tk-digest-mismatch-ignored",
    TK,
    TKS,
    "token",
    '            if request.headers["digest"] != expected_digest:\n                raise VerificationFormatError("Digest is incorrect")\n',
    '            if request.headers["digest"] != expected_digest:\n                logger.info("Digest mismatch on %s", request.path)\n',
  ),
  E(
    "tk-date-window-month",
    TK,
    TKS,
    "token",
    "            if abs(timezone.now().timestamp() - header_date) > 60:\n",
    "            if abs(timezone.now().timestamp() - header_date) > 86400 * 30:\n",
  ),
  E(
    "tk-any-signature-algorithm",
    TK,
    TKS,
    "token",
    '        if (\n            signature_details["algorithm"] != "rsa-sha256"\n            and signature_details["algorithm"] != "hs2019"\n        ):\n            raise VerificationFormatError("Unknown signature algorithm")\n',
    "",
  ),
  E(
    "tk-ld-signature-mismatch-logged",
    TK,
    TKS,
    "token",
    '        except InvalidSignature:\n            raise VerificationError("LDSignature mismatch")\n',
    '        except InvalidSignature:\n            logger.warning("LDSignature mismatch")\n',
  ),
  E(
    "tk-moderator-any-user",
    TK,
    "users/decorators.py",
    "authz",
    "        lambda user: user.is_authenticated and (user.admin or user.moderator)\n",
    "        lambda user: user.is_authenticated\n",
  ),
  E(
    "tk-oauth-client-secret-dropped",
    TK,
    "api/views/oauth.py",
    "credential",
    "            and application.client_secret == client_secret\n",
    "",
  ),
  E(
    "tk-expired-invite-accepted",
    TK,
    "users/views/auth.py",
    "token",
    "            if not self.invite.valid:\n                raise Http404()\n",
    "",
  ),
  // ---- Helios voting (auth systems and voter login)
  E(
    "hel-google-state-optional",
    HEL,
    "helios_auth/auth_systems/google.py",
    "token",
    "  if not expected_state or expected_state != actual_state:\n",
    "  if expected_state and actual_state and expected_state != actual_state:\n",
  ),
  E(
    "hel-google-unverified-email",
    HEL,
    "helios_auth/auth_systems/google.py",
    "authn-branch",
    '  if not email_verified:\n    raise Exception("Email verification failed: the email address associated with your Google account is not verified. Please verify your email in your Google account settings and try again.")\n',
    "",
  ),
  E(
    "hel-cas-ticket-answer-unchecked",
    HEL,
    "helios_auth/auth_systems/cas.py",
    "token",
    '  if len(r) == 2 and re.match("yes", r[0]) is not None:\n',
    "  if len(r) == 2:\n",
  ),
  E(
    "hel-voter-login-without-password",
    HEL,
    "helios/views.py",
    "credential",
    "      voter = election.voter_set.get(voter_login_id = password_login_form.cleaned_data['voter_id'].strip(),\n                                     voter_password = password_login_form.cleaned_data['password'].strip())\n",
    "      voter = election.voter_set.get(voter_login_id = password_login_form.cleaned_data['voter_id'].strip())\n",
  ),
  // ---- Cobbler (more)
  E(
    "cb-settings-reqcert-never",
    CB,
    "cobbler/settings/__init__.py",
    "secure-default",
    '        self.ldap_tls_reqcert = "hard"\n',
    '        self.ldap_tls_reqcert = "never"\n',
  ),
  E(
    "cb-starttls-failure-continues",
    CB,
    "cobbler/modules/authentication/ldap.py",
    "secure-default",
    "                directory.start_tls_s()\n            except Exception:\n                traceback.print_exc()\n                return False\n",
    "                directory.start_tls_s()\n            except Exception:\n                traceback.print_exc()\n",
  ),
  E(
    "cb-expired-tokens-kept",
    CB,
    "cobbler/remote.py",
    "token",
    "        self.__invalidate_expired_tokens()\n\n        if token in self.token_cache:\n",
    "        if token in self.token_cache:\n",
  ),
  // ---- iRedAdmin (more)
  E(
    "ir-session-samesite-none",
    IR,
    "libs/iredbase.py",
    "secure-default",
    'web.config.session_parameters["samesite"] = "Strict"\n',
    'web.config.session_parameters["samesite"] = "None"\n',
  ),
  E(
    "ir-ssha-decode-error-accepts",
    IR,
    "libs/iredpwd.py",
    "credential",
    "        hr = hashlib.sha1(plain_password)\n        hr.update(salt)\n        return digest == hr.digest()\n    except:\n        return False\n",
    "        hr = hashlib.sha1(plain_password)\n        hr.update(salt)\n        return digest == hr.digest()\n    except:\n        return True\n",
  ),
  // ---- DMOJ (more)
  E(
    "dm-2fa-gate-inverted",
    DM,
    "judge/middleware.py",
    "authn-branch",
    "            if (has_2fa and not request.session.get('2fa_passed', False) and\n",
    "            if (has_2fa and request.session.get('2fa_passed', False) and\n",
  ),
  E(
    "dm-admin-via-api-token",
    DM,
    "judge/middleware.py",
    "authz",
    "        if request.path.startswith(reverse('admin:index')):\n            return HttpResponse('Admin inaccessible', status=403)\n",
    "",
  ),
  E(
    "dm-totp-replay-window",
    DM,
    "judge/models/profile.py",
    "token",
    "        min_timecode = max(self.last_totp_timecode + 1, now_timecode - settings.DMOJ_TOTP_TOLERANCE_HALF_MINUTES)\n",
    "        min_timecode = now_timecode - settings.DMOJ_TOTP_TOLERANCE_HALF_MINUTES\n",
  ),
  E(
    "dm-totp-plain-compare",
    DM,
    "judge/models/profile.py",
    "credential",
    "            if strings_equal(code, totp.generate_otp(timecode)):\n",
    "            if code == totp.generate_otp(timecode):\n",
  ),
  // ---- Hypothesis LMS (more)
  E(
    "lms-session-cookie-insecure",
    LMS,
    "lms/session.py",
    "secure-default",
    '    secure = not config.registry.settings["dev"]\n',
    "    secure = False\n",
  ),
  E(
    "lms-dashboard-cookie-script-readable",
    LMS,
    "lms/views/dashboard/views.py",
    "secure-default",
    '            secure=not self.request.registry.settings["dev"],\n            httponly=True,\n',
    '            secure=not self.request.registry.settings["dev"],\n            httponly=False,\n',
  ),
  // ---- INGInious (more)
  E(
    "ing-lti-nonce-replay",
    ING,
    "inginious/frontend/lti_request_validator.py",
    "token",
    "        except DuplicateKeyError:\n            return False\n",
    "        except DuplicateKeyError:\n            return True\n",
  ),
  E(
    "ing-ldap-empty-password",
    ING,
    "inginious/frontend/plugins/auth/ldap_auth.py",
    "authn-branch",
    '        # do not send empty password to the LDAP\n        if password.rstrip() == "":\n            return self.template_helper.render("custom_auth_form.html", template_folder="frontend/plugins/auth",\n                                               settings=settings, error= _("Empty password"))\n\n',
    "",
  ),
  E(
    "ing-saml-errors-ignored",
    ING,
    "inginious/frontend/plugins/auth/saml2_auth.py",
    "token",
    '        if len(errors) == 0 and "attributes" in self._settings:\n',
    '        if "attributes" in self._settings:\n',
  ),
  E(
    "ing-oauth-insecure-transport-default",
    ING,
    "inginious/frontend/plugins/auth/github_auth.py",
    "secure-default",
    '    if conf.get("debug", False):\n',
    '    if conf.get("debug", True):\n',
  ),
  E(
    "ing-session-cookie-not-httponly",
    ING,
    "inginious/frontend/app.py",
    "secure-default",
    '        "httponly": True,\n        "secret_key"',
    '        "httponly": False,\n        "secret_key"',
  ),
  // ---- Bodhi (Pyramid)
  E(
    "bd-authtkt-insecure-default",
    BD,
    "bodhi-server/bodhi/server/config.py",
    "secure-default",
    "        'authtkt.secure': {\n            'value': True,\n",
    "        'authtkt.secure': {\n            'value': False,\n",
  ),
  E(
    "bd-authtkt-samesite-none",
    BD,
    "bodhi-server/bodhi/server/__init__.py",
    "secure-default",
    "            max_age=timeout, samesite='Strict'))\n",
    "            max_age=timeout, samesite='None'))\n",
  ),
  E(
    "bd-mandatory-group-any-group",
    BD,
    BDV,
    "authz",
    "        if mandatory_group not in user_groups:\n",
    "        if mandatory_group not in user_groups and not user_groups:\n",
  ),
  E(
    "bd-admin-acl-authenticated",
    BD,
    "bodhi-server/bodhi/server/security.py",
    "authz",
    "                self.request.registry.settings['admin_groups']] + \\\n               [DENY_ALL]\n",
    "                self.request.registry.settings['admin_groups']] + \\\n               [(Allow, Authenticated, ALL_PERMISSIONS)]\n",
  ),
  E(
    "bd-userinfo-error-ignored",
    BD,
    BDU,
    "authn-branch",
    '    if "error" in userinfo:\n        raise InvalidTokenError(description=userinfo["error_description"])\n\n',
    "",
  ),
  E(
    "bd-openid-any-provider",
    BD,
    BDU,
    "authn-branch",
    "    if endpoint != request.registry.settings['openid.provider']:\n",
    "    if not endpoint:\n",
  ),
  // ---- Patchwork
  E(
    "pw-private-bundle-readable",
    PW,
    "patchwork/api/bundle.py",
    "authz",
    "        if not obj.public:\n            # if the bundle isn't public, we don't want to leak the fact that\n            # it exists\n            raise exceptions.NotFound\n\n",
    "",
  ),
  E(
    "pw-project-maintainer-unchecked",
    PW,
    "patchwork/models.py",
    "authz",
    "        return self in user.profile.maintainer_projects.all()\n",
    "        return True\n",
  ),
  E(
    "pw-xmlrpc-failed-login-passes",
    PW,
    "patchwork/views/xmlrpc.py",
    "authn-branch",
    "            if not user:\n                raise Exception('Invalid username/password')\n",
    "",
  ),
  E(
    "pw-xmlrpc-scheme-unchecked",
    PW,
    "patchwork/views/xmlrpc.py",
    "authn-branch",
    "        if not header.startswith('Basic '):\n            raise Exception('Authentication scheme not supported')\n\n        header = header[len('Basic ') :].strip()\n",
    "        header = header.split(' ', 1)[-1].strip()\n",
  ),
  // ---- WebVirtCloud
  E(
    "wv-superuser-only-any-login",
    WV,
    "admin/decorators.py",
    "authz",
    "        if not request.user.is_superuser:\n",
    "        if not request.user.is_authenticated:\n",
  ),
  E(
    "wv-csrf-middleware-commented",
    WV,
    "webvirtcloud/settings.py.template",
    "authz",
    '    "django.middleware.csrf.CsrfViewMiddleware",\n',
    '    # "django.middleware.csrf.CsrfViewMiddleware",\n',
  ),
  // ---- adhocracy4
  E(
    "a4-owner-any-creator",
    A4,
    "adhocracy4/modules/predicates.py",
    "authz",
    "        return item.creator == user\n",
    "        return item.creator is not None\n",
  ),
  E(
    "a4-participate-draft-project",
    A4,
    "adhocracy4/projects/rules.py",
    "authz",
    "    | ((is_public | is_org_member | is_project_member) & is_live),\n",
    "    | is_public | is_org_member | is_project_member,\n",
  ),
];

/**
 * Real security fixes of the same projects, reversed (fixed file back to its parent); picked by
 * commit message or advisory only (split `history90`).
 */
export const REVERSED_FIXES_HISTORY90: ReversedFix[] = [
  {
    id: "dm-admin-contest-permission-check",
    repo: DM,
    commit: "724af7ef7",
    path: "judge/admin/contest.py",
    cls: "authz",
    note: "Fix vulnerable endpoints due to the lack of permission check",
    split: "history90",
  },
  {
    id: "dm-admin-runtime-permission-check",
    repo: DM,
    commit: "724af7ef7",
    path: "judge/admin/runtime.py",
    cls: "authz",
    note: "Fix vulnerable endpoints due to the lack of permission check",
    split: "history90",
  },
  {
    id: "dm-ticket-security-hole",
    repo: DM,
    commit: "212c8900d",
    path: "judge/views/ticket.py",
    cls: "authz",
    note: "Remove potential security hole; #327",
    split: "history90",
  },
  {
    id: "cb-xmlrpc-none-to-admin-utils",
    repo: CB,
    commit: "1b78613d2",
    path: "cobbler/utils/__init__.py",
    cls: "credential",
    note: "XML-RPC: Prevent privilege escalation from none to admin (CVE-2024-47533)",
    split: "history90",
  },
  {
    id: "cb-xmlrpc-none-to-admin-remote",
    repo: CB,
    commit: "1b78613d2",
    path: "cobbler/remote.py",
    cls: "authn-branch",
    note: "XML-RPC: Prevent privilege escalation from none to admin (CVE-2024-47533)",
    split: "history90",
  },
  {
    id: "cb-GHSA-mcg6-h362-cmq5-pam",
    repo: CB,
    commit: "aeb10a6d1",
    path: "cobbler/modules/authentication/pam.py",
    cls: "authn-branch",
    note: "Security: Fix CVE-2022-0860 (merged as GHSA-mcg6-h362-cmq5)",
    split: "history90",
  },
  {
    id: "ir-bcrypt-any-password",
    repo: IR,
    commit: "11dd6a7",
    path: "libs/iredutils.py",
    cls: "credential",
    note:
      "SECURITY FIX: iRedAdmin accepts any password on FreeBSD and OpenBSD if password is stored in BCRYPT hash",
    split: "history90",
  },
  {
    id: "ir-normal-user-login",
    repo: IR,
    commit: "45beab3",
    path: "libs/ldaplib/auth.py",
    cls: "authn-branch",
    note:
      "Fixed SECURITY issue: Normal user can login and update their own profile, includes mail quota",
    split: "history90",
  },
];
