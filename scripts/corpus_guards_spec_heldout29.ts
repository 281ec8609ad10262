/**
 * Twenty-ninth held-out batch of the guard-removal corpus: removals written by reading the security
 * code of projects not otherwise used by the corpus, chosen the way a careless refactor or an
 * attacker would weaken them, before any measurement. Reversed fixes were picked by commit message
 * or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const AX = "yezz123/authx";
const PC = "casbin/pycasbin";
const ST = "supertokens/supertokens-python";
const STS = "supertokens_python/recipe/session/";
const LD = "sissbruecker/linkding";
const OA = "openauthjs/openauth";
const OAS = "packages/openauth/src/";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker("heldout29");

/** The twenty-ninth held-out batch of edits (split `heldout29`). */
export const EDITS_HELDOUT29: GuardEdit[] = [
  // ---- authx (Python)
  E(
    "ax-decode-no-exp",
    AX,
    "authx/token.py",
    "token",
    '            options={"verify_signature": verify},\n',
    '            options={"verify_signature": verify, "verify_exp": False},\n',
  ),
  E(
    "ax-verify-default-off",
    AX,
    "authx/token.py",
    "secure-default",
    "    issuer: Optional[str] = None,\n    verify: bool = True,\n    data: Optional[dict[str, Any]] = None,\n",
    "    issuer: Optional[str] = None,\n    verify: bool = False,\n    data: Optional[dict[str, Any]] = None,\n",
  ),
  E(
    "ax-no-scopes-passes",
    AX,
    "authx/_internal/_scopes.py",
    "authz",
    "    if provided is None:\n        return len(required) == 0\n",
    "    if provided is None:\n        return True\n",
  ),
  E(
    "ax-blocklist-not-consulted",
    AX,
    "authx/main.py",
    "authn-branch",
    '        if await self.is_token_in_blocklist(request_token.token):\n            raise RevokedTokenError("Token has been revoked", login_type=self.login_type)\n\n',
    "",
  ),
  E(
    "ax-csrf-compare-dropped",
    AX,
    "authx/schema.py",
    "token",
    '            if not compare_digest(self.csrf, payload.csrf):\n                raise CSRFError("CSRF token mismatch")\n',
    '            if not self.csrf:\n                raise CSRFError("CSRF token mismatch")\n',
  ),
  E(
    "ax-scope-check-removed",
    AX,
    "authx/main.py",
    "authz",
    "            if not has_required_scopes(required_scopes, payload.scopes, all_required=all_required):\n",
    "            if not has_required_scopes(required_scopes, payload.scopes, all_required=False):\n",
  ),
  E(
    "ax-cookie-secure-default-off",
    AX,
    "authx/config.py",
    "secure-default",
    "    JWT_COOKIE_SECURE: bool = True\n",
    "    JWT_COOKIE_SECURE: bool = False\n",
  ),
  // ---- pycasbin (Python)
  E(
    "pc-allow-and-deny-no-allow-needed",
    PC,
    "casbin/effect/default_effectors.py",
    "authz",
    "        if Effector.DENY in effects or Effector.ALLOW not in effects:\n",
    "        if Effector.DENY in effects:\n",
  ),
  E(
    "pc-priority-default-allow",
    PC,
    "casbin/effect/default_effectors.py",
    "authz",
    "        if Effector.DENY in effects:\n            return Effector.DENY\n        return Effector.DENY\n",
    "        if Effector.DENY in effects:\n            return Effector.DENY\n        return Effector.ALLOW\n",
  ),
  E(
    "pc-deny-effect-commented",
    PC,
    "casbin/core_enforcer.py",
    "authz",
    '                    elif "deny" == eft:\n                        policy_effects.add(Effector.DENY)\n',
    '                    # elif "deny" == eft:\n                    #     policy_effects.add(Effector.DENY)\n',
  ),
  E(
    "pc-keymatch2-unanchored",
    PC,
    "casbin/util/builtin_operators.py",
    "authz",
    '    if key2 == "*":\n        key2 = "(.*)"\n\n    return regex_match(key1, "^" + key2 + "$")\n',
    '    if key2 == "*":\n        key2 = "(.*)"\n\n    return regex_match(key1, key2)\n',
  ),
  // ---- supertokens-python (Python)
  E(
    "st-v3-signature-off",
    ST,
    STS + "access_token.py",
    "token",
    '                matching_keys[0].key,  # type: ignore\n                algorithms=[decode_algo],\n                options={"verify_signature": True, "verify_exp": True},\n',
    '                matching_keys[0].key,  # type: ignore\n                algorithms=[decode_algo],\n                options={"verify_signature": False, "verify_exp": True},\n',
  ),
  E(
    "st-expiry-check-deleted",
    ST,
    STS + "access_token.py",
    "token",
    '        if expiry_time < get_timestamp_ms():\n            raise Exception("Access token expired")\n\n',
    "",
  ),
  E(
    "st-anti-csrf-mismatch-ignored",
    ST,
    STS + "session_functions.py",
    "token",
    '                if (\n                    anti_csrf_token is None\n                    or anti_csrf_token != access_token_info["antiCsrfToken"]\n                ):\n',
    "                if anti_csrf_token is None:\n",
  ),
  E(
    "st-claims-not-asserted",
    ST,
    STS + "session_request_functions.py",
    "authz",
    "        await session.assert_claims(claim_validators, user_context)\n",
    "",
  ),
  E(
    "st-rid-header-optional",
    ST,
    STS + "session_request_functions.py",
    "authz",
    '            if get_rid_from_header(request) is None:\n                log_debug_message(\n                    "getSession: Returning TRY_REFRESH_TOKEN because custom header (rid) was not passed"\n                )\n                raise_try_refresh_token_exception(\n                    "anti-csrf check failed. Please pass \'rid: \\"session\\"\' header in the request, or set doAntiCsrfCheck to false for this API"\n                )\n',
    '            if get_rid_from_header(request) is None:\n                log_debug_message(\n                    "getSession: custom header (rid) was not passed"\n                )\n',
  ),
  E(
    "st-cookie-secure-default-off",
    ST,
    STS + "utils.py",
    "secure-default",
    '        if config.cookie_secure is not None\n        else app_info.api_domain.get_as_string_dangerous().startswith("https")\n',
    "        if config.cookie_secure is not None\n        else False\n",
  ),
  E(
    "st-fastapi-session-optional-default",
    ST,
    STS + "framework/fastapi/__init__.py",
    "secure-default",
    "    anti_csrf_check: Union[bool, None] = None,\n    session_required: bool = True,\n",
    "    anti_csrf_check: Union[bool, None] = None,\n    session_required: bool = False,\n",
  ),
  // ---- linkding (Python, Django)
  E(
    "ld-retrieve-allow-any",
    LD,
    "bookmarks/api/routes.py",
    "authz",
    '        if self.action == "shared":\n            return [AllowAny()]\n',
    '        if self.action in ("shared", "retrieve"):\n            return [AllowAny()]\n',
  ),
  E(
    "ld-single-entity-any-owner",
    LD,
    "bookmarks/api/routes.py",
    "authz",
    "        # For single entity actions return user owned bookmarks\n        return Bookmark.objects.all().filter(owner=user)\n",
    "        # For single entity actions return bookmarks\n        return Bookmark.objects.all()\n",
  ),
  E(
    "ld-edit-login-required-dropped",
    LD,
    "bookmarks/views/bookmarks.py",
    "authz",
    "@login_required\ndef edit(request: HttpRequest, bookmark_id: int):\n",
    "def edit(request: HttpRequest, bookmark_id: int):\n",
  ),
  E(
    "ld-shared-post-by-non-owner",
    LD,
    "bookmarks/views/access.py",
    "authz",
    '    if request.method == "POST" and not is_owner:\n        raise Http404("Bookmark does not exist")\n',
    "",
  ),
  E(
    "ld-oidc-verify-ssl-default-off",
    LD,
    "bookmarks/settings/base.py",
    "secure-default",
    '    OIDC_VERIFY_SSL = os.getenv("OIDC_VERIFY_SSL", True) in (True, "True", "true", "1")\n',
    '    OIDC_VERIFY_SSL = os.getenv("OIDC_VERIFY_SSL", False) in (True, "True", "true", "1")\n',
  ),
  // ---- openauth (TypeScript)
  E(
    "oa-login-hash-not-verified",
    OA,
    OAS + "provider/password.ts",
    "credential",
    "        if (!password || !hash || !(await hasher.verify(password, hash)))\n",
    "        if (!password || !hash)\n",
  ),
  E(
    "oa-change-code-not-checked",
    OA,
    OAS + "provider/password.ts",
    "authn-branch",
    '          const code = fd.get("code")?.toString()\n          if (!code || !timingSafeCompare(code, provider.code))\n            return transition(provider, { type: "invalid_code" })\n          return transition({\n            type: "update",\n',
    '          return transition({\n            type: "update",\n',
  ),
  E(
    "oa-scrypt-plain-compare",
    OA,
    OAS + "provider/password.ts",
    "credential",
    '      return timingSafeEqual(derivedKey, Buffer.from(compare.hash, "base64"))\n',
    '      return derivedKey.subarray(0, 8).equals(Buffer.from(compare.hash, "base64").subarray(0, 8))\n',
  ),
  E(
    "oa-code-client-binding-dropped",
    OA,
    OAS + "issuer.ts",
    "token",
    '        if (payload.clientID !== form.get("client_id")) {\n          return c.json(\n            {\n              error: "unauthorized_client",\n              error_description:\n                "Client is not authorized to use this authorization code",\n            },\n            403,\n          )\n        }\n',
    "",
  ),
  E(
    "oa-pkce-optional-verifier",
    OA,
    OAS + "issuer.ts",
    "token",
    "        if (payload.pkce) {\n",
    '        if (payload.pkce && form.get("code_verifier")) {\n',
  ),
  E(
    "oa-refresh-not-single-use",
    OA,
    OAS + "issuer.ts",
    "token",
    "          // no reuse interval, remove the refresh token immediately\n          await Storage.remove(storage, key)\n",
    "          // no reuse interval, remove the refresh token immediately\n          // await Storage.remove(storage, key)\n",
  ),
  E(
    "oa-allow-client-skipped",
    OA,
    OAS + "issuer.ts",
    "authz",
    "    if (\n      !(await allow()(\n        {\n          clientID: client_id,\n          redirectURI: redirect_uri,\n          audience,\n        },\n        c.req.raw,\n      ))\n    )\n      throw new UnauthorizedClientError(client_id, redirect_uri)\n",
    "",
  ),
  E(
    "oa-state-cookie-not-httponly",
    OA,
    OAS + "issuer.ts",
    "secure-default",
    "        maxAge,\n        httpOnly: true,\n",
    "        maxAge,\n        httpOnly: false,\n",
  ),
  E(
    "oa-client-verify-no-issuer",
    OA,
    OAS + "client.ts",
    "token",
    "        }>(token, jwks, {\n          issuer,\n        })\n",
    "        }>(token, jwks, {})\n",
  ),
];

/** Reversed real security fixes of the twenty-ninth batch (split `history29`), chosen by message only. */
export const REVERSED_FIXES_HISTORY29: ReversedFix[] = [];
