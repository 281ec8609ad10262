/**
 * Fifty-ninth held-out batch of the guard-removal corpus: removals written by reading the security
 * code of projects not otherwise used by the corpus (proshop_mern, node-express-mongoose-demo,
 * hackathon-starter, nestjs-boilerplate, nestjs-prisma-starter, microblog, cookiecutter-django,
 * rsconnect-python, elyra, py-shiny), chosen the way a careless refactor or an attacker would weaken
 * them, before any measurement. Reversed fixes were picked by commit message only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const H59 = "heldout59" as const;
const PM = "bradtraversy/proshop_mern";
const PMA = "backend/middleware/authMiddleware.js";
const MD = "madhums/node-express-mongoose-demo";
const MDA = "config/middlewares/authorization.js";
const MDE = "config/express.js";
const HS = "sahat/hackathon-starter";
const HSA = "app.js";
const HSP = "config/passport.js";
const HSU = "models/User.js";
const HSC = "controllers/user.js";
const HSW = "controllers/webauthn.js";
const NB = "brocoders/nestjs-boilerplate";
const NBJ = "src/auth/strategies/jwt.strategy.ts";
const NBS = "src/auth/auth.service.ts";
const NP = "notiz-dev/nestjs-prisma-starter";
const NPJ = "src/auth/jwt.strategy.ts";
const NPS = "src/auth/auth.service.ts";
const MB = "miguelgrinberg/microblog";
const MBA = "app/api/auth.py";
const MBM = "app/models.py";
const CK = "cookiecutter/cookiecutter-django";
const CKP = "{{cookiecutter.project_slug}}/config/settings/production.py";
const CKB = "{{cookiecutter.project_slug}}/config/settings/base.py";
const RS = "rstudio/rsconnect-python";
const RSA = "rsconnect/api.py";
const RSH = "rsconnect/http_support.py";
const EL = "elyra-ai/elyra";
const SH = "posit-dev/py-shiny";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker(H59);

/** The fifty-ninth held-out batch of edits (split `heldout59`). */
export const EDITS_HELDOUT59: GuardEdit[] = [
  // ---- bradtraversy/proshop_mern (JS)
  E(
    "pm-admin-flag-not-checked",
    PM,
    PMA,
    "authz",
    "  if (req.user && req.user.isAdmin) {\n",
    "  if (req.user) {\n",
  ),
  E(
    "pm-users-list-admin-dropped",
    PM,
    "backend/routes/userRoutes.js",
    "authz",
    "router.route('/').post(registerUser).get(protect, admin, getUsers)\n",
    "router.route('/').post(registerUser).get(protect, getUsers)\n",
  ),
  E(
    "pm-login-password-skipped",
    PM,
    "backend/controllers/userController.js",
    "credential",
    "  if (user && (await user.matchPassword(password))) {\n",
    "  if (user) {\n",
  ),
  E(
    "pm-jwt-decoded-not-verified",
    PM,
    PMA,
    "token",
    "      const decoded = jwt.verify(token, process.env.JWT_SECRET)\n",
    "      const decoded = jwt.decode(token)\n",
  ),
  E(
    "pm-token-failure-continues",
    PM,
    PMA,
    "authn-branch",
    "      console.error(error)\n      res.status(401)\n      throw new Error('Not authorized, token failed')\n",
    "      console.error(error)\n      next()\n",
  ),
  // ---- madhums/node-express-mongoose-demo (JS)
  E(
    "md-requires-login-passthrough",
    MD,
    MDA,
    "authn-branch",
    "  if (req.isAuthenticated()) return next();\n  if (req.method == 'GET') req.session.returnTo = req.originalUrl;\n  res.redirect('/login');\n",
    "  if (req.method == 'GET') req.session.returnTo = req.originalUrl;\n  return next();\n",
  ),
  E(
    "md-user-owner-check-removed",
    MD,
    MDA,
    "authz",
    "    if (req.profile.id != req.user.id) {\n      req.flash('info', 'You are not authorized');\n      return res.redirect('/users/' + req.profile.id);\n    }\n",
    "",
  ),
  E(
    "md-local-password-commented",
    MD,
    "config/passport/local.js",
    "credential",
    "      if (!user.authenticate(password)) {\n        return done(null, false, { message: 'Invalid password' });\n      }\n",
    "      // if (!user.authenticate(password)) {\n      //   return done(null, false, { message: 'Invalid password' });\n      // }\n",
  ),
  E(
    "md-authenticate-empty-hash",
    MD,
    "app/models/user.js",
    "credential",
    "    return bcrypt.compareSync(password, this.hashed_password);\n",
    "    return !this.hashed_password || bcrypt.compareSync(password, this.hashed_password);\n",
  ),
  E(
    "md-csrf-ignores-writes",
    MD,
    MDE,
    "authz",
    "    app.use(csrf());\n",
    "    app.use(csrf({ ignoreMethods: ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE'] }));\n",
  ),
  E(
    "md-require-https-dropped",
    MD,
    MDE,
    "secure-default",
    "  app.use(requireHttps);\n",
    "",
  ),
  // ---- sahat/hackathon-starter (JS)
  E(
    "hs-link-token-expiry-dropped",
    HS,
    HSU,
    "token",
    "    return crypto.timingSafeEqual(storedToken, inputToken) && this[ipHashField] === hashedIp && this[expiresField] > Date.now();\n",
    "    return crypto.timingSafeEqual(storedToken, inputToken) && this[ipHashField] === hashedIp;\n",
  ),
  E(
    "hs-2fa-code-plain-compare",
    HS,
    HSU,
    "credential",
    "    return crypto.timingSafeEqual(storedCode, inputCode) && this[ipHashField] === hashedIp && this[expiresField] > Date.now();\n",
    "    return this[codeField] === code && this[ipHashField] === hashedIp && this[expiresField] > Date.now();\n",
  ),
  E(
    "hs-2fa-code-not-verified",
    HS,
    HSC,
    "authn-branch",
    "    if (!user || !user.verifyCodeAndIp(code, req.ip, 'twoFactor')) {\n",
    "    if (!user) {\n",
  ),
  E(
    "hs-login-required-session-only",
    HS,
    HSP,
    "authn-branch",
    "exports.isAuthenticated = (req, res, next) => {\n  if (req.isAuthenticated()) {\n",
    "exports.isAuthenticated = (req, res, next) => {\n  if (req.isAuthenticated() || req.session.twoFactorPendingUserId) {\n",
  ),
  E(
    "hs-csrf-skip-widened",
    HS,
    HSA,
    "authz",
    "  if (req.path === '/api/upload' || req.path === '/ai/llm-camera') {\n",
    "  if (req.path.startsWith('/api/') || req.path.startsWith('/account') || req.path === '/ai/llm-camera') {\n",
  ),
  E(
    "hs-session-cookie-insecure",
    HS,
    HSA,
    "secure-default",
    "      secure: secureTransfer,\n",
    "      secure: false,\n",
  ),
  E(
    "hs-2fa-skipped-when-remembered",
    HS,
    HSC,
    "authn-branch",
    "    if (user.twoFactorEnabled && user.password) {\n",
    "    if (user.twoFactorEnabled && user.password && !req.body.remember) {\n",
  ),
  // ---- brocoders/nestjs-boilerplate (TS)
  E(
    "nb-users-roles-guard-dropped",
    NB,
    "src/users/users.controller.ts",
    "authz",
    "@UseGuards(AuthGuard('jwt'), RolesGuard)\n@ApiTags('Users')\n",
    "@UseGuards(AuthGuard('jwt'))\n@ApiTags('Users')\n",
  ),
  E(
    "nb-roles-guard-any-user",
    NB,
    "src/roles/roles.guard.ts",
    "authz",
    "    return roles.map(String).includes(String(request.user?.role?.id));\n",
    "    return !!request.user;\n",
  ),
  E(
    "nb-jwt-algorithms-unpinned",
    NB,
    NBJ,
    "token",
    "      secretOrKey: configService.getOrThrow('auth.secret', { infer: true }),\n      algorithms: ['HS256'],\n",
    "      secretOrKey: configService.getOrThrow('auth.secret', { infer: true }),\n",
  ),
  E(
    "nb-login-password-result-ignored",
    NB,
    NBS,
    "credential",
    "    if (!isValidPassword) {\n      throw this.invalidLoginException({\n        password: 'incorrectPassword',\n      });\n    }\n\n",
    "",
  ),
  E(
    "nb-old-password-hash-accepted",
    NB,
    NBS,
    "credential",
    "      const isValidOldPassword = await bcrypt.compare(\n        userDto.oldPassword,\n        currentUser.password,\n      );\n",
    "      const isValidOldPassword =\n        userDto.oldPassword === currentUser.password ||\n        (await bcrypt.compare(userDto.oldPassword, currentUser.password));\n",
  ),
  E(
    "nb-reset-hash-verify-swallowed",
    NB,
    NBS,
    "token",
    "        secret: this.getForgotSecret(user),\n        algorithms: ['HS256'],\n      });\n    } catch {\n      throw new UnprocessableEntityException({\n        status: HttpStatus.UNPROCESSABLE_ENTITY,\n        errors: {\n          hash: `invalidHash`,\n        },\n      });\n    }\n",
    "        secret: this.getForgotSecret(user),\n        algorithms: ['HS256'],\n      });\n    } catch {\n      // the hash already resolved to a user above\n    }\n",
  ),
  E(
    "nb-jwt-payload-id-unchecked",
    NB,
    NBJ,
    "authn-branch",
    "    if (!payload.id) {\n      throw new UnauthorizedException();\n    }\n\n",
    "",
  ),
  E(
    "nb-refresh-session-hash-unchecked",
    NB,
    NBS,
    "token",
    "      { id: data.sessionId, hash: data.hash },\n",
    "      { id: data.sessionId },\n",
  ),
  // ---- notiz-dev/nestjs-prisma-starter (TS)
  E(
    "np-login-invalid-password-ignored",
    NP,
    NPS,
    "credential",
    "    if (!passwordValid) {\n      throw new BadRequestException('Invalid password');\n    }\n\n    return this.generateTokens({\n",
    "    return this.generateTokens({\n",
  ),
  E(
    "np-change-password-mismatch-logged",
    NP,
    "src/users/users.service.ts",
    "credential",
    "    if (!passwordValid) {\n      throw new BadRequestException('Invalid password');\n    }\n",
    "    if (!passwordValid) {\n      console.warn('changePassword: old password mismatch');\n    }\n",
  ),
  E(
    "np-jwt-user-missing-fallback",
    NP,
    NPJ,
    "authn-branch",
    "    if (!user) {\n      throw new UnauthorizedException();\n    }\n    return user;\n",
    "    return user ?? ({ id: payload.userId } as User);\n",
  ),
  E(
    "np-refresh-token-decoded",
    NP,
    NPS,
    "token",
    "      const { userId } = this.jwtService.verify(token, {\n        secret: this.configService.get('JWT_REFRESH_SECRET'),\n      });\n",
    "      const { userId } = this.jwtService.decode(token);\n",
  ),
  E(
    "np-users-resolver-guard-removed",
    NP,
    "src/users/users.resolver.ts",
    "authz",
    "@Resolver(() => User)\n@UseGuards(GqlAuthGuard)\nexport class UsersResolver {\n",
    "@Resolver(() => User)\nexport class UsersResolver {\n",
  ),
  E(
    "hs-facebook-oauth-state-off",
    HS,
    HSP,
    "token",
    "      scope: ['public_profile', 'email'],\n      state: true,\n",
    "      scope: ['public_profile', 'email'],\n      state: false,\n",
  ),
  E(
    "hs-webauthn-challenge-from-body",
    HS,
    HSW,
    "token",
    "    const expectedChallenge = req.session.loginChallenge;\n",
    "    const expectedChallenge = req.session.loginChallenge || req.body.challenge;\n",
  ),
  E(
    "hs-link-token-not-consumed",
    HS,
    HSU,
    "token",
    "  if (valid) this.clearToken(tokenType);\n",
    "",
  ),
  E(
    "hs-webauthn-verification-ignored",
    HS,
    HSW,
    "authn-branch",
    "    if (!verification.verified || noUserFound || (scopedEmail && user.email !== scopedEmail)) {\n",
    "    if (noUserFound || (scopedEmail && user.email !== scopedEmail)) {\n",
  ),
  E(
    "nb-google-audience-dropped",
    NB,
    "src/auth-google/auth-google.service.ts",
    "token",
    "      idToken: loginDto.idToken,\n      audience: [\n        this.configService.getOrThrow('google.clientId', { infer: true }),\n      ],\n",
    "      idToken: loginDto.idToken,\n",
  ),
  E(
    "nb-google-unverified-email-accepted",
    NB,
    "src/auth-google/auth-google.service.ts",
    "authn-branch",
    "    if (data.email && !emailVerified) {\n      throw new UnprocessableEntityException({\n        status: HttpStatus.UNPROCESSABLE_ENTITY,\n        errors: {\n          email: 'emailNotVerified',\n        },\n      });\n    }\n\n",
    "",
  ),
  E(
    "nb-login-provider-mismatch-allowed",
    NB,
    NBS,
    "authn-branch",
    "    if (user.provider !== AuthProvidersEnum.email) {\n      throw this.invalidLoginException({\n        email: `needLoginViaProvider:${user.provider}`,\n      });\n    }\n\n",
    "",
  ),
  // ---- miguelgrinberg/microblog (Python)
  E(
    "mb-basic-auth-password-unchecked",
    MB,
    MBA,
    "credential",
    "    if user and user.check_password(password):\n",
    "    if user:\n",
  ),
  E(
    "mb-api-token-expiry-ignored",
    MB,
    MBM,
    "token",
    "        if user is None or user.token_expiration.replace(\n                tzinfo=timezone.utc) < datetime.now(timezone.utc):\n            return None\n",
    "        if user is None:\n            return None\n",
  ),
  E(
    "mb-reset-token-signature-off",
    MB,
    MBM,
    "token",
    "            id = jwt.decode(token, current_app.config['SECRET_KEY'],\n                            algorithms=['HS256'])['reset_password']\n",
    "            id = jwt.decode(token, options={'verify_signature': False})['reset_password']\n",
  ),
  E(
    "mb-update-user-owner-unchecked",
    MB,
    "app/api/users.py",
    "authz",
    "    if token_auth.current_user().id != id:\n        abort(403)\n",
    "",
  ),
  E(
    "mb-users-list-public",
    MB,
    "app/api/users.py",
    "authz",
    "@bp.route('/users', methods=['GET'])\n@token_auth.login_required\ndef get_users():\n",
    "@bp.route('/users', methods=['GET'])\ndef get_users():\n",
  ),
  // ---- cookiecutter/cookiecutter-django (Python)
  E(
    "cc-session-cookie-not-secure",
    CK,
    CKP,
    "secure-default",
    "SESSION_COOKIE_SECURE = True\n",
    "SESSION_COOKIE_SECURE = False\n",
  ),
  E(
    "cc-ssl-redirect-default-off",
    CK,
    CKP,
    "secure-default",
    'SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)\n',
    'SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=False)\n',
  ),
  E(
    "cc-hsts-disabled",
    CK,
    CKP,
    "secure-default",
    "SECURE_HSTS_SECONDS = 60\n",
    "SECURE_HSTS_SECONDS = 0\n",
  ),
  E(
    "cc-session-cookie-script-readable",
    CK,
    CKB,
    "secure-default",
    "SESSION_COOKIE_HTTPONLY = True\n",
    "SESSION_COOKIE_HTTPONLY = False\n",
  ),
  E(
    "cc-drf-default-allow-any",
    CK,
    CKB,
    "authz",
    '    "DEFAULT_PERMISSION_CLASSES": ("rest_framework.permissions.IsAuthenticated",),\n',
    '    "DEFAULT_PERMISSION_CLASSES": ("rest_framework.permissions.AllowAny",),\n',
  ),
  E(
    "cc-user-api-queryset-unscoped",
    CK,
    "{{cookiecutter.project_slug}}/{{cookiecutter.project_slug}}/users/api/views.py",
    "authz",
    "        assert isinstance(self.request.user.id, int)\n        return self.queryset.filter(id=self.request.user.id)\n",
    "        return self.queryset\n",
  ),
  E(
    "cc-user-detail-login-mixin-dropped",
    CK,
    "{{cookiecutter.project_slug}}/{{cookiecutter.project_slug}}/users/views.py",
    "authz",
    "class UserDetailView(LoginRequiredMixin, DetailView):\n",
    "class UserDetailView(DetailView):\n",
  ),
  // ---- further Python edits (microblog, cookiecutter-django, rsconnect-python)
  E(
    "mb-web-login-password-unchecked",
    MB,
    "app/auth/routes.py",
    "credential",
    "        if user is None or not user.check_password(form.password.data):\n",
    "        if user is None:\n",
  ),
  E(
    "mb-token-revoke-noop",
    MB,
    MBM,
    "token",
    "    def revoke_token(self):\n        self.token_expiration = datetime.now(timezone.utc) - timedelta(\n            seconds=1)\n",
    "    def revoke_token(self):\n        pass\n",
  ),
  E(
    "cc-email-verification-optional",
    CK,
    CKB,
    "secure-default",
    'ACCOUNT_EMAIL_VERIFICATION = "mandatory"\n',
    'ACCOUNT_EMAIL_VERIFICATION = "optional"\n',
  ),
  E(
    "cc-unsalted-md5-hasher-first",
    CK,
    CKB,
    "credential",
    'PASSWORD_HASHERS = [\n    # https://docs.djangoproject.com/en/dev/topics/auth/passwords/#using-argon2-with-django\n    "django.contrib.auth.hashers.Argon2PasswordHasher",\n',
    'PASSWORD_HASHERS = [\n    "django.contrib.auth.hashers.UnsaltedMD5PasswordHasher",\n    # https://docs.djangoproject.com/en/dev/topics/auth/passwords/#using-argon2-with-django\n    "django.contrib.auth.hashers.Argon2PasswordHasher",\n',
  ),
  E(
    "cc-csrf-middleware-commented",
    CK,
    CKB,
    "authz",
    '    "django.middleware.csrf.CsrfViewMiddleware",\n',
    '    # "django.middleware.csrf.CsrfViewMiddleware",\n',
  ),
  E(
    "cc-ninja-users-unscoped",
    CK,
    "{{cookiecutter.project_slug}}/{{cookiecutter.project_slug}}/users/api/views.py",
    "authz",
    "    return User.objects.filter(pk=request.user.pk)\n",
    "    return User.objects.all()\n",
  ),
  E(
    "rs-jwt-secret-length-unchecked",
    RS,
    "rsconnect/json_web_token.py",
    "token",
    "    if len(key) < 32:\n",
    "    if len(key) < 1:\n",
  ),
  // ---- rstudio/rsconnect-python (Python)
  E(
    "rs-server-insecure-by-default",
    RS,
    RSA,
    "secure-default",
    "        api_key: Optional[str],\n        insecure: bool = False,\n",
    "        api_key: Optional[str],\n        insecure: bool = True,\n",
  ),
  E(
    "rs-custom-ca-unverified-context",
    RS,
    RSH,
    "secure-default",
    "            context=ssl.create_default_context(cadata=ca_data),\n",
    "            context=ssl._create_unverified_context(cadata=ca_data),\n",
  ),
  E(
    "rs-proxy-tunnel-unverified",
    RS,
    RSH,
    "secure-default",
    "            tmp = http.HTTPSConnection(proxyHost, port=proxyPort, timeout=timeout)\n",
    "            tmp = http.HTTPSConnection(\n                proxyHost, port=proxyPort, timeout=timeout, context=ssl._create_unverified_context()\n            )\n",
  ),
  E(
    "rs-invalid-api-key-tolerated",
    RS,
    RSA,
    "authn-branch",
    '                raise RSConnectException("The specified API key is not valid.")\n            raise RSConnectException("Could not verify the API key: %s %s" % (result.status, result.reason))\n',
    '                logger.warning("The specified API key is not valid.")\n            return ""\n',
  ),
  // ---- elyra-ai/elyra (Python)
  E(
    "el-verify-parm-default-false",
    EL,
    "elyra/util/url.py",
    "secure-default",
    "def get_verify_parm(default: bool = True) -> Union[bool, str]:\n",
    "def get_verify_parm(default: bool = False) -> Union[bool, str]:\n",
  ),
  E(
    "el-url-catalog-verify-off",
    EL,
    "elyra/pipeline/catalog_connector.py",
    "secure-default",
    "                auth=auth,\n                verify=get_verify_parm(),\n",
    "                auth=auth,\n                verify=False,\n",
  ),
  E(
    "el-metadata-delete-unauthenticated",
    EL,
    "elyra/metadata/handlers.py",
    "authz",
    "    @web.authenticated\n    async def delete(self, schemaspace, resource):\n",
    "    async def delete(self, schemaspace, resource):\n",
  ),
  // ---- posit-dev/py-shiny (Python)
  E(
    "sh-autoreload-secret-presence-only",
    SH,
    "shiny/_autoreload.py",
    "credential",
    "                if req_secret != secret:\n",
    "                if not req_secret:\n",
  ),
];

/** Reversed real security fixes of the fifty-ninth batch (split `history59`), chosen by message only. */
export const REVERSED_FIXES_HISTORY59: ReversedFix[] = [
  {
    id: "hs-single-use-auth-tokens-model",
    repo: HS,
    commit: "817595f1",
    path: "models/User.js",
    cls: "token",
    note: "make auth tokens single-use and stop 500 on unknown reset token",
    split: "history59",
  },
  {
    id: "hs-single-use-auth-tokens-controller",
    repo: HS,
    commit: "817595f1",
    path: "controllers/user.js",
    cls: "token",
    note: "make auth tokens single-use and stop 500 on unknown reset token",
    split: "history59",
  },
  {
    id: "hs-session-cookie-secure",
    repo: HS,
    commit: "384e6d80",
    path: "app.js",
    cls: "secure-default",
    note: "rename the cookie and set secure attribute (CWE-614)",
    split: "history59",
  },
  {
    id: "hs-upload-csrf-check",
    repo: HS,
    commit: "bc6f4bb7",
    path: "app.js",
    cls: "authz",
    note: "add CSRF check to the file upload api example",
    split: "history59",
  },
  {
    id: "hs-reset-host-header-injection",
    repo: HS,
    commit: "7851fccf",
    path: "controllers/user.js",
    cls: "token",
    note: "host-header injection in password reset and email verification",
    split: "history59",
  },
  {
    id: "hs-oauth-authorization-issues",
    repo: HS,
    commit: "a2aa276b",
    path: "config/passport.js",
    cls: "authz",
    note: "fix authorization issues and refactor oauth2 token handling",
    split: "history59",
  },
  {
    id: "md-fix-authorizations",
    repo: MD,
    commit: "ce01f4d",
    path: "authorization.js",
    cls: "authz",
    note: "fix authorizations",
    split: "history59",
  },
  {
    id: "md-fix-auth",
    repo: MD,
    commit: "1ca552d",
    path: "authorization.js",
    cls: "authz",
    note: "fix auth",
    split: "history59",
  },
  {
    id: "np-refresh-token-own-secret",
    repo: NP,
    commit: "8606e7c",
    path: "src/services/auth.service.ts",
    cls: "token",
    note: "sign refreshToken with another jwt secret",
    split: "history59",
  },
  {
    id: "cc-cookie-security",
    repo: CK,
    commit: "310b803f2",
    path: "{{cookiecutter.project_slug}}/config/settings/production.py",
    cls: "secure-default",
    note: "enhancing the security of cookies",
    split: "history59",
  },
];
