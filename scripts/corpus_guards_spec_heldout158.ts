/**
 * Held-out batch 158 of the guard-removal corpus: removals written by reading the security code of
 * projects not otherwise used by the corpus, chosen the way a careless refactor or an attacker would
 * weaken them, before any measurement. Reversed fixes were picked by commit message or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const GP = "Neoteroi/GuardPost";
const GPJ = "guardpost/jwts/__init__.py";
const GPZ = "guardpost/authorization.py";
const GPN = "guardpost/authentication.py";
const GPR = "guardpost/protection.py";
const SS = "divio/django-simple-sso";
const SSS = "simple_sso/sso_server/server.py";
const SSC = "simple_sso/sso_client/client.py";
const PH = "mozilla-services/pyramid_hawkauth";
const PHI = "pyramid_hawkauth/__init__.py";
const AB = "romis2012/aiohttp-basicauth";
const ABI = "aiohttp_basicauth/__init__.py";
const FO = "pallets-eco/flask-openid";
const FOI = "flask_openid.py";
const DP = "PSU-OIT-ARC/django-perms";
const DPR = "permissions/registry.py";
const SG = "idlesign/django-sitegate";
const PM = "mozilla-services/pyramid_multiauth";
const PMI = "src/pyramid_multiauth/__init__.py";
const WB = "mvantellingen/wsgi-basic-auth";
const WBI = "src/wsgi_basic_auth.py";
const JA = "pycontribs/jenkinsapi";
const JAR = "jenkinsapi/utils/requester.py";
const JAJ = "jenkinsapi/jenkins.py";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker("heldout158");

/** Held-out batch 158 of edits (split `heldout158`). */
export const EDITS_HELDOUT158: GuardEdit[] = [
  // ---- GuardPost (Python)
  E(
    "gp-hs-audience-not-checked",
    GP,
    GPJ,
    "token",
    `                self._secret_key.get_value(),
                verify=True,
                algorithms=self._algorithms,
                audience=self._valid_audiences,
                issuer=self._valid_issuers,
`,
    `                self._secret_key.get_value(),
                verify=True,
                algorithms=self._algorithms,
                issuer=self._valid_issuers,
`,
  ),
  E(
    "gp-rs-signature-not-verified",
    GP,
    GPJ,
    "token",
    `                jwk.pem,  # type: ignore
                verify=True,
`,
    `                jwk.pem,  # type: ignore
                options={"verify_signature": False},
`,
  ),
  E(
    "gp-rs-issuer-dropped",
    GP,
    GPJ,
    "token",
    `                audience=self._valid_audiences,
                issuer=self._valid_issuers,  # type: ignore
`,
    `                audience=self._valid_audiences,
`,
  ),
  E(
    "gp-hs-algorithm-allowlist-removed",
    GP,
    GPJ,
    "token",
    `        supported_algorithms = ["HS256", "HS384", "HS512"]
        for algorithm in algorithms:
            if algorithm not in supported_algorithms:
                raise ValueError(
                    f"Algorithm '{algorithm}' is not supported for symmetric "
                    f"validation. Use one of: {', '.join(supported_algorithms)}."
                )

`,
    "",
  ),
  E(
    "gp-kid-optional-by-default",
    GP,
    GPJ,
    "secure-default",
    `        algorithms: Sequence[str] = ["RS256"],
        require_kid: bool = True,
`,
    `        algorithms: Sequence[str] = ["RS256", "HS256"],
        require_kid: bool = True,
`,
  ),
  E(
    "gp-forced-failure-ignored",
    GP,
    GPZ,
    "authz",
    `    def has_succeeded(self) -> bool:
        if self._failed_forced:
            return False
        return all(`,
    `    def has_succeeded(self) -> bool:
        return all(`,
  ),
  E(
    "gp-roles-empty-succeeds",
    GP,
    GPZ,
    "authz",
    `        if self._roles:
            if any(identity.has_role(name) for name in self._roles):
                context.succeed(self)
`,
    `        if not self._roles or any(identity.has_role(name) for name in self._roles):
            context.succeed(self)
`,
  ),
  E(
    "gp-unauthenticated-identity-allowed",
    GP,
    GPZ,
    "authn-branch",
    `            if not identity:
                raise UnauthorizedError("Missing identity", [])
            if not identity.is_authenticated():
                raise UnauthorizedError("The resource requires authentication", [])
`,
    `            if not identity:
                raise UnauthorizedError("Missing identity", [])
`,
  ),
  E(
    "gp-failed-context-not-raised",
    GP,
    GPZ,
    "authz",
    `        if not context.has_succeeded:
            if identity and identity.is_authenticated():
                raise ForbiddenError(
                    context.forced_failure, context.pending_requirements
                )
            raise UnauthorizedError(
                context.forced_failure, context.pending_requirements
            )
`,
    `        if not context.has_succeeded:
            if identity and identity.is_authenticated():
                self.logger.debug("Requirements pending: %s", context.pending_requirements)
                return
            raise UnauthorizedError(
                context.forced_failure, context.pending_requirements
            )
`,
  ),
  E(
    "gp-ratelimit-threshold-ignored",
    GP,
    GPR,
    "authn-branch",
    `        if failed_attempt.counter >= self._threshold:
            return False
`,
    `        if failed_attempt.counter >= self._threshold:
            pass
`,
  ),
  E(
    "gp-invalid-credentials-keep-anonymous",
    GP,
    GPN,
    "authn-branch",
    `                try:
                    if context.identity is None:
                        context.identity = Identity()
                except AttributeError:
                    pass
`,
    `                try:
                    if context.identity is None:
                        context.identity = Identity({}, "anonymous")
                except AttributeError:
                    pass
`,
  ),
  // ---- django-simple-sso (Python)
  E(
    "ss-verify-token-unbound",
    SS,
    SSS,
    "authn-branch",
    `        if not self.token.user:
            return self.token_not_bound()
`,
    "",
  ),
  E(
    "ss-verify-any-consumer",
    SS,
    SSS,
    "token",
    "get(access_token=token, consumer=self.consumer)",
    "get(access_token=token)",
  ),
  E(
    "ss-has-access-skipped",
    SS,
    SSS,
    "authz",
    "        if self.server.has_access(self.request.user, self.token.consumer):\n",
    "        if self.request.user.is_active:\n",
  ),
  E(
    "ss-staff-flags-forwarded",
    SS,
    SSS,
    "authz",
    `            'is_staff': False,
            'is_superuser': False,
`,
    `            'is_staff': user.is_staff,
            'is_superuser': user.is_superuser,
`,
  ),
  E(
    "ss-timeout-never-expires",
    SS,
    SSS,
    "token",
    "        if delta > self.server.token_timeout:\n",
    "        if self.server.token_timeout is None:\n",
  ),
  E(
    "ss-client-access-token-unsigned",
    SS,
    SSC,
    "token",
    "        access_token = URLSafeTimedSerializer(self.client.private_key).loads(raw_access_token)\n",
    "        access_token = raw_access_token\n",
  ),
  // ---- pyramid_hawkauth (Python)
  E(
    "ph-signature-check-skipped",
    PH,
    PHI,
    "credential",
    `        if userid is None:
            return None
        self._check_signature(request, key)
        if self.find_groups(userid, request) is None:
`,
    `        if userid is None:
            return None
        if self.find_groups(userid, request) is None:
`,
  ),
  E(
    "ph-invalid-signature-logged",
    PH,
    PHI,
    "credential",
    `        if not sig_valid:
            msg = "invalid Hawk signature"
            raise self.challenge(request, msg)
`,
    `        if not sig_valid:
            msg = "invalid Hawk signature"
            request.environ["hawkauth.error"] = msg
`,
  ),
  E(
    "ph-missing-params-accepted",
    PH,
    PHI,
    "authn-branch",
    `        if params is None:
            msg = "missing Hawk signature"
            raise self.challenge(request, msg)
`,
    `        if params is None:
            return True
`,
  ),
  E(
    "ph-no-nonce-cache",
    PH,
    PHI,
    "token",
    `        sig_valid = hawkauthlib.check_signature(request, key, params=params,
                                                nonces=self.nonce_cache)
`,
    `        sig_valid = hawkauthlib.check_signature(request, key, params=params,
                                                nonces=False)
`,
  ),
  E(
    "ph-principals-without-signature",
    PH,
    PHI,
    "authn-branch",
    `            return principals
        self._check_signature(request, key)
        groups = self.find_groups(userid, request)
`,
    `            return principals
        groups = self.find_groups(userid, request)
`,
  ),
  // ---- aiohttp-basicauth (Python)
  E(
    "ab-compare-username-only",
    AB,
    ABI,
    "credential",
    "        return username == self.username and password == self.password\r\n",
    "        return username == self.username\r\n",
  ),
  E(
    "ab-force-off-by-default",
    AB,
    ABI,
    "secure-default",
    "    def __init__(self, username=None, password=None, force=True, realm=''):\r\n",
    "    def __init__(self, username=None, password=None, force=False, realm=''):\r\n",
  ),
  E(
    "ab-required-passes-through",
    AB,
    ABI,
    "authn-branch",
    "            if await self.authenticate(request):\r\n                return await handler(*args)\r\n            else:\r\n                return self.challenge()\r\n",
    "            await self.authenticate(request)\r\n            return await handler(*args)\r\n",
  ),
  E(
    "ab-missing-header-authenticates",
    AB,
    ABI,
    "authn-branch",
    "        return auth is not None and await self.check_credentials(",
    "        return auth is None or await self.check_credentials(",
  ),
  // ---- pyramid_multiauth (Python)
  E(
    "pm-callback-rejection-ignored",
    PM,
    PMI,
    "authn-branch",
    `                if self._callback(userid, request) is not None:
                    break
                else:
                    userid = None
`,
    `                self._callback(userid, request)
                break
`,
  ),
  E(
    "pm-unauthenticated-userid-used",
    PM,
    PMI,
    "authn-branch",
    `            userid = policy.authenticated_userid(request)
            if userid is not None:
                request.registry.notify(MultiAuthPolicySelected(policy, request, userid))

                if self._callback is None:`,
    `            userid = policy.unauthenticated_userid(request)
            if userid is not None:
                request.registry.notify(MultiAuthPolicySelected(policy, request, userid))

                if self._callback is None:`,
  ),
  E(
    "pm-authenticated-kept-without-groups",
    PM,
    PMI,
    "authz",
    `        if self._callback is not None:
            principals.discard(Authenticated)
            groups = None
`,
    `        if self._callback is not None:
            groups = None
`,
  ),
  // ---- flask-openid (Python)
  E(
    "fo-non-cancel-treated-as-success",
    FO,
    FOI,
    "authn-branch",
    "            if openid_response.status == SUCCESS:\n",
    "            if openid_response.status != CANCEL:\n",
  ),
  E(
    "fo-immediate-setup-needed-logged-in",
    FO,
    FOI,
    "authn-branch",
    `            elif openid_response.status == SETUP_NEEDED:
                # Unless immediate=True, we should never get here
                self.signal_error('OpenID setup was needed')
`,
    `            elif openid_response.status == SETUP_NEEDED:
                # Unless immediate=True, we should never get here
                return self.after_login_func(OpenIDResponse(
                    openid_response, self.extension_responses))
`,
  ),
  // ---- django-perms (Python)
  E(
    "dp-anonymous-allowed-by-default",
    DP,
    DPR,
    "secure-default",
    "    'allow_anonymous': False,\n",
    "    'allow_anonymous': True,\n",
  ),
  E(
    "dp-filter-anonymous-check-dropped",
    DP,
    DPR,
    "authn-branch",
    `            if user is None:
                return False
            if not allow_anonymous and user.is_anonymous():
                return False
`,
    `            if user is None:
                return False
`,
  ),
  E(
    "dp-view-anonymous-check-dropped",
    DP,
    DPR,
    "authn-branch",
    `                if not allow_anonymous and user.is_anonymous():
                    return unauthenticated_handler(request)

`,
    "",
  ),
  E(
    "dp-view-staff-always-allowed",
    DP,
    DPR,
    "authz",
    `                has_permission = (
                    allow_staff and user.is_staff or
`,
    `                has_permission = (
                    user.is_staff or
`,
  ),
  E(
    "dp-safe-methods-skip-check",
    DP,
    DPR,
    "authz",
    "                if has_permission:\n                    return view(*args, **kwargs)\n",
    "                if has_permission or request.method in ('GET', 'HEAD', 'OPTIONS'):\n                    return view(*args, **kwargs)\n",
  ),
  E(
    "dp-filter-no-instance-allowed",
    DP,
    DPR,
    "authz",
    `                allow_superuser and user.is_superuser or
                test()
            )
`,
    `                allow_superuser and user.is_superuser or
                instance is NO_VALUE or
                test()
            )
`,
  ),
  E(
    "dp-permission-denied-not-raised",
    DP,
    DPR,
    "authz",
    `                    request.permission_name = perm_name
                    raise PermissionDenied(
                        'The "{0}" permission is required to access this resource'
                        .format(perm_name))
`,
    `                    request.permission_name = perm_name
                    log.warning(
                        'The "{0}" permission is required to access this resource'
                        .format(perm_name))
                    return view(*args, **kwargs)
`,
  ),
  // ---- django-sitegate (Python)
  E(
    "sg-inactive-user-signs-in",
    SG,
    "sitegate/flows_base.py",
    "authn-branch",
    "        if user is not None and user.is_active:\n",
    "        if user is not None:\n",
  ),
  E(
    "sg-expired-code-accepted",
    SG,
    "sitegate/models.py",
    "token",
    "            return cls.objects.get(code=code, expired=False)\n",
    "            return cls.objects.get(code=code)\n",
  ),
  E(
    "sg-email-domain-not-validated",
    SG,
    "sitegate/signup_flows/classic.py",
    "secure-default",
    "    validate_email_domain = True\n    verify_email = False\n",
    "    validate_email_domain = False\n    verify_email = False\n",
  ),
  E(
    "sg-remote-user-mismatch-allowed",
    SG,
    "sitegate/views.py",
    "authz",
    `        if user != request_user:
            # in case someone tries to mess with us
            return remote.redirect()

`,
    "",
  ),
  E(
    "sg-remote-state-any-provider",
    SG,
    "sitegate/views.py",
    "token",
    `        remote_record = manager.filter(
            code=code,
            remote=alias,
        ).select_related('user').first()
`,
    `        remote_record = manager.filter(
            code=code,
        ).select_related('user').first()
`,
  ),
  E(
    "sg-remote-inactive-candidate",
    SG,
    "sitegate/signin_flows/remotes/base.py",
    "authn-branch",
    "        candidates = USER.objects.filter(email__in=user_data.emails, is_active=True).only('id')\n",
    "        candidates = USER.objects.filter(email__in=user_data.emails).only('id')\n",
  ),
  E(
    "sg-remote-start-any-method",
    SG,
    "sitegate/views.py",
    "authz",
    `    if not request.method == 'POST':
        return HttpResponseNotAllowed(['post'])
`,
    `    if request.method not in ('POST', 'GET'):
        return HttpResponseNotAllowed(['post'])
`,
  ),
  // ---- wsgi-basic-auth (Python)
  E(
    "wb-username-only",
    WB,
    WBI,
    "credential",
    "                    return self._users.get(username) == password\n",
    "                    return username in self._users\n",
  ),
  E(
    "wb-other-scheme-accepted",
    WB,
    WBI,
    "authn-branch",
    `                    return self._users.get(username) == password
                else:
                    return False
`,
    `                    return self._users.get(username) == password
                else:
                    return True
`,
  ),
  E(
    "wb-login-response-dropped",
    WB,
    WBI,
    "authn-branch",
    `            request = Request(environ)
            if not self.is_authorized(request):
                return self._login(environ, start_response)
`,
    `            request = Request(environ)
            request.environ['wsgi_basic_auth.ok'] = self.is_authorized(request)
`,
  ),
  E(
    "wb-no-include-paths-means-open",
    WB,
    WBI,
    "secure-default",
    `                if request.path.startswith(path):
                    return True
            return False
        else:
            return True
`,
    `                if request.path.startswith(path):
                    return True
            return False
        else:
            return False
`,
  ),
  // ---- jenkinsapi (Python)
  E(
    "ja-requester-verify-off-by-default",
    JA,
    JAR,
    "secure-default",
    "        ssl_verify = True\n        cert = None\n",
    "        ssl_verify = False\n        cert = None\n",
  ),
  E(
    "ja-request-verify-disabled",
    JA,
    JAR,
    "secure-default",
    '        requestKwargs["verify"] = self.ssl_verify\n',
    '        requestKwargs["verify"] = False\n',
  ),
  E(
    "ja-jenkins-verify-default-off",
    JA,
    JAJ,
    "secure-default",
    `        lazy: bool = False,
        ssl_verify: bool = True,
`,
    `        lazy: bool = False,
        ssl_verify: bool = False,
`,
  ),
  E(
    "ja-crumb-off-by-default",
    JA,
    JAJ,
    "secure-default",
    "        use_crumb: bool = True,\n",
    "        use_crumb: bool = False,\n",
  ),
  // ---- batch 158, second pass
  E(
    "ss-keys-from-seeded-random",
    SS,
    "simple_sso/utils.py",
    "credential",
    "from random import SystemRandom\n",
    "from random import Random as SystemRandom\n",
  ),
  E(
    "ss-short-secret-keys",
    SS,
    "simple_sso/sso_server/models.py",
    "credential",
    "        key = gen_secret_key(64)\n        while",
    "        key = gen_secret_key(8)\n        while",
  ),
  E(
    "ph-token-expiry-ignored",
    PH,
    PHI,
    "token",
    "        data = tokenlib.parse_token(tokenid, secret=master_secret)\n",
    "        data = tokenlib.parse_token(tokenid, secret=master_secret, now=0)\n",
  ),
  E(
    "gp-hs-expiry-not-verified",
    GP,
    GPJ,
    "token",
    `                self._secret_key.get_value(),
                verify=True,
`,
    `                self._secret_key.get_value(),
                options={"verify_exp": False},
`,
  ),
  E(
    "wb-exclude-substring-match",
    WB,
    WBI,
    "authz",
    `        if self._exclude_paths:
            for path in self._exclude_paths:
                if request.path.startswith(path):
`,
    `        if self._exclude_paths:
            for path in self._exclude_paths:
                if path in request.path:
`,
  ),
  E(
    "ab-handlers-ignored-by-default",
    AB,
    ABI,
    "authz",
    "        if getattr(handler, '__basic_auth_ignore__', False):",
    "        if getattr(handler, '__basic_auth_ignore__', True):",
  ),
  E(
    "ph-userid-missing-accepted",
    PH,
    PHI,
    "authn-branch",
    `        else:
            msg = "Hawk id contains no userid"
            raise self.challenge(request, msg)
`,
    `        else:
            userid = data.get("salt")
`,
  ),
];

/** Held-out batch 158 of reversed security fixes (split `history158`), picked by commit message. */
export const REVERSED_FIXES_HISTORY158: ReversedFix[] = [
  {
    id: "ss-timing-safe-signature",
    repo: SS,
    commit: "83e5abd",
    path: "simple_sso/signatures.py",
    cls: "credential",
    note: "added hopefully timing attack safe signature verification",
    split: "history158",
  },
  {
    id: "ss-wrong-randomness",
    repo: SS,
    commit: "be018b3",
    path: "simple_sso/utils.py",
    cls: "credential",
    note: "Fixed security problem (used the wrong randomness)",
    split: "history158",
  },
  {
    id: "ss-token-expiration",
    repo: SS,
    commit: "c5aea72",
    path: "simple_sso/sso_server/models.py",
    cls: "token",
    note: "fix token expiration issue",
    split: "history158",
  },
  {
    id: "dp-staff-superuser-bypass-filters",
    repo: DP,
    commit: "0328ba3",
    path: "permissions/registry.py",
    cls: "authz",
    note: "Fix allow_staff/superuser bypass logic in template filters",
    split: "history158",
  },
];
