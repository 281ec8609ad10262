/**
 * Held-out batch 157 of the guard-removal corpus: removals written by reading the security code of
 * projects not otherwise used by the corpus (django-stronghold, django-login-required-middleware,
 * fastapi-permissions, flask-bcrypt, flask-jwt-simple, Flask-Authorize, django-session-security,
 * iron-webcrypto, passport.socketio, express-ipfilter), chosen the way a careless refactor or an
 * attacker would weaken them, before any measurement. Reversed fixes were picked by commit message
 * only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const SH = "mgrouchy/django-stronghold";
const SHM = "stronghold/middleware.py";
const SHC = "stronghold/conf.py";
const LR = "CleitonDeLima/django-login-required-middleware";
const LRM = "login_required/middleware.py";
const FP = "holgi/fastapi-permissions";
const FPI = "fastapi_permissions/__init__.py";
const FB = "maxcountryman/flask-bcrypt";
const FBP = "flask_bcrypt.py";
const FJ = "vimalloc/flask-jwt-simple";
const FJV = "flask_jwt_simple/view_decorators.py";
const FJU = "flask_jwt_simple/utils.py";
const FJM = "flask_jwt_simple/jwt_manager.py";
const IW = "brc-dd/iron-webcrypto";
const IWI = "src/index.ts";
const IWK = "src/keys.ts";
const PS = "jfromaniello/passport.socketio";
const PSI = "lib/index.js";

const FA = "bprinty/Flask-Authorize";
const FAP = "flask_authorize/plugin.py";
const SS = "yourlabs/django-session-security";
const SSM = "session_security/middleware.py";
const SSS = "session_security/settings.py";
const IF = "jetersen/express-ipfilter";
const IFL = "lib/ipfilter.js";
const GA = "grand-stack/graphql-auth-directives";
const GAI = "src/index.js";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker("heldout157");

/** Held-out batch 157 of edits (split `heldout157`). */
export const EDITS_HELDOUT157: GuardEdit[] = [
  // ---- django-stronghold (Python)
  E(
    "sh-user-test-dropped",
    SH,
    SHM,
    "authn-branch",
    "            or conf.STRONGHOLD_USER_TEST_FUNC(request.user)\n            and conf.STRONGHOLD_REQUEST_TEST_FUNC(request, view_func, view_args, view_kwargs)\n",
    "            or conf.STRONGHOLD_REQUEST_TEST_FUNC(request, view_func, view_args, view_kwargs)\n",
  ),
  E(
    "sh-deny-path-returns-none",
    SH,
    SHM,
    "authz",
    "        decorator = user_passes_test(conf.STRONGHOLD_USER_TEST_FUNC)\n        return decorator(view_func)(request, *view_args, **view_kwargs)\n",
    "        return None\n",
  ),
  E(
    "sh-is-authenticated-typeerror-true",
    SH,
    SHC,
    "authn-branch",
    "    except TypeError:\n        return user.is_authenticated\n",
    "    except TypeError:\n        return True\n",
  ),
  E(
    "sh-public-default-true",
    SH,
    "stronghold/utils.py",
    "authz",
    '    return getattr(func, "STRONGHOLD_IS_PUBLIC", False)\n',
    '    return getattr(func, "STRONGHOLD_IS_PUBLIC", True)\n',
  ),
  E(
    "sh-media-public-always",
    SH,
    SHC,
    "secure-default",
    "    if settings.DEBUG:\n        # In Debug mode",
    "    if True:\n        # In Debug mode",
  ),
  // ---- django-login-required-middleware (Python)
  E(
    "lr-unresolved-path-allowed",
    LR,
    LRM,
    "authn-branch",
    "        except Http404:\n            return redirect_to_login(request.get_full_path())\n",
    "        except Http404:\n            return None\n",
  ),
  E(
    "lr-view-default-public",
    LR,
    LRM,
    "authz",
    '        if not getattr(view_func, "login_required", True):\n',
    '        if not getattr(view_func, "login_required", False):\n',
  ),
  E(
    "lr-final-redirect-removed",
    LR,
    LRM,
    "authn-branch",
    "        return redirect_to_login(request.get_full_path(), redirect_field_name=REDIRECT_FIELD_NAME)\n",
    "        return None\n",
  ),
  // ---- fastapi-permissions (Python)
  E(
    "fp-dependency-no-raise",
    FP,
    FPI,
    "authz",
    "        if has_permission(principals, permission, resource):\n            return resource\n        raise permission_exception\n",
    "        has_permission(principals, permission, resource)\n        return resource\n",
  ),
  E(
    "fp-deny-entries-grant",
    FP,
    FPI,
    "authz",
    "            if principal in user_principals:\n                return action == Allow\n",
    "            if principal in user_principals:\n                return True\n",
  ),
  E(
    "fp-principal-check-dropped",
    FP,
    FPI,
    "authz",
    "        if requested_permission in permissions:\n            if principal in user_principals:\n                return action == Allow\n",
    "        if requested_permission in permissions:\n            return action == Allow\n",
  ),
  // ---- flask-bcrypt (Python)
  E(
    "fb-compare-plain-eq",
    FB,
    FBP,
    "credential",
    "        return hmac.compare_digest(bcrypt.hashpw(password, pw_hash), pw_hash)\n",
    "        return bcrypt.hashpw(password, pw_hash) == pw_hash or password == pw_hash\n",
  ),
  E(
    "fb-check-returns-true",
    FB,
    FBP,
    "credential",
    "    return Bcrypt().check_password_hash(pw_hash, password)\n",
    "    Bcrypt().check_password_hash(pw_hash, password)\n    return True\n",
  ),
  E(
    "fb-empty-password-allowed",
    FB,
    FBP,
    "credential",
    "        if not password:\n            raise ValueError('Password must be non-empty.')\n\n",
    "",
  ),
  E(
    "fb-rounds-default-low",
    FB,
    FBP,
    "secure-default",
    "        self._log_rounds = app.config.get('BCRYPT_LOG_ROUNDS', 12)\n",
    "        self._log_rounds = app.config.get('BCRYPT_LOG_ROUNDS', 4)\n",
  ),
  E(
    "fb-hash-equals-password",
    FB,
    FBP,
    "credential",
    "        pw_hash = self._unicode_to_bytes(pw_hash)\n        password = self._unicode_to_bytes(password)\n",
    "        pw_hash = self._unicode_to_bytes(pw_hash)\n        password = self._unicode_to_bytes(password)\n        if password == pw_hash:\n            return True\n",
  ),
  // ---- flask-jwt-simple (Python)
  E(
    "fj-secret-key-fallback",
    FJ,
    "flask_jwt_simple/config.py",
    "credential",
    "        key = current_app.config['JWT_SECRET_KEY']\n        if not key:\n            raise RuntimeError('JWT_SECRET_KEY must be set to use '\n                               'symmetric cryptography algorithm '\n                               '\"{}\"'.format(self.algorithm))\n        return key\n",
    "        key = current_app.config['JWT_SECRET_KEY'] or current_app.config.get('SECRET_KEY', 'dev')\n        return key\n",
  ),
  E(
    "fj-required-decode-skipped",
    FJ,
    FJV,
    "token",
    "        jwt_data = _decode_jwt_from_headers()\n        ctx_stack.top.jwt = jwt_data\n        return fn(*args, **kwargs)\n",
    "        try:\n            jwt_data = _decode_jwt_from_headers()\n            ctx_stack.top.jwt = jwt_data\n        except Exception:\n            pass\n        return fn(*args, **kwargs)\n",
  ),
  E(
    "fj-missing-header-ok",
    FJ,
    FJV,
    "authn-branch",
    '    if not jwt_header:\n        raise NoAuthorizationError("Missing {} Header".format(header_name))\n',
    "    if not jwt_header:\n        return {}\n",
  ),
  E(
    "fj-decode-no-verify",
    FJ,
    FJU,
    "token",
    "    return jwt.decode(encoded_token, secret, algorithms=[algorithm], audience=audience)\n",
    '    return jwt.decode(encoded_token, secret, algorithms=[algorithm], audience=audience, options={"verify_signature": False})\n',
  ),
  E(
    "fj-audience-dropped",
    FJ,
    FJU,
    "token",
    "    audience = config.audience\n    return jwt.decode(encoded_token, secret, algorithms=[algorithm], audience=audience)\n",
    '    return jwt.decode(encoded_token, secret, algorithms=[algorithm], options={"verify_aud": False})\n',
  ),
  E(
    "fj-algorithms-any",
    FJ,
    FJU,
    "token",
    "    algorithm = config.algorithm\n    audience = config.audience\n    return jwt.decode(encoded_token, secret, algorithms=[algorithm], audience=audience)\n",
    '    audience = config.audience\n    return jwt.decode(encoded_token, secret, algorithms=["HS256", "none"], audience=audience)\n',
  ),
  E(
    "fj-header-type-unchecked",
    FJ,
    FJV,
    "authn-branch",
    "        if parts[0] != header_type or len(parts) != 2:\n",
    "        if len(parts) < 2:\n",
  ),
  // ---- iron-webcrypto (TS)
  E(
    "iw-hmac-result-ignored",
    IW,
    IWI,
    "token",
    "  if (!verify) throw new Error('Bad hmac value')\n",
    "",
  ),
  E(
    "iw-expiry-check-removed",
    IW,
    IWI,
    "token",
    "    if (exp <= now - options.timestampSkewSec * 1000) throw new Error('Expired seal')\n",
    "",
  ),
  E(
    "iw-prefix-not-checked",
    IW,
    IWI,
    "token",
    "  if (prefix !== macPrefix) throw new Error('Wrong mac prefix')\n",
    "  if (prefix !== macPrefix) console.warn('Unexpected mac prefix', prefix)\n",
  ),
  E(
    "iw-min-password-length-low",
    IW,
    IWI,
    "secure-default",
    "    iterations: 1,\n    minPasswordLength: 32,\n  }),\n\n  integrity",
    "    iterations: 1,\n    minPasswordLength: 8,\n  }),\n\n  integrity",
  ),
  E(
    "iw-password-size-skipped",
    IW,
    IWK,
    "credential",
    "  validatePasswordSize(encryption, encIsString, encOptions.minPasswordLength, encAlg.keyBits)\n  validatePasswordSize(integrity, intIsString, intOptions.minPasswordLength, intAlg.keyBits)\n",
    "  validatePasswordSize(encryption, encIsString, encOptions.minPasswordLength, encAlg.keyBits)\n",
  ),
  E(
    "iw-key-buffer-size-unchecked",
    IW,
    IWK,
    "credential",
    "  } else if ((password as Uint8Array).length < keyBits / 8) {\n    throw new Error('Key buffer (password) too small')\n  }\n",
    "  }\n",
  ),
  E(
    "iw-empty-password-accepted",
    IW,
    IWI,
    "credential",
    "  if (\n    !normalized ||\n    !normalized.encryption || normalized.encryption.length === 0 ||\n    !normalized.integrity || normalized.integrity.length === 0\n  ) throw new Error('Empty password')\n",
    "  if (!normalized) throw new Error('Empty password')\n",
  ),
  E(
    "iw-skew-default-hour",
    IW,
    IWI,
    "secure-default",
    "  timestampSkewSec: 60,\n",
    "  timestampSkewSec: 3600,\n",
  ),
  // ---- passport.socketio (JS)
  E(
    "ps-no-session-accepted",
    PS,
    PSI,
    "authn-branch",
    "      if(!session)\n        return auth.fail(data, 'No session found', false, accept);\n",
    "",
  ),
  E(
    "ps-user-not-found-accepted",
    PS,
    PSI,
    "authn-branch",
    '        if (!user)\n          return auth.fail(data, "User not found", false, accept);\n',
    "        if (!user)\n          user = {};\n",
  ),
  E(
    "ps-user-key-missing-accepted",
    PS,
    PSI,
    "authn-branch",
    "      if(typeof(userKey) === 'undefined')\n        return auth.fail(data, 'User not authorized through passport. (User Property not found)', false, accept);\n",
    "",
  ),
  E(
    "ps-fail-accepts-v1",
    PS,
    PSI,
    "authz",
    "      if (data.socketio_version_1) {\n        accept(new Error(message));\n      } else {\n        accept(null, false);\n      }\n",
    "      if (data.socketio_version_1) {\n        accept();\n      } else {\n        accept(null, !critical);\n      }\n",
  ),
  E(
    "fj-expires-default-long",
    FJ,
    FJM,
    "token",
    "        app.config.setdefault('JWT_EXPIRES', datetime.timedelta(hours=1))\n",
    "        app.config.setdefault('JWT_EXPIRES', datetime.timedelta(days=3650))\n",
  ),
  E(
    "fj-default-claims-no-exp",
    FJ,
    "flask_jwt_simple/default_callbacks.py",
    "token",
    "        'exp': now + config.jwt_expires,\n",
    "",
  ),
  // ---- Flask-Authorize (Python)
  E(
    "fa-decorator-result-ignored",
    FA,
    FAP,
    "authz",
    "            if not auth.allowed(*check):\n                raise EXCEPTION\n",
    "            auth.allowed(*check)\n",
  ),
  E(
    "fa-anonymous-default-allowed",
    FA,
    FAP,
    "secure-default",
    "        app.config.setdefault('AUTHORIZE_ALLOW_ANONYMOUS_ACTIONS', False)\n",
    "        app.config.setdefault('AUTHORIZE_ALLOW_ANONYMOUS_ACTIONS', True)\n",
  ),
  E(
    "fa-anonymous-branch-deleted",
    FA,
    FAP,
    "authn-branch",
    '        if user is None:\n            if not current_app.config["AUTHORIZE_ALLOW_ANONYMOUS_ACTIONS"]:\n                return False\n',
    "",
  ),
  E(
    "fa-permission-any-overlap",
    FA,
    FAP,
    "authz",
    "    return len(x) == len(expected)\n",
    "    return len(x) > 0\n",
  ),
  E(
    "fa-restriction-check-removed",
    FA,
    FAP,
    "authz",
    "            if user_is_restricted(user, operation, arg):\n                return False\n",
    "",
  ),
  E(
    "fa-owner-comparison-dropped",
    FA,
    FAP,
    "authz",
    "                if arg.owner == user:\n",
    "                if arg.owner is not None:\n",
  ),
  // ---- django-session-security (Python)
  E(
    "ss-expired-no-logout",
    SS,
    SSM,
    "authn-branch",
    "        if delta >= timedelta(seconds=expire_seconds):\n            self.do_logout(request)\n",
    "        if delta >= timedelta(seconds=expire_seconds):\n            # self.do_logout(request)\n            set_last_activity(request.session, now)\n",
  ),
  E(
    "ss-expire-default-month",
    SS,
    SSS,
    "secure-default",
    "EXPIRE_AFTER = getattr(settings, 'SESSION_SECURITY_EXPIRE_AFTER', 600)\n",
    "EXPIRE_AFTER = getattr(settings, 'SESSION_SECURITY_EXPIRE_AFTER', 60 * 60 * 24 * 30)\n",
  ),
  E(
    "ss-insecure-default-true",
    SS,
    SSS,
    "secure-default",
    "    'SESSION_SECURITY_INSECURE',\n    False\n",
    "    'SESSION_SECURITY_INSECURE',\n    True\n",
  ),
  E(
    "ss-negative-idle-allowed",
    SS,
    SSM,
    "authn-branch",
    "        if client_idle_for < 0:\n            client_idle_for = 0\n",
    "",
  ),
  // ---- express-ipfilter (JS)
  E(
    "if-deny-mode-some",
    IF,
    IFL,
    "authz",
    "      return result.every((r) => r)\n",
    "      return result.some((r) => r)\n",
  ),
  E(
    "if-empty-allow-list-open",
    IF,
    IFL,
    "authz",
    "        return error('0.0.0.0/0', next)\n",
    "        return next()\n",
  ),
  E(
    "if-trust-proxy-default",
    IF,
    IFL,
    "secure-default",
    "    trustProxy: false, // This is the default used by express.\n",
    "    trustProxy: true,\n",
  ),
  E(
    "if-deny-logs-only",
    IF,
    IFL,
    "authz",
    "      settings.logF('Access denied to IP address: ' + ip)\n    }\n\n    return error(ip, next)\n",
    "      settings.logF('Access denied to IP address: ' + ip)\n    }\n\n    return next()\n",
  ),
  // ---- graphql-auth-directives (JS)
  E(
    "ga-no-verify-without-secret",
    GA,
    GAI,
    "token",
    "    if (!JWT_SECRET && JWT_NO_VERIFY) {\n",
    "    if (!JWT_SECRET || JWT_NO_VERIFY) {\n",
  ),
  E(
    "ga-algorithms-dropped",
    GA,
    GAI,
    "token",
    '      return jwt.verify(id_token, JWT_SECRET, {\n        algorithms: ["HS256", "RS256"]\n      });\n',
    "      return jwt.verify(id_token, JWT_SECRET);\n",
  ),
  E(
    "ga-expired-token-decoded",
    GA,
    GAI,
    "token",
    '    if (err.name === "TokenExpiredError") {\n      throw new AuthorizationError({\n        message: "Your token is expired"\n      });\n',
    '    if (err.name === "TokenExpiredError") {\n      return jwt.decode(token.replace("Bearer ", ""));\n',
  ),
  E(
    "ga-scope-field-falls-through",
    GA,
    GAI,
    "authz",
    '      throw new AuthorizationError({\n        message: "You are not authorized for this resource"\n      });\n    };\n  }\n\n  visitObject(obj) {\n    const fields = obj.getFields();\n    const expectedScopes',
    "      return next(result, args, { ...context, user: decoded }, info);\n    };\n  }\n\n  visitObject(obj) {\n    const fields = obj.getFields();\n    const expectedScopes",
  ),
  E(
    "ga-role-object-any-role",
    GA,
    GAI,
    "authz",
    "        if (expectedRoles.some(role => roles.indexOf(role) !== -1)) {\n",
    "        if (expectedRoles.length === 0 || roles.length > 0) {\n",
  ),
  E(
    "ga-authenticated-object-swallow",
    GA,
    GAI,
    "authn-branch",
    "        const decoded = verifyAndDecodeToken({ context }); // will throw error if not valid signed jwt\n",
    "        let decoded = {};\n        try {\n          decoded = verifyAndDecodeToken({ context }); // will throw error if not valid signed jwt\n        } catch (e) {\n          console.warn(e.message);\n        }\n",
  ),
  E(
    "fj-optional-swallows-invalid",
    FJ,
    FJV,
    "token",
    "        except (NoAuthorizationError, InvalidHeaderError):\n            pass\n",
    "        except Exception:\n            pass\n",
  ),
  E(
    "fj-public-key-falls-back-to-secret",
    FJ,
    "flask_jwt_simple/config.py",
    "token",
    "        key = current_app.config['JWT_PUBLIC_KEY']\n        if not key:\n            raise RuntimeError('JWT_PUBLIC_KEY must be set to use '\n                               'asymmetric cryptography algorithm '\n                               '\"{}\"'.format(self.algorithm))\n        return key\n",
    "        key = current_app.config['JWT_PUBLIC_KEY'] or current_app.config['JWT_SECRET_KEY']\n        return key\n",
  ),
  E(
    "iw-expiration-format-unchecked",
    IW,
    IWI,
    "token",
    "    if (!/^[1-9]\\d*$/.test(expiration)) throw new Error('Invalid expiration')\n",
    "",
  ),
  E(
    "iw-salt-bits-low",
    IW,
    IWI,
    "secure-default",
    "    algorithm: 'aes-256-cbc',\n    saltBits: 256,\n",
    "    algorithm: 'aes-256-cbc',\n    saltBits: 16,\n",
  ),
  E(
    "ss-browser-close-assumed",
    SS,
    SSS,
    "secure-default",
    "    'SESSION_EXPIRE_AT_BROWSER_CLOSE',\n    False\n",
    "    'SESSION_EXPIRE_AT_BROWSER_CLOSE',\n    True\n",
  ),
];

/** Held-out batch 157 of reversed real fixes (split `history157`). */
export const REVERSED_FIXES_HISTORY157: ReversedFix[] = [
  {
    id: "ps-security-issue",
    repo: PS,
    commit: "599a614",
    path: PSI,
    cls: "authn-branch",
    note: "fixed a security issue",
    split: "history157",
  },
  {
    id: "fb-timing-attack-compare",
    repo: FB,
    commit: "bf3b2ca",
    path: "flaskext/bcrypt.py",
    cls: "credential",
    note: "timing-attack resistant hash comparison",
    split: "history157",
  },
  {
    id: "fa-anonymous-actions",
    repo: FA,
    commit: "d30e33d",
    path: FAP,
    cls: "authz",
    note: "anonymous authorization logic properly accounts for ANONYMOUS_ACTIONS flag (GH-44)",
    split: "history157",
  },
  {
    id: "fa-query-mixin-anonymous",
    repo: FA,
    commit: "e04f692",
    path: "flask_authorize/mixins.py",
    cls: "authz",
    note: "query mixin accounts for anonymous users",
    split: "history157",
  },
  {
    id: "ss-require-expire-at-browser-close",
    repo: SS,
    commit: "161788f",
    path: SSS,
    cls: "secure-default",
    note: "require SESSION_EXPIRE_AT_BROWSER_CLOSE unless SESSION_SECURITY_INSECURE",
    split: "history157",
  },
  {
    id: "ss-expiry-before-idlefor",
    repo: SS,
    commit: "52d5319",
    path: SSM,
    cls: "authn-branch",
    note: "check expiry before using idleFor to update the last activity",
    split: "history157",
  },
];
