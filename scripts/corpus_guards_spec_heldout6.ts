/**
 * Held-out batch 6 of the guard-removal corpus: projects never used by the other batches
 * (mozilla-django-oidc, flask-wtf, django-guardian, gorilla/sessions, goth, go-pkgz/auth,
 * node-saml, SimpleWebAuthn, helmet, node-jws, passport-oauth2). The removals were chosen by
 * reading each project's security code the way a careless refactor or an attacker would remove
 * it, and written down before anything was built or measured. `heldout6` edits and `history6`
 * reversed fixes are appended to the arrays of `scripts/corpus_guards_spec.ts`.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";

const H6 = "heldout6" as const;

/** Guard removals in real files of the batch-6 projects (split `heldout6`). */
export const EDITS_HELDOUT6: GuardEdit[] = [
  {
    id: "oidc-jws-alg-mismatch",
    repo: "mozilla/mozilla-django-oidc",
    path: "mozilla_django_oidc/auth.py",
    cls: "token",
    split: H6,
    find:
      '        if alg != self.OIDC_RP_SIGN_ALGO:\n            msg = (\n                "The provider algorithm {!r} does not match the client\'s "\n                "OIDC_RP_SIGN_ALGO.".format(alg)\n            )\n            raise SuspiciousOperation(msg)\n\n',
    replace: "",
  },
  {
    id: "oidc-verify-nonce",
    repo: "mozilla/mozilla-django-oidc",
    path: "mozilla_django_oidc/auth.py",
    cls: "token",
    split: H6,
    find:
      '        token_nonce = payload.get("nonce")\n\n        if self.get_settings("OIDC_USE_NONCE", True) and nonce != token_nonce:\n            msg = "JWT Nonce verification failed."\n            raise SuspiciousOperation(msg)\n        return payload\n',
    replace: "        return payload\n",
  },
  {
    id: "oidc-verify-signature-off",
    repo: "mozilla/mozilla-django-oidc",
    path: "mozilla_django_oidc/auth.py",
    cls: "token",
    split: H6,
    find:
      '            return jwt.decode(\n                payload, key, algorithms=alg, options={"verify_aud": False}\n            )\n',
    replace:
      '            return jwt.decode(\n                payload, key, algorithms=alg, options={"verify_aud": False, "verify_signature": False}\n            )\n',
  },
  {
    id: "oidc-claims-verified",
    repo: "mozilla/mozilla-django-oidc",
    path: "mozilla_django_oidc/auth.py",
    cls: "authn-branch",
    split: H6,
    find:
      '        claims_verified = self.verify_claims(user_info)\n        if not claims_verified:\n            msg = "Claims verification failed"\n            raise SuspiciousOperation(msg)\n\n',
    replace: "        self.verify_claims(user_info)\n\n",
  },
  {
    id: "oidc-verify-claims-true",
    repo: "mozilla/mozilla-django-oidc",
    path: "mozilla_django_oidc/auth.py",
    cls: "credential",
    split: H6,
    find:
      '        # Verify claims required by default configuration\n        scopes = self.get_settings("OIDC_RP_SCOPES", "openid email")\n        if "email" in scopes.split():\n            return "email" in claims\n',
    replace: "        # Verify claims required by default configuration\n        return True\n",
  },
  {
    id: "oidc-token-verify-ssl",
    repo: "mozilla/mozilla-django-oidc",
    path: "mozilla_django_oidc/auth.py",
    cls: "secure-default",
    split: H6,
    find:
      '        response = requests.post(\n            self.OIDC_OP_TOKEN_ENDPOINT,\n            data=payload,\n            auth=auth,\n            verify=self.get_settings("OIDC_VERIFY_SSL", True),\n            timeout=self.get_settings("OIDC_TIMEOUT", None),\n',
    replace:
      '        response = requests.post(\n            self.OIDC_OP_TOKEN_ENDPOINT,\n            data=payload,\n            auth=auth,\n            verify=self.get_settings("OIDC_VERIFY_SSL", False),\n            timeout=self.get_settings("OIDC_TIMEOUT", None),\n',
  },
  {
    id: "oidc-unsecured-jwt-default",
    repo: "mozilla/mozilla-django-oidc",
    path: "mozilla_django_oidc/auth.py",
    cls: "secure-default",
    split: H6,
    find:
      '    def get_payload_data(self, token, key):\n        """Helper method to get the payload of the JWT token."""\n        if self.get_settings("OIDC_ALLOW_UNSECURED_JWT", False):\n            header = jwt.get_unverified_header(token)\n',
    replace:
      '    def get_payload_data(self, token, key):\n        """Helper method to get the payload of the JWT token."""\n        if self.get_settings("OIDC_ALLOW_UNSECURED_JWT", True):\n            header = jwt.get_unverified_header(token)\n',
  },
  {
    id: "oidc-jwk-kid-match",
    repo: "mozilla/mozilla-django-oidc",
    path: "mozilla_django_oidc/auth.py",
    cls: "token",
    split: H6,
    find:
      '        for jwk in jwks["keys"]:\n            if import_from_settings("OIDC_VERIFY_KID", True) and jwk[\n                "kid"\n            ] != smart_str(jws["kid"]):\n                continue\n            if "alg" in jwk and jwk["alg"] != smart_str(jws["alg"]):\n                continue\n            key = jwk\n',
    replace:
      '        for jwk in jwks["keys"]:\n            if import_from_settings("OIDC_VERIFY_KID", True) and jwk[\n                "kid"\n            ] != smart_str(jws["kid"]):\n                continue\n            key = jwk\n',
  },
  {
    id: "oidc-multiple-users",
    repo: "mozilla/mozilla-django-oidc",
    path: "mozilla_django_oidc/auth.py",
    cls: "authn-branch",
    split: H6,
    find:
      '        elif len(users) > 1:\n            # In the rare case that two user accounts have the same email address,\n            # bail. Randomly selecting one seems really wrong.\n            msg = "Multiple users returned"\n            raise SuspiciousOperation(msg)\n        elif self.get_settings("OIDC_CREATE_USER", True):\n',
    replace:
      '        elif len(users) > 1:\n            # In the rare case that two user accounts have the same email address,\n            # bail. Randomly selecting one seems really wrong.\n            msg = "Multiple users returned"\n            return self.update_user(users[0], user_info)\n        elif self.get_settings("OIDC_CREATE_USER", True):\n',
  },
  {
    id: "oidc-callback-state-missing",
    repo: "mozilla/mozilla-django-oidc",
    path: "mozilla_django_oidc/views.py",
    cls: "token",
    split: H6,
    find:
      '            state = request.GET.get("state")\n            if state not in request.session["oidc_states"]:\n                msg = "OIDC callback state not found in session `oidc_states`!"\n                raise SuspiciousOperation(msg)\n\n',
    replace:
      '            state = request.GET.get("state")\n            if state not in request.session["oidc_states"]:\n                msg = "OIDC callback state not found in session `oidc_states`!"\n                pass\n\n',
  },
  {
    id: "oidc-callback-user-active",
    repo: "mozilla/mozilla-django-oidc",
    path: "mozilla_django_oidc/views.py",
    cls: "authn-branch",
    split: H6,
    find:
      "            self.user = auth.authenticate(**kwargs)\n\n            if self.user and self.user.is_active:\n                return self.login_success()\n        return self.login_failure()\n",
    replace:
      "            self.user = auth.authenticate(**kwargs)\n\n            if self.user:\n                return self.login_success()\n        return self.login_failure()\n",
  },
  {
    id: "oidc-next-url-safe",
    repo: "mozilla/mozilla-django-oidc",
    path: "mozilla_django_oidc/views.py",
    cls: "authz",
    split: H6,
    find:
      "        is_safe = url_has_allowed_host_and_scheme(**kwargs)\n        if is_safe:\n            return next_url\n    return None\n",
    replace:
      "        is_safe = url_has_allowed_host_and_scheme(**kwargs)\n        return next_url\n    return None\n",
  },
  {
    id: "oidc-drf-no-user",
    repo: "mozilla/mozilla-django-oidc",
    path: "mozilla_django_oidc/contrib/drf.py",
    cls: "authn-branch",
    split: H6,
    find:
      '        if not user:\n            msg = "Login failed: No user found for the given access token."\n            raise exceptions.AuthenticationFailed(msg)\n\n        return user, access_token\n',
    replace: "        return user, access_token\n",
  },
  {
    id: "oidc-drf-suspicious",
    repo: "mozilla/mozilla-django-oidc",
    path: "mozilla_django_oidc/contrib/drf.py",
    cls: "authn-branch",
    split: H6,
    find:
      '        except SuspiciousOperation as exc:\n            LOGGER.info("Login failed: %s", exc)\n            raise exceptions.AuthenticationFailed("Login failed")\n',
    replace:
      '        except SuspiciousOperation as exc:\n            LOGGER.info("Login failed: %s", exc)\n            return None\n',
  },
  {
    id: "wtf-csrf-compare-digest",
    repo: "wtforms/flask-wtf",
    path: "src/flask_wtf/csrf.py",
    cls: "credential",
    split: H6,
    find:
      '    if not hmac.compare_digest(session[field_name], token):\n        raise ValidationError("The CSRF tokens do not match.")\n',
    replace:
      '    if session[field_name] != token and False:\n        raise ValidationError("The CSRF tokens do not match.")\n',
  },
  {
    id: "wtf-csrf-max-age",
    repo: "wtforms/flask-wtf",
    path: "src/flask_wtf/csrf.py",
    cls: "token",
    split: H6,
    find:
      '    try:\n        token = s.loads(data, max_age=time_limit)\n    except SignatureExpired as e:\n        raise ValidationError("The CSRF token has expired.") from e\n    except BadData as e:\n        raise ValidationError("The CSRF token is invalid.") from e\n',
    replace:
      '    try:\n        token = s.loads(data)\n    except SignatureExpired as e:\n        raise ValidationError("The CSRF token has expired.") from e\n    except BadData as e:\n        raise ValidationError("The CSRF token is invalid.") from e\n',
  },
  {
    id: "wtf-csrf-session-missing",
    repo: "wtforms/flask-wtf",
    path: "src/flask_wtf/csrf.py",
    cls: "authn-branch",
    split: H6,
    find:
      '    if not data:\n        raise ValidationError("The CSRF token is missing.")\n\n    if field_name not in session:\n        raise ValidationError("The CSRF session token is missing.")\n\n',
    replace: '    if not data:\n        raise ValidationError("The CSRF token is missing.")\n\n\n',
  },
  {
    id: "wtf-csrf-protect-call",
    repo: "wtforms/flask-wtf",
    path: "src/flask_wtf/csrf.py",
    cls: "authz",
    split: H6,
    find:
      "            if dest in self._exempt_views:\n                return\n\n            self.protect()\n",
    replace: "            if dest in self._exempt_views:\n                return\n\n",
  },
  {
    id: "wtf-csrf-enabled-default",
    repo: "wtforms/flask-wtf",
    path: "src/flask_wtf/csrf.py",
    cls: "secure-default",
    split: H6,
    find:
      '        app.config.setdefault("WTF_CSRF_ENABLED", True)\n        app.config.setdefault("WTF_CSRF_CHECK_DEFAULT", True)\n',
    replace:
      '        app.config.setdefault("WTF_CSRF_ENABLED", False)\n        app.config.setdefault("WTF_CSRF_CHECK_DEFAULT", True)\n',
  },
  {
    id: "wtf-csrf-referrer-check",
    repo: "wtforms/flask-wtf",
    path: "src/flask_wtf/csrf.py",
    cls: "authz",
    split: H6,
    find:
      '        if request.is_secure and current_app.config["WTF_CSRF_SSL_STRICT"]:\n            if not request.referrer:\n                self._error_response("The referrer header is missing.")\n\n            good_referrer = f"https://{request.host}/"\n\n            if not same_origin(request.referrer, good_referrer):\n                self._error_response("The referrer does not match the host.")\n\n        g.csrf_valid = True  # mark this request as CSRF valid\n',
    replace:
      '        if request.is_secure and current_app.config["WTF_CSRF_SSL_STRICT"]:\n            if not request.referrer:\n                self._error_response("The referrer header is missing.")\n\n            good_referrer = f"https://{request.host}/"\n\n            # if not same_origin(request.referrer, good_referrer):\n            #     self._error_response("The referrer does not match the host.")\n\n        g.csrf_valid = True  # mark this request as CSRF valid\n',
  },
  {
    id: "wtf-csrf-validate-swallowed",
    repo: "wtforms/flask-wtf",
    path: "src/flask_wtf/csrf.py",
    cls: "authz",
    split: H6,
    find:
      "        try:\n            validate_csrf(self._get_csrf_token())\n        except ValidationError as e:\n            logger.info(e.args[0])\n            self._error_response(e.args[0])\n",
    replace:
      "        try:\n            validate_csrf(self._get_csrf_token())\n        except ValidationError as e:\n            logger.info(e.args[0])\n            pass\n",
  },
  {
    id: "wtf-recaptcha-result",
    repo: "wtforms/flask-wtf",
    path: "src/flask_wtf/recaptcha/validators.py",
    cls: "credential",
    split: H6,
    find:
      '        if not self._validate_recaptcha(response, remote_ip):\n            field.recaptcha_error = "incorrect-captcha-sol"\n            raise ValidationError(field.gettext(self.message))\n',
    replace:
      '        if False:\n            field.recaptcha_error = "incorrect-captcha-sol"\n            raise ValidationError(field.gettext(self.message))\n',
  },
  {
    id: "wtf-form-csrf-default",
    repo: "wtforms/flask-wtf",
    path: "src/flask_wtf/form.py",
    cls: "secure-default",
    split: H6,
    find:
      '        @cached_property\n        def csrf(self):\n            return current_app.config.get("WTF_CSRF_ENABLED", True)\n',
    replace:
      '        @cached_property\n        def csrf(self):\n            return current_app.config.get("WTF_CSRF_ENABLED", False)\n',
  },
  {
    id: "guardian-decorator-response",
    repo: "django-guardian/django-guardian",
    path: "guardian/decorators.py",
    cls: "authz",
    split: H6,
    find:
      "            if response:\n                return response\n            return view_func(request, *args, **kwargs)\n",
    replace: "            return view_func(request, *args, **kwargs)\n",
  },
  {
    id: "guardian-40x-all-perms",
    repo: "django-guardian/django-guardian",
    path: "guardian/utils.py",
    cls: "authz",
    split: H6,
    find:
      "    if not has_permissions:\n        if any_perm:\n            has_permissions = any(request.user.has_perm(perm, obj) for perm in perms)  # type: ignore[union-attr]\n        else:\n            has_permissions = all(request.user.has_perm(perm, obj) for perm in perms)  # type: ignore[union-attr]\n",
    replace:
      "    if not has_permissions:\n        if any_perm:\n            has_permissions = any(request.user.has_perm(perm, obj) for perm in perms)  # type: ignore[union-attr]\n        else:\n            has_permissions = True  # type: ignore[union-attr]\n",
  },
  {
    id: "guardian-checker-inactive",
    repo: "django-guardian/django-guardian",
    path: "guardian/core.py",
    cls: "authn-branch",
    split: H6,
    find:
      "        if self.user and not self.user.is_active:\n            return False\n        elif self.user and self.user.is_superuser:\n            return True\n",
    replace: "        if self.user and self.user.is_superuser:\n            return True\n",
  },
  {
    id: "guardian-getperms-inactive",
    repo: "django-guardian/django-guardian",
    path: "guardian/core.py",
    cls: "authn-branch",
    split: H6,
    find:
      "        if self.user and not self.user.is_active:\n            return []\n\n        if guardian_settings.AUTO_PREFETCH:\n",
    replace: "        if guardian_settings.AUTO_PREFETCH:\n",
  },
  {
    id: "guardian-mixin-dispatch",
    repo: "django-guardian/django-guardian",
    path: "guardian/mixins.py",
    cls: "authz",
    split: H6,
    find:
      "        response = self.check_permissions(request)\n        if response:\n            return response\n        return super().dispatch(request, *args, **kwargs)\n",
    replace: "        return super().dispatch(request, *args, **kwargs)\n",
  },
  {
    id: "guardian-mixin-raise",
    repo: "django-guardian/django-guardian",
    path: "guardian/mixins.py",
    cls: "authz",
    split: H6,
    find:
      "        if forbidden and self.raise_exception:\n            raise PermissionDenied(self.get_object_permission_denied_message())\n        return forbidden\n",
    replace:
      "        if forbidden and self.raise_exception:\n            pass\n        return forbidden\n",
  },
  {
    id: "guardian-backend-support",
    repo: "django-guardian/django-guardian",
    path: "guardian/backends.py",
    cls: "authz",
    split: H6,
    find:
      "        support, user_obj = check_support(user_obj, obj)\n        if not support:\n            return False\n\n",
    replace: "        support, user_obj = check_support(user_obj, obj)\n\n",
  },
  {
    id: "guardian-queryset-filter",
    repo: "django-guardian/django-guardian",
    path: "guardian/mixins.py",
    cls: "authz",
    split: H6,
    find:
      "    def get_queryset(self, *args, **kwargs):\n        qs = super().get_queryset(*args, **kwargs)\n        return get_objects_for_user(**self.get_user_object_kwargs(qs))\n",
    replace:
      "    def get_queryset(self, *args, **kwargs):\n        qs = super().get_queryset(*args, **kwargs)\n        return qs\n",
  },
  {
    id: "sessions-cookiestore-secure",
    repo: "gorilla/sessions",
    path: "store.go",
    cls: "secure-default",
    split: H6,
    find:
      '\t\tOptions: &Options{\n\t\t\tPath:     "/",\n\t\t\tMaxAge:   86400 * 30,\n\t\t\tSameSite: http.SameSiteNoneMode,\n\t\t\tSecure:   true,\n\t\t},\n',
    replace:
      '\t\tOptions: &Options{\n\t\t\tPath:     "/",\n\t\t\tMaxAge:   86400 * 30,\n\t\t\tSameSite: http.SameSiteNoneMode,\n\t\t\tSecure:   false,\n\t\t},\n',
  },
  {
    id: "sessions-cookie-secure-attr",
    repo: "gorilla/sessions",
    path: "cookie.go",
    cls: "secure-default",
    split: H6,
    find:
      "\t\tMaxAge:      options.MaxAge,\n\t\tSecure:      options.Secure,\n\t\tHttpOnly:    options.HttpOnly,\n\t\tPartitioned: options.Partitioned,\n",
    replace:
      "\t\tMaxAge:      options.MaxAge,\n\t\tHttpOnly:    options.HttpOnly,\n\t\tPartitioned: options.Partitioned,\n",
  },
  {
    id: "sessions-cookiestore-maxage-codecs",
    repo: "gorilla/sessions",
    path: "store.go",
    cls: "token",
    split: H6,
    find:
      "func (s *CookieStore) MaxAge(age int) {\n\ts.Options.MaxAge = age\n\n\t// Set the maxAge for each securecookie instance.\n\tfor _, codec := range s.Codecs {\n\t\tif sc, ok := codec.(*securecookie.SecureCookie); ok {\n\t\t\tsc.MaxAge(age)\n\t\t}\n\t}\n}\n",
    replace:
      "func (s *CookieStore) MaxAge(age int) {\n\ts.Options.MaxAge = age\n\n\t// Set the maxAge for each securecookie instance.\n}\n",
  },
  {
    id: "sessions-fs-file-mode",
    repo: "gorilla/sessions",
    path: "store.go",
    cls: "secure-default",
    split: H6,
    find:
      "\tfilename := filepath.Join(s.path, sessionFilePrefix+filepath.Base(session.ID))\n\tfileMutex.Lock()\n\tdefer fileMutex.Unlock()\n\treturn os.WriteFile(filename, []byte(encoded), 0600)\n",
    replace:
      "\tfilename := filepath.Join(s.path, sessionFilePrefix+filepath.Base(session.ID))\n\tfileMutex.Lock()\n\tdefer fileMutex.Unlock()\n\treturn os.WriteFile(filename, []byte(encoded), 0644)\n",
  },
  {
    id: "goth-validate-state-call",
    repo: "markbates/goth",
    path: "gothic/gothic.go",
    cls: "token",
    split: H6,
    find:
      "\terr = validateState(req, sess)\n\tif err != nil {\n\t\treturn goth.User{}, err\n\t}\n\n\tuser, err := provider.FetchUser(sess)\n",
    replace: "\tuser, err := provider.FetchUser(sess)\n",
  },
  {
    id: "goth-state-mismatch",
    repo: "markbates/goth",
    path: "gothic/gothic.go",
    cls: "token",
    split: H6,
    find:
      '\toriginalState := authURL.Query().Get("state")\n\tif originalState != "" && (originalState != reqState) {\n\t\treturn errors.New("state token mismatch")\n\t}\n\treturn nil\n',
    replace:
      '\toriginalState := authURL.Query().Get("state")\n\tif originalState != "" && (originalState != reqState) {\n\t\treturn nil\n\t}\n\treturn nil\n',
  },
  {
    id: "goth-cookie-httponly",
    repo: "markbates/goth",
    path: "gothic/gothic.go",
    cls: "secure-default",
    split: H6,
    find:
      "\tcookieStore := sessions.NewCookieStore(key)\n\tcookieStore.Options.HttpOnly = true\n\tStore = cookieStore\n",
    replace: "\tcookieStore := sessions.NewCookieStore(key)\n\tStore = cookieStore\n",
  },
  {
    id: "goth-oidc-audience",
    repo: "markbates/goth",
    path: "providers/openidConnect/openidConnect.go",
    cls: "token",
    split: H6,
    find:
      '\taudience := getClaimValue(claims, []string{audienceClaim})\n\tif audience != p.ClientKey {\n\t\tfound := false\n\t\taudiences := getClaimValues(claims, []string{audienceClaim})\n\t\tfor _, aud := range audiences {\n\t\t\tif aud == p.ClientKey {\n\t\t\t\tfound = true\n\t\t\t\tbreak\n\t\t\t}\n\t\t}\n\t\tif !found {\n\t\t\treturn time.Time{}, errors.New("audience in token does not match client key")\n\t\t}\n\t}\n\n\tissuer := getClaimValue(claims, []string{issuerClaim})\n',
    replace: "\tissuer := getClaimValue(claims, []string{issuerClaim})\n",
  },
  {
    id: "goth-oidc-issuer",
    repo: "markbates/goth",
    path: "providers/openidConnect/openidConnect.go",
    cls: "token",
    split: H6,
    find:
      '\tif issuer != p.OpenIDConfig.Issuer {\n\t\treturn time.Time{}, errors.New("issuer in token does not match issuer in OpenIDConfig discovery")\n\t}\n',
    replace:
      '\t// if issuer != p.OpenIDConfig.Issuer {\n\t// \treturn time.Time{}, errors.New("issuer in token does not match issuer in OpenIDConfig discovery")\n\t// }\n',
  },
  {
    id: "goth-oidc-expiry",
    repo: "markbates/goth",
    path: "providers/openidConnect/openidConnect.go",
    cls: "token",
    split: H6,
    find:
      '\tif expiry.Add(clockSkew).Before(time.Now()) {\n\t\treturn time.Time{}, errors.New("user info JWT token is expired")\n\t}\n\treturn expiry, nil\n',
    replace:
      "\tif expiry.Add(clockSkew).Before(time.Now()) {\n\t\treturn expiry, nil\n\t}\n\treturn expiry, nil\n",
  },
  {
    id: "goth-oidc-validate-err",
    repo: "markbates/goth",
    path: "providers/openidConnect/openidConnect.go",
    cls: "token",
    split: H6,
    find:
      '\texpiry, err := p.validateClaims(claims)\n\tif err != nil {\n\t\treturn goth.User{}, fmt.Errorf("oauth2: error validating JWT token: %v", err)\n\t}\n\n',
    replace: "\texpiry, _ := p.validateClaims(claims)\n\n",
  },
  {
    id: "pkgz-admin-basic-ct",
    repo: "go-pkgz/auth",
    path: "middleware/auth.go",
    cls: "credential",
    split: H6,
    find:
      '\t// using ConstantTimeCompare to avoid timing attack\n\tif user != "admin" || subtle.ConstantTimeCompare([]byte(passwd), []byte(a.AdminPasswd)) != 1 {\n\t\ta.Logf("[WARN] admin basic auth failed for user %q", user)\n\t\treturn false\n\t}\n',
    replace:
      '\t// using ConstantTimeCompare to avoid timing attack\n\tif user != "admin" || passwd != a.AdminPasswd {\n\t\ta.Logf("[WARN] admin basic auth failed for user %q", user)\n\t\treturn false\n\t}\n',
  },
  {
    id: "pkgz-basic-checker-not-ok",
    repo: "go-pkgz/auth",
    path: "middleware/auth.go",
    cls: "credential",
    split: H6,
    find:
      '\t\t\t\t\tok, userInfo, err := a.BasicAuthChecker(user, passwd)\n\t\t\t\t\tif err != nil {\n\t\t\t\t\t\tonError(h, w, r, fmt.Errorf("basic auth check failed: %w", err))\n\t\t\t\t\t\treturn\n\t\t\t\t\t}\n\t\t\t\t\tif !ok {\n\t\t\t\t\t\tonError(h, w, r, fmt.Errorf("credentials are wrong for basic auth: %w", err))\n\t\t\t\t\t\treturn\n\t\t\t\t\t}\n\t\t\t\t\tr = token.SetUserInfo(r, userInfo) // pass user claims into context of incoming request\n',
    replace:
      '\t\t\t\t\tok, userInfo, err := a.BasicAuthChecker(user, passwd)\n\t\t\t\t\tif err != nil {\n\t\t\t\t\t\tonError(h, w, r, fmt.Errorf("basic auth check failed: %w", err))\n\t\t\t\t\t\treturn\n\t\t\t\t\t}\n\t\t\t\t\tr = token.SetUserInfo(r, userInfo) // pass user claims into context of incoming request\n',
  },
  {
    id: "pkgz-validator-blocked",
    repo: "go-pkgz/auth",
    path: "middleware/auth.go",
    cls: "authn-branch",
    split: H6,
    find:
      '\t\t\t\t// validator passed by client and performs check on token or/and claims\n\t\t\t\tif a.Validator != nil && !a.Validator.Validate(tkn, claims) {\n\t\t\t\t\tonError(h, w, r, fmt.Errorf("user %s/%s blocked", claims.User.Name, claims.User.ID))\n\t\t\t\t\ta.JWTService.Reset(w)\n\t\t\t\t\treturn\n\t\t\t\t}\n\n',
    replace:
      '\t\t\t\t// validator passed by client and performs check on token or/and claims\n\t\t\t\tif false {\n\t\t\t\t\tonError(h, w, r, fmt.Errorf("user %s/%s blocked", claims.User.Name, claims.User.ID))\n\t\t\t\t\ta.JWTService.Reset(w)\n\t\t\t\t\treturn\n\t\t\t\t}\n\n',
  },
  {
    id: "pkgz-provider-allowed",
    repo: "go-pkgz/auth",
    path: "middleware/auth.go",
    cls: "authz",
    split: H6,
    find:
      '\t\t\t\t// check if user provider is allowed\n\t\t\t\tif !a.isProviderAllowed(&claims) {\n\t\t\t\t\tonError(h, w, r, fmt.Errorf("user %s/%s provider is not allowed", claims.User.Name, claims.User.ID))\n\t\t\t\t\ta.JWTService.Reset(w)\n\t\t\t\t\treturn\n\t\t\t\t}\n\n',
    replace:
      '\t\t\t\t// check if user provider is allowed\n\t\t\t\t// if !a.isProviderAllowed(&claims) {\n\t\t\t\t// \tonError(h, w, r, fmt.Errorf("user %s/%s provider is not allowed", claims.User.Name, claims.User.ID))\n\t\t\t\t// \ta.JWTService.Reset(w)\n\t\t\t\t// \treturn\n\t\t\t\t// }\n\n',
  },
  {
    id: "pkgz-admin-only-isadmin",
    repo: "go-pkgz/auth",
    path: "middleware/auth.go",
    cls: "authz",
    split: H6,
    find:
      '\t\tif !user.IsAdmin() {\n\t\t\thttp.Error(w, "Access denied", http.StatusForbidden)\n\t\t\treturn\n\t\t}\n\t\tnext.ServeHTTP(w, r)\n',
    replace: "\t\tnext.ServeHTTP(w, r)\n",
  },
  {
    id: "pkgz-rbac-matched",
    repo: "go-pkgz/auth",
    path: "middleware/auth.go",
    cls: "authz",
    split: H6,
    find:
      '\t\t\tif !matched {\n\t\t\t\thttp.Error(w, "Access denied", http.StatusForbidden)\n\t\t\t\treturn\n\t\t\t}\n\t\t\th.ServeHTTP(w, r)\n',
    replace: "\t\t\th.ServeHTTP(w, r)\n",
  },
  {
    id: "pkgz-admin-only-auth-wrap",
    repo: "go-pkgz/auth",
    path: "middleware/auth.go",
    cls: "authz",
    split: H6,
    find:
      "\t\tnext.ServeHTTP(w, r)\n\t}\n\treturn a.auth(true)(http.HandlerFunc(fn)) // enforce auth\n}\n",
    replace: "\t\tnext.ServeHTTP(w, r)\n\t}\n\treturn http.HandlerFunc(fn)\n}\n",
  },
  {
    id: "pkgz-no-user-claim",
    repo: "go-pkgz/auth",
    path: "middleware/auth.go",
    cls: "authn-branch",
    split: H6,
    find:
      '\t\t\tif claims.User == nil {\n\t\t\t\tonError(h, w, r, fmt.Errorf("no user info presented in the claim"))\n\t\t\t\treturn\n\t\t\t}\n\n',
    replace: "",
  },
  {
    id: "pkgz-jwt-hmac-method",
    repo: "go-pkgz/auth",
    path: "token/jwt.go",
    cls: "token",
    split: H6,
    find:
      '\ttoken, err := parser.ParseWithClaims(tokenString, &Claims{}, func(token *jwt.Token) (any, error) {\n\t\tif _, ok := token.Method.(*jwt.SigningMethodHMAC); !ok {\n\t\t\treturn nil, fmt.Errorf("unexpected signing method: %v", token.Header["alg"])\n\t\t}\n\t\treturn []byte(secret), nil\n\t})\n',
    replace:
      "\ttoken, err := parser.ParseWithClaims(tokenString, &Claims{}, func(token *jwt.Token) (any, error) {\n\t\treturn []byte(secret), nil\n\t})\n",
  },
  {
    id: "pkgz-jwt-aud-rejected",
    repo: "go-pkgz/auth",
    path: "token/jwt.go",
    cls: "token",
    split: H6,
    find:
      '\tif err = j.checkAuds(claims, j.AudienceReader); err != nil {\n\t\treturn Claims{}, fmt.Errorf("aud rejected: %w", err)\n\t}\n\treturn *claims, j.validate(claims)\n',
    replace: "\treturn *claims, j.validate(claims)\n",
  },
  {
    id: "pkgz-jwt-get-expired",
    repo: "go-pkgz/auth",
    path: "token/jwt.go",
    cls: "token",
    split: H6,
    find:
      '\tif !fromCookie && j.IsExpired(claims) {\n\t\treturn Claims{}, "", fmt.Errorf("token expired")\n\t}\n\n',
    replace: "",
  },
  {
    id: "pkgz-jwt-xsrf-mismatch",
    repo: "go-pkgz/auth",
    path: "token/jwt.go",
    cls: "authz",
    split: H6,
    find:
      '\tif fromCookie && claims.User != nil {\n\t\txsrf := r.Header.Get(j.XSRFHeaderKey)\n\t\tif claims.Id != xsrf {\n\t\t\treturn Claims{}, "", fmt.Errorf("xsrf mismatch")\n\t\t}\n\t}\n',
    replace:
      "\tif fromCookie && claims.User != nil {\n\t\txsrf := r.Header.Get(j.XSRFHeaderKey)\n\t\t_ = xsrf\n\t}\n",
  },
  {
    id: "pkgz-jwt-cookie-httponly",
    repo: "go-pkgz/auth",
    path: "token/jwt.go",
    cls: "secure-default",
    split: H6,
    find:
      '\tjwtCookie := http.Cookie{Name: j.JWTCookieName, Value: tokenString, HttpOnly: true, Path: "/", Domain: j.JWTCookieDomain, //nolint:gosec // Secure and SameSite come from service config\n\t\tMaxAge: cookieExpiration, Secure: j.SecureCookies, SameSite: j.SameSite}\n',
    replace:
      '\tjwtCookie := http.Cookie{Name: j.JWTCookieName, Value: tokenString, HttpOnly: false, Path: "/", Domain: j.JWTCookieDomain, //nolint:gosec // Secure and SameSite come from service config\n\t\tMaxAge: cookieExpiration, Secure: j.SecureCookies, SameSite: j.SameSite}\n',
  },
  {
    id: "pkgz-verify-confirm-expired",
    repo: "go-pkgz/auth",
    path: "provider/verify.go",
    cls: "token",
    split: H6,
    find:
      '\tif e.TokenService.IsExpired(confClaims) {\n\t\trest.SendErrorJSON(w, r, e.L, http.StatusForbidden, fmt.Errorf("expired"), "failed to verify confirmation token")\n\t\treturn\n\t}\n\n',
    replace: "",
  },
  {
    id: "pkgz-verify-already-used",
    repo: "go-pkgz/auth",
    path: "provider/verify.go",
    cls: "token",
    split: H6,
    find:
      '\t\tif alreadyUsed {\n\t\t\trest.SendErrorJSON(w, scrubTokenFromRequest(r), e.L, http.StatusForbidden, fmt.Errorf("token already used"), "confirmation token already consumed")\n\t\t\treturn\n\t\t}\n',
    replace: "",
  },
  {
    id: "saml-document-signature",
    repo: "node-saml/node-saml",
    path: "src/saml.ts",
    cls: "token",
    split: H6,
    find:
      '      if (this.options.wantAuthnResponseSigned === true && validSignature === false) {\n        throw new Error("Invalid document signature");\n      }\n\n',
    replace: "",
  },
  {
    id: "saml-multiple-assertions",
    repo: "node-saml/node-saml",
    path: "src/saml.ts",
    cls: "token",
    split: H6,
    find:
      '      if (assertions.length + encryptedAssertions.length > 1) {\n        // There\'s no reason I know of that we want to handle multiple assertions, and it seems like a\n        //   potential risk vector for signature scope issues, so treat this as an invalid signature\n        throw new Error("Invalid signature: multiple assertions");\n      }\n\n',
    replace: "",
  },
  {
    id: "saml-assertion-signature",
    repo: "node-saml/node-saml",
    path: "src/saml.ts",
    cls: "token",
    split: H6,
    find:
      '          assertionVerifiedXml = getVerifiedXml(xml, assertions[0], pemFiles);\n          if (!assertionVerifiedXml) {\n            throw new Error("Invalid signature");\n          }\n',
    replace:
      '          assertionVerifiedXml = getVerifiedXml(xml, assertions[0], pemFiles);\n          // if (!assertionVerifiedXml) {\n          //   throw new Error("Invalid signature");\n          // }\n',
  },
  {
    id: "saml-inresponseto-cache",
    repo: "node-saml/node-saml",
    path: "src/saml.ts",
    cls: "token",
    split: H6,
    find:
      '        const result = await this.cacheProvider.getAsync(inResponseTo);\n        if (!result) throw new Error("InResponseTo is not valid");\n        return;\n',
    replace:
      "        const result = await this.cacheProvider.getAsync(inResponseTo);\n        return;\n",
  },
  {
    id: "saml-redirect-query-signature",
    repo: "node-saml/node-saml",
    path: "src/saml.ts",
    cls: "token",
    split: H6,
    find:
      '      if (!hasValidQuerySignature) {\n        throw new Error("Invalid query signature");\n      }\n',
    replace: '      if (false) {\n        throw new Error("Invalid query signature");\n      }\n',
  },
  {
    id: "saml-conditions-timestamps",
    repo: "node-saml/node-saml",
    path: "src/saml.ts",
    cls: "token",
    split: H6,
    find:
      "      const conErr = this.checkTimestampsValidityError(\n        nowMs,\n        conditions.$.NotBefore,\n        conditions.$.NotOnOrAfter,\n        maxTimeLimitMs,\n      );\n      if (conErr) throw conErr;\n    }\n",
    replace:
      "      const conErr = this.checkTimestampsValidityError(\n        nowMs,\n        conditions.$.NotBefore,\n        conditions.$.NotOnOrAfter,\n        maxTimeLimitMs,\n      );\n    }\n",
  },
  {
    id: "saml-audience-log-only",
    repo: "node-saml/node-saml",
    path: "src/saml.ts",
    cls: "token",
    split: H6,
    find:
      "    if (this.options.audience !== false) {\n      const audienceErr = this.checkAudienceValidityError(\n        this.options.audience,\n        conditions.AudienceRestriction,\n      );\n      if (audienceErr) throw audienceErr;\n    }\n",
    replace:
      "    if (this.options.audience !== false) {\n      const audienceErr = this.checkAudienceValidityError(\n        this.options.audience,\n        conditions.AudienceRestriction,\n      );\n      if (audienceErr) console.warn(audienceErr.message);\n    }\n",
  },
  {
    id: "saml-not-on-or-after",
    repo: "node-saml/node-saml",
    path: "src/saml.ts",
    cls: "token",
    split: H6,
    find:
      '    if (notOnOrAfter) {\n      const notOnOrAfterMs = dateStringToTimestamp(notOnOrAfter, "NotOnOrAfter");\n      if (nowMs - this.options.acceptedClockSkewMs >= notOnOrAfterMs)\n        return new Error("SAML assertion expired: clocks skewed too much");\n    }\n',
    replace: "",
  },
  {
    id: "saml-want-response-signed-default",
    repo: "node-saml/node-saml",
    path: "src/saml.ts",
    cls: "secure-default",
    split: H6,
    find:
      "      wantAssertionsSigned: ctorOptions.wantAssertionsSigned ?? DEFAULT_WANT_ASSERTIONS_SIGNED,\n      wantAuthnResponseSigned: ctorOptions.wantAuthnResponseSigned ?? true,\n",
    replace:
      "      wantAssertionsSigned: ctorOptions.wantAssertionsSigned ?? DEFAULT_WANT_ASSERTIONS_SIGNED,\n      wantAuthnResponseSigned: ctorOptions.wantAuthnResponseSigned ?? false,\n",
  },
  {
    id: "saml-want-assertions-signed-const",
    repo: "node-saml/node-saml",
    path: "src/constants.ts",
    cls: "secure-default",
    split: H6,
    find: "export const DEFAULT_WANT_ASSERTIONS_SIGNED = true;\n",
    replace: "export const DEFAULT_WANT_ASSERTIONS_SIGNED = false;\n",
  },
  {
    id: "saml-xml-referenced-parent",
    repo: "node-saml/node-saml",
    path: "src/xml.ts",
    cls: "token",
    split: H6,
    find:
      '    if (totalReferencedNodes[0] !== signature.parentNode) {\n      throw new Error("Invalid signature: Referenced node does not refer to it\'s parent element");\n    }\n\n',
    replace: "",
  },
  {
    id: "saml-xml-checksignature-result",
    repo: "node-saml/node-saml",
    path: "src/xml.ts",
    cls: "credential",
    split: H6,
    find:
      '  try {\n    return sig.checkSignature(fullXml);\n  } catch (err) {\n    debug("signature check resulted in an error: %s", err);\n    return false;\n  }\n',
    replace:
      '  try {\n    sig.checkSignature(fullXml);\n    return true;\n  } catch (err) {\n    debug("signature check resulted in an error: %s", err);\n    return false;\n  }\n',
  },
  {
    id: "webauthn-auth-challenge",
    repo: "MasterKale/SimpleWebAuthn",
    path: "packages/server/src/authentication/verifyAuthenticationResponse.ts",
    cls: "token",
    split: H6,
    find:
      '  } else if (challenge !== expectedChallenge) {\n    throw new Error(\n      `Unexpected authentication response challenge "${challenge}", expected "${expectedChallenge}"`,\n    );\n  }\n',
    replace: "  }\n",
  },
  {
    id: "webauthn-auth-origin",
    repo: "MasterKale/SimpleWebAuthn",
    path: "packages/server/src/authentication/verifyAuthenticationResponse.ts",
    cls: "token",
    split: H6,
    find:
      '  } else {\n    if (origin !== expectedOrigin) {\n      throw new Error(\n        `Unexpected authentication response origin "${origin}", expected "${expectedOrigin}"`,\n      );\n    }\n  }\n',
    replace: "  }\n",
  },
  {
    id: "webauthn-auth-user-present",
    repo: "MasterKale/SimpleWebAuthn",
    path: "packages/server/src/authentication/verifyAuthenticationResponse.ts",
    cls: "credential",
    split: H6,
    find:
      "    if (!flags.up) {\n      throw new Error('User not present during authentication');\n    }\n",
    replace:
      "    // if (!flags.up) {\n    //   throw new Error('User not present during authentication');\n    // }\n",
  },
  {
    id: "webauthn-auth-user-verified",
    repo: "MasterKale/SimpleWebAuthn",
    path: "packages/server/src/authentication/verifyAuthenticationResponse.ts",
    cls: "credential",
    split: H6,
    find:
      "    if (requireUserVerification && !flags.uv) {\n      throw new Error(\n        'User verification required, but user could not be verified',\n      );\n    }\n",
    replace:
      "    if (requireUserVerification && !flags.uv && !flags.up) {\n      throw new Error(\n        'User verification required, but user could not be verified',\n      );\n    }\n",
  },
  {
    id: "webauthn-auth-counter",
    repo: "MasterKale/SimpleWebAuthn",
    path: "packages/server/src/authentication/verifyAuthenticationResponse.ts",
    cls: "token",
    split: H6,
    find:
      "  if (\n    (counter > 0 || credential.counter > 0) &&\n    counter <= credential.counter\n  ) {\n    // Error out when the counter in the DB is greater than or equal to the counter in the\n    // dataStruct. It's related to how the authenticator maintains the number of times its been\n    // used for this client. If this happens, then someone's somehow increased the counter\n    // on the device without going through this site\n    throw new Error(\n      `Response counter value ${counter} was lower than expected ${credential.counter}`,\n    );\n  }\n\n",
    replace: "",
  },
  {
    id: "webauthn-auth-signature",
    repo: "MasterKale/SimpleWebAuthn",
    path: "packages/server/src/authentication/verifyAuthenticationResponse.ts",
    cls: "credential",
    split: H6,
    find:
      "    verified: await verifySignature({\n      signature,\n      data: signatureBase,\n      credentialPublicKey: credential.publicKey,\n    }),\n",
    replace: "    verified: true,\n",
  },
  {
    id: "webauthn-auth-rpid",
    repo: "MasterKale/SimpleWebAuthn",
    path: "packages/server/src/authentication/verifyAuthenticationResponse.ts",
    cls: "token",
    split: H6,
    find: "  const matchedRPID = await matchExpectedRPID(rpIdHash, expectedRPIDs);\n",
    replace: "  const matchedRPID = expectedRPIDs[0];\n",
  },
  {
    id: "webauthn-reg-alg",
    repo: "MasterKale/SimpleWebAuthn",
    path: "packages/server/src/registration/verifyRegistrationResponse.ts",
    cls: "token",
    split: H6,
    find:
      '  // Make sure the key algorithm is one we specified within the registration options\n  if (!supportedAlgorithmIDs.includes(alg as number)) {\n    const supported = supportedAlgorithmIDs.join(\', \');\n    throw new Error(\n      `Unexpected public key alg "${alg}", expected one of "${supported}"`,\n    );\n  }\n\n',
    replace: "",
  },
  {
    id: "webauthn-reg-custom-challenge",
    repo: "MasterKale/SimpleWebAuthn",
    path: "packages/server/src/registration/verifyRegistrationResponse.ts",
    cls: "token",
    split: H6,
    find:
      '    if (!(await expectedChallenge(challenge))) {\n      throw new Error(\n        `Custom challenge verifier returned false for registration response challenge "${challenge}"`,\n      );\n    }\n',
    replace: "    await expectedChallenge(challenge);\n",
  },
  {
    id: "webauthn-reg-unknown-format",
    repo: "MasterKale/SimpleWebAuthn",
    path: "packages/server/src/registration/verifyRegistrationResponse.ts",
    cls: "token",
    split: H6,
    find: "  } else {\n    throw new Error(`Unsupported Attestation Format: ${fmt}`);\n  }\n",
    replace: "  } else {\n    verified = true;\n  }\n",
  },
  {
    id: "helmet-csp-default-off",
    repo: "helmetjs/helmet",
    path: "index.ts",
    cls: "secure-default",
    split: H6,
    find:
      "  switch (options.contentSecurityPolicy) {\n    case undefined:\n    case true:\n      result.push(contentSecurityPolicy());\n      break;\n    case false:\n      break;\n    default:\n      result.push(contentSecurityPolicy(options.contentSecurityPolicy));\n      break;\n  }\n",
    replace:
      "  switch (options.contentSecurityPolicy) {\n    case true:\n      result.push(contentSecurityPolicy());\n      break;\n    case undefined:\n    case false:\n      break;\n    default:\n      result.push(contentSecurityPolicy(options.contentSecurityPolicy));\n      break;\n  }\n",
  },
  {
    id: "helmet-hsts-default-off",
    repo: "helmetjs/helmet",
    path: "index.ts",
    cls: "secure-default",
    split: H6,
    find:
      "  switch (strictTransportSecurityOption) {\n    case undefined:\n    case true:\n      result.push(strictTransportSecurity());\n      break;\n    case false:\n      break;\n    default:\n      result.push(strictTransportSecurity(strictTransportSecurityOption));\n      break;\n  }\n",
    replace:
      "  switch (strictTransportSecurityOption) {\n    case true:\n      result.push(strictTransportSecurity());\n      break;\n    case undefined:\n    case false:\n      break;\n    default:\n      result.push(strictTransportSecurity(strictTransportSecurityOption));\n      break;\n  }\n",
  },
  {
    id: "helmet-frameguard-default",
    repo: "helmetjs/helmet",
    path: "index.ts",
    cls: "secure-default",
    split: H6,
    find:
      "  switch (xFrameOptionsOption) {\n    case undefined:\n    case true:\n      result.push(xFrameOptions());\n      break;\n    case false:\n      break;\n    default:\n      result.push(xFrameOptions(xFrameOptionsOption));\n      break;\n  }\n",
    replace:
      "  switch (xFrameOptionsOption) {\n    case undefined:\n    case true:\n      break;\n    case false:\n      break;\n    default:\n      result.push(xFrameOptions(xFrameOptionsOption));\n      break;\n  }\n",
  },
  {
    id: "helmet-csp-script-src",
    repo: "helmetjs/helmet",
    path: "middlewares/content-security-policy/index.ts",
    cls: "secure-default",
    split: H6,
    find: '  "script-src": ["\'self\'"],\n',
    replace: '  "script-src": ["\'self\'", "\'unsafe-inline\'", "\'unsafe-eval\'"],\n',
  },
  {
    id: "helmet-hsts-subdomains",
    repo: "helmetjs/helmet",
    path: "middlewares/strict-transport-security/index.ts",
    cls: "secure-default",
    split: H6,
    find:
      '  if (options.includeSubDomains === undefined || options.includeSubDomains) {\n    directives.push("includeSubDomains");\n  }\n',
    replace: '  if (options.includeSubDomains) {\n    directives.push("includeSubDomains");\n  }\n',
  },
  {
    id: "helmet-nosniff-header",
    repo: "helmetjs/helmet",
    path: "middlewares/x-content-type-options/index.ts",
    cls: "secure-default",
    split: H6,
    find: '    res.setHeader("X-Content-Type-Options", "nosniff");\n',
    replace: "",
  },
  {
    id: "helmet-coop-default",
    repo: "helmetjs/helmet",
    path: "middlewares/cross-origin-opener-policy/index.ts",
    cls: "secure-default",
    split: H6,
    find:
      'function getHeaderValueFromOptions({\n  policy = "same-origin",\n}: Readonly<CrossOriginOpenerPolicyOptions>): string {\n',
    replace:
      'function getHeaderValueFromOptions({\n  policy = "unsafe-none",\n}: Readonly<CrossOriginOpenerPolicyOptions>): string {\n',
  },
  {
    id: "jws-verify-missing-alg",
    repo: "auth0/node-jws",
    path: "lib/verify-stream.js",
    cls: "token",
    split: H6,
    find:
      '  if (!algorithm) {\n    var err = new Error("Missing algorithm parameter for jws.verify");\n    err.code = "MISSING_ALGORITHM";\n    throw err;\n  }\n',
    replace: "",
  },
  {
    id: "jws-verify-algo",
    repo: "auth0/node-jws",
    path: "lib/verify-stream.js",
    cls: "credential",
    split: H6,
    find:
      "  var algo = jwa(algorithm);\n  return algo.verify(securedInput, signature, secretOrKey);\n",
    replace: "  return !!signature;\n",
  },
  {
    id: "jws-hs-secret-required",
    repo: "auth0/node-jws",
    path: "lib/verify-stream.js",
    cls: "token",
    split: H6,
    find:
      "  if (/^hs/i.test(opts.algorithm) === true && secretOrKey == null) {\n    throw new TypeError('secret must be a string or buffer or a KeyObject')\n  }\n",
    replace: "",
  },
  {
    id: "poauth2-session-state-compare",
    repo: "jaredhanson/passport-oauth2",
    path: "lib/state/session.js",
    cls: "token",
    split: H6,
    find:
      "  if (state !== providedState) {\n    return callback(null, false, { message: 'Invalid authorization request state.' });\n  }\n\n",
    replace: "",
  },
  {
    id: "poauth2-pkce-state-handle",
    repo: "jaredhanson/passport-oauth2",
    path: "lib/state/pkcesession.js",
    cls: "token",
    split: H6,
    find: "  if (state.handle !== providedState) {\n",
    replace: "  if (false) {\n",
  },
  {
    id: "poauth2-state-missing",
    repo: "jaredhanson/passport-oauth2",
    path: "lib/state/session.js",
    cls: "token",
    split: H6,
    find:
      "  if (!state) {\n    return callback(null, false, { message: 'Unable to verify authorization request state.' });\n  }\n",
    replace: "  if (!state) {\n    return callback(null, true);\n  }\n",
  },
  {
    id: "poauth2-state-not-ok",
    repo: "jaredhanson/passport-oauth2",
    path: "lib/strategy.js",
    cls: "token",
    split: H6,
    find:
      "      if (err) { return self.error(err); }\n      if (!ok) {\n        return self.fail(state, 403);\n      }\n\n",
    replace: "      if (err) { return self.error(err); }\n\n",
  },
  {
    id: "poauth2-verified-no-user",
    repo: "jaredhanson/passport-oauth2",
    path: "lib/strategy.js",
    cls: "authn-branch",
    split: H6,
    find:
      "              if (err) { return self.error(err); }\n              if (!user) { return self.fail(info); }\n\n",
    replace: "              if (err) { return self.error(err); }\n\n",
  },
  {
    id: "poauth2-no-access-token",
    repo: "jaredhanson/passport-oauth2",
    path: "lib/strategy.js",
    cls: "authn-branch",
    split: H6,
    find:
      "          if (err) { return self.error(self._createOAuthError('Failed to obtain access token', err)); }\n          if (!accessToken) { return self.error(new Error('Failed to obtain access token')); }\n\n",
    replace:
      "          if (err) { return self.error(self._createOAuthError('Failed to obtain access token', err)); }\n\n",
  },
  {
    id: "pkgz-direct-cred-not-ok",
    repo: "go-pkgz/auth",
    path: "provider/direct.go",
    cls: "credential",
    split: H6,
    find:
      '\tif !ok {\n\t\trest.SendErrorJSON(w, logReq, p.L, http.StatusForbidden, nil, "incorrect user or password")\n\t\treturn\n\t}\n\n',
    replace: "",
  },
  {
    id: "wtf-recaptcha-debug-skip",
    repo: "wtforms/flask-wtf",
    path: "src/flask_wtf/recaptcha/validators.py",
    cls: "credential",
    split: H6,
    find: "        if current_app.testing:\n            return True\n",
    replace: "        if current_app.testing or current_app.debug:\n            return True\n",
  },
];

/**
 * Real security fixes from the batch-6 projects' histories, reversed (fixed file → its parent),
 * chosen by advisory and commit message only (split `history6`).
 */
export const REVERSED_FIXES_HISTORY6: ReversedFix[] = [
  {
    id: "oidc-fix-failed-auth-state",
    repo: "mozilla/mozilla-django-oidc",
    commit: "c65eb6e96742bf0a8d355a2179141baffe01c0e7",
    path: "mozilla_django_oidc/views.py",
    cls: "token",
    split: "history6",
    note: "remove the state from the session on failed authentication attempts (replay)",
  },
  {
    id: "flask-wtf-fix-csrf-timing",
    repo: "wtforms/flask-wtf",
    commit: "94827671368caf5675bb79317e17b822aee79620",
    path: "flask_wtf/csrf.py",
    cls: "credential",
    split: "history6",
    note: "compare CSRF HMACs with hmac.compare_digest (timing attack)",
  },
  {
    id: "guardian-fix-admin-perms",
    repo: "django-guardian/django-guardian",
    commit: "3e003e20dd953c70c18add563fcb4598c8e8ac04",
    path: "guardian/admin.py",
    cls: "authz",
    split: "history6",
    note: "GuardedModelAdminMixin checks guardian permissions (issue 756)",
  },
  {
    id: "sessions-fix-default-samesite",
    repo: "gorilla/sessions",
    commit: "ef99c782e9aae430b326a614151c983dcd7c2c1d",
    path: "store.go",
    cls: "secure-default",
    split: "history6",
    note: "cookie store defaults to SameSite and Secure",
  },
  {
    id: "goth-fix-random-state",
    repo: "markbates/goth",
    commit: "f80c7b0680f9d59c9dfcb28b26c34e7f360243eb",
    path: "gothic/gothic.go",
    cls: "token",
    split: "history6",
    note: "default random state nonce to prevent CSRF in the OAuth flow",
  },
  {
    id: "pkgz-fix-apple-iss-aud",
    repo: "go-pkgz/auth",
    commit: "2ce5ad5ed7b973069aca7d3ed9a6ca9ee8391529",
    path: "provider/apple.go",
    cls: "token",
    split: "history6",
    note: "validate id_token iss and aud on Sign in with Apple",
  },
  {
    id: "pkgz-fix-admin-ct-compare",
    repo: "go-pkgz/auth",
    commit: "98b99d2bceef1ccb48265cc2a0af0a23020a848f",
    path: "middleware/auth.go",
    cls: "credential",
    split: "history6",
    note: "constant-time compare of the admin password (timing attack)",
  },
  {
    id: "saml-fix-inresponseto-bypass",
    repo: "node-saml/node-saml",
    commit: "c58d8681b29cd1a39b7967c2f1f8f9945fe3c3ca",
    path: "src/saml.ts",
    cls: "token",
    split: "history6",
    note: "prevent bypass of InResponseTo validation",
  },
  {
    id: "saml-GHSA-vx8m-logout-verify",
    repo: "node-saml/node-saml",
    commit: "045e3b9c54211fdb95f96edf363679845b195cec",
    path: "src/saml.ts",
    cls: "token",
    split: "history6",
    note: "GHSA-vx8m-6fhw-pccw: verify the logout request",
  },
  {
    id: "saml-GHSA-5p8w-root-signature",
    repo: "node-saml/node-saml",
    commit: "c1f275c289c01921e58f5c70ce0fdbc5287e5fbe",
    path: "src/saml.ts",
    cls: "token",
    split: "history6",
    note: "GHSA-5p8w-2mvw-38pv: top-level signature must cover the only root element",
  },
  {
    id: "jws-GHSA-869p-hmac-secret",
    repo: "auth0/node-jws",
    commit: "34c45b2c04434f925b638de6a061de9339c0ea2e",
    path: "lib/verify-stream.js",
    cls: "token",
    split: "history6",
    note: "GHSA-869p-cjfg-cm3x: require a non-empty secret for HMAC verification",
  },
];
