/**
 * Thirteenth held-out batch of the guard-removal corpus: removals written by reading the security
 * code of projects not otherwise used by the corpus (microsoft-authentication-library-for-python, pysaml2, auth0-python, httplib2, python-keycloak, okta-jwt-verifier-python), chosen the way a careless refactor
 * or an attacker would weaken them, before any measurement. Reversed fixes were picked by commit
 * message or advisory only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";

const H13 = "heldout13" as const;
const R_AUTH0_PYTHON = "auth0/auth0-python";
const R_MICROSOFT_AUTHENTICATION_LIBRARY_FOR_PYTHON =
  "AzureAD/microsoft-authentication-library-for-python";
const R_OKTA_JWT_VERIFIER_PYTHON = "okta/okta-jwt-verifier-python";
const R_PYTHON_KEYCLOAK = "marcospereirampj/python-keycloak";
const R_PYSAML2 = "IdentityPython/pysaml2";
const R_HTTPLIB2 = "httplib2/httplib2";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
function E(
  id: string,
  repo: string,
  path: string,
  cls: GuardEdit["cls"],
  find: string,
  replace: string,
): GuardEdit {
  return { id, repo, path, cls, split: H13, find, replace };
}

/** The thirteenth held-out batch of edits (split `heldout13`). */
export const EDITS_HELDOUT13: GuardEdit[] = [
  // ---- auth0/auth0-python
  E(
    "a0py-signature-check-off",
    R_AUTH0_PYTHON,
    "src/auth0/authentication/token_verifier.py",
    "token",
    '        "verify_signature": True,\n',
    '        "verify_signature": False,\n',
  ),
  E(
    "a0py-issuer-mismatch-dropped",
    R_AUTH0_PYTHON,
    "src/auth0/authentication/token_verifier.py",
    "token",
    '        if payload["iss"] != self.iss:\n            raise TokenValidationError(\n                \'Issuer (iss) claim mismatch in the ID token; expected "{}", \'\n                \'found "{}"\'.format(self.iss, payload["iss"])\n            )\n\n',
    "",
  ),
  E(
    "a0py-expired-token-accepted",
    R_AUTH0_PYTHON,
    "src/auth0/authentication/token_verifier.py",
    "token",
    '        exp_time = payload["exp"] + leeway\n        if now > exp_time:\n            raise TokenValidationError(\n                "Expiration Time (exp) claim error in the ID token; current time ({})"\n                " is after expiration time ({})".format(now, exp_time)\n            )\n',
    '        exp_time = payload["exp"] + leeway\n',
  ),
  E(
    "a0py-nonce-only-if-present",
    R_AUTH0_PYTHON,
    "src/auth0/authentication/token_verifier.py",
    "token",
    "        # Nonce\n        if nonce:\n",
    '        # Nonce\n        if nonce and "nonce" in payload:\n',
  ),
  E(
    "a0py-org-name-not-compared",
    R_AUTH0_PYTHON,
    "src/auth0/authentication/token_verifier.py",
    "authz",
    '                if payload["org_name"] != organization.lower():\n                    raise TokenValidationError(\n                        "Organization (org_name) claim mismatch in the ID token; expected"\n                        \' "{}", found "{}"\'.format(organization, payload["org_name"])\n                    )\n',
    '                if payload["org_name"] != organization.lower():\n                    pass\n',
  ),
  E(
    "a0py-unexpected-alg-allowed",
    R_AUTH0_PYTHON,
    "src/auth0/authentication/token_verifier.py",
    "token",
    '        alg = header.get("alg", None)\n        if alg != self._algorithm:\n',
    '        alg = header.get("alg", None)\n        if alg is None:\n',
  ),
  // ---- AzureAD/microsoft-authentication-library-for-python
  E(
    "msal-issuer-prefix-match",
    R_MICROSOFT_AUTHENTICATION_LIBRARY_FOR_PYTHON,
    "msal/oauth2cli/oidc.py",
    "token",
    '    if issuer and issuer != decoded["iss"]:\n',
    '    if issuer and not decoded["iss"].startswith(issuer.rstrip("/").rsplit("/", 1)[0]):\n',
  ),
  E(
    "msal-audience-only-logged",
    R_MICROSOFT_AUTHENTICATION_LIBRARY_FOR_PYTHON,
    "msal/oauth2cli/oidc.py",
    "token",
    '        if not valid_aud:\n            raise IdTokenAudienceError(\n                "3. The aud (audience) claim must contain this client\'s client_id "\n                \'"%s", case-sensitively. Was your client_id in wrong casing?\'\n                # Some IdP accepts wrong casing request but issues right casing IDT\n                % client_id,\n                _now,\n                decoded)\n',
    '        if not valid_aud:\n            logger.warning(\n                "3. The aud (audience) claim must contain this client\'s client_id "\n                \'"%s", case-sensitively. Was your client_id in wrong casing?\'\n                # Some IdP accepts wrong casing request but issues right casing IDT\n                % client_id)\n',
  ),
  E(
    "msal-flow-nonce-missing-ok",
    R_MICROSOFT_AUTHENTICATION_LIBRARY_FOR_PYTHON,
    "msal/oauth2cli/oidc.py",
    "token",
    "            if nonce_in_id_token != expected_hash:\n",
    "            if nonce_in_id_token and nonce_in_id_token != expected_hash:\n",
  ),
  E(
    "msal-auth-time-required-dropped",
    R_MICROSOFT_AUTHENTICATION_LIBRARY_FOR_PYTHON,
    "msal/oauth2cli/oidc.py",
    "authn-branch",
    '                auth_time = result.get("id_token_claims", {}).get("auth_time")\n                if not auth_time:\n                    raise RuntimeError(\n                        "13. max_age was requested, ID token should contain auth_time")\n                now = int(time.time())\n',
    '                auth_time = result.get("id_token_claims", {}).get("auth_time") or int(time.time())\n                now = int(time.time())\n',
  ),
  E(
    "msal-state-mismatch-ignored",
    R_MICROSOFT_AUTHENTICATION_LIBRARY_FOR_PYTHON,
    "msal/oauth2cli/oauth2.py",
    "token",
    '        if auth_code_flow.get("state") != auth_response.get("state"):\n            raise ValueError("state mismatch: {} vs {}".format(\n                auth_code_flow.get("state"), auth_response.get("state")))\n',
    '        if auth_code_flow.get("state") != auth_response.get("state"):\n            self.logger.debug("state mismatch: {} vs {}".format(\n                auth_code_flow.get("state"), auth_response.get("state")))\n',
  ),
  E(
    "msal-session-verify-off",
    R_MICROSOFT_AUTHENTICATION_LIBRARY_FOR_PYTHON,
    "msal/oauth2cli/oauth2.py",
    "secure-default",
    "            self._http_client.verify = True if verify is None else verify\n",
    "            self._http_client.verify = False if verify is None else verify\n",
  ),
  E(
    "msal-app-verify-default-off",
    R_MICROSOFT_AUTHENTICATION_LIBRARY_FOR_PYTHON,
    "msal/application.py",
    "secure-default",
    "            verify=True, proxies=None, timeout=None,\n",
    "            verify=False, proxies=None, timeout=None,\n",
  ),
  // ---- okta/okta-jwt-verifier-python
  E(
    "okta-access-signature-commented",
    R_OKTA_JWT_VERIFIER_PYTHON,
    "okta_jwt_verifier/jwt_verifier.py",
    "token",
    "            self.verify_signature(token, okta_jwk)\n        except JWTValidationException:\n",
    "            # self.verify_signature(token, okta_jwk)\n        except JWTValidationException:\n",
  ),
  E(
    "okta-id-client-id-unchecked",
    R_OKTA_JWT_VERIFIER_PYTHON,
    "okta_jwt_verifier/jwt_verifier.py",
    "token",
    "            # verify client_id and nonce\n            self.verify_client_id(claims['aud'])\n            if 'nonce' in claims",
    "            # verify nonce\n            if 'nonce' in claims",
  ),
  E(
    "okta-alg-from-header",
    R_OKTA_JWT_VERIFIER_PYTHON,
    "okta_jwt_verifier/jwt_utils.py",
    "token",
    "                              algorithms=['RS256'])\n",
    "                              algorithms=[header.get('alg', 'RS256') for header in (headers,)])\n",
  ),
  E(
    "okta-expired-swallowed",
    R_OKTA_JWT_VERIFIER_PYTHON,
    "okta_jwt_verifier/jwt_utils.py",
    "token",
    "        except ExpiredSignatureError:\n            raise JWTValidationException('Signature has expired.')\n",
    "        except ExpiredSignatureError:\n            pass\n",
  ),
  E(
    "okta-unknown-kid-first-key",
    R_OKTA_JWT_VERIFIER_PYTHON,
    "okta_jwt_verifier/jwt_verifier.py",
    "token",
    "        if not okta_jwk:\n            raise JWKException('No matching JWK.')\n        return okta_jwk\n",
    "        if not okta_jwk and jwks.get('keys'):\n            okta_jwk = jwks['keys'][0]\n        return okta_jwk\n",
  ),
  // ---- marcospereirampj/python-keycloak
  E(
    "kc-decode-token-validate-default-off",
    R_PYTHON_KEYCLOAK,
    "src/keycloak/keycloak_openid.py",
    "secure-default",
    "    def decode_token(self, token: str, validate: bool = True, **kwargs: Any) -> dict:  # noqa: ANN401\n",
    "    def decode_token(self, token: str, validate: bool = False, **kwargs: Any) -> dict:  # noqa: ANN401\n",
  ),
  E(
    "kc-expired-jwt-tolerated",
    R_PYTHON_KEYCLOAK,
    "src/keycloak/keycloak_openid.py",
    "token",
    "            full_jwt.leeway = leeway\n            full_jwt.validate(key)\n",
    '            full_jwt.leeway = leeway\n            try:\n                full_jwt.validate(key)\n            except jwt.JWTExpired:\n                full_jwt.token.objects["valid"] = True\n',
  ),
  E(
    "kc-uma-any-grant-authorizes",
    R_PYTHON_KEYCLOAK,
    "src/keycloak/keycloak_openid.py",
    "authz",
    "            is_authorized=len(needed) == 0,\n            missing_permissions=needed,\n        )\n\n    def register_client(",
    "            is_authorized=len(granted) > 0,\n            missing_permissions=needed,\n        )\n\n    def register_client(",
  ),
  E(
    "kc-inactive-token-permissions",
    R_PYTHON_KEYCLOAK,
    "src/keycloak/keycloak_openid.py",
    "authn-branch",
    '        token_info = self._token_info(token, method_token_info, **kwargs)\n\n        if method_token_info == "introspect" and not token_info["active"]:  # noqa: S105\n            msg = "Token expired or invalid."\n            raise KeycloakInvalidTokenError(msg)\n\n        user_resources = token_info["resource_access"].get(self.client_id)\n\n        if not user_resources:\n            return None\n\n        permissions = []\n',
    '        token_info = self._token_info(token, method_token_info, **kwargs)\n\n        user_resources = token_info["resource_access"].get(self.client_id)\n\n        if not user_resources:\n            return None\n\n        permissions = []\n',
  ),
  E(
    "kc-connection-verify-default-off",
    R_PYTHON_KEYCLOAK,
    "src/keycloak/connection.py",
    "secure-default",
    "        verify: bool | str = True,\n",
    "        verify: bool | str = False,\n",
  ),
  // ---- IdentityPython/pysaml2
  E(
    "saml-assertion-signature-error-logged",
    R_PYSAML2,
    "src/saml2/response.py",
    "token",
    '                except Exception as exc:\n                    logger.error("The signature on the assertion cannot be verified.")\n                    logger.debug("correctly_signed_response: %s", exc)\n                    raise\n',
    '                except Exception as exc:\n                    logger.error("The signature on the assertion cannot be verified.")\n                    logger.debug("correctly_signed_response: %s", exc)\n',
  ),
  E(
    "saml-conditions-lax-default",
    R_PYSAML2,
    "src/saml2/response.py",
    "secure-default",
    "    def condition_ok(self, lax=False):\n",
    "    def condition_ok(self, lax=True):\n",
  ),
  E(
    "saml-recipient-optional",
    R_PYSAML2,
    "src/saml2/response.py",
    "authn-branch",
    "            if not _recip or not self.verify_recipient(_recip):\n",
    "            if _recip and not self.verify_recipient(_recip):\n",
  ),
  E(
    "saml-unsolicited-response-accepted",
    R_PYSAML2,
    "src/saml2/response.py",
    "authn-branch",
    '            elif self.allow_unsolicited:\n                # Should check that I haven\'t seen this before\n                pass\n            else:\n                raise UnsolicitedResponse(f"Unsolicited response: {self.in_response_to}")\n',
    '            else:\n                # Should check that I haven\'t seen this before\n                logger.info("Unsolicited response: %s", self.in_response_to)\n',
  ),
  E(
    "saml-no-subject-confirmation-ok",
    R_PYSAML2,
    "src/saml2/response.py",
    "authn-branch",
    '        if not subjconf:\n            raise VerificationError("No valid subject confirmation")\n\n        subject.subject_confirmation = subjconf\n',
    "        subject.subject_confirmation = subjconf\n",
  ),
  // ---- httplib2/httplib2
  E(
    "h2-cert-optional",
    R_HTTPLIB2,
    "httplib2/__init__.py",
    "secure-default",
    "    context.verify_mode = ssl.CERT_NONE if disable_ssl_certificate_validation else ssl.CERT_REQUIRED\n",
    "    context.verify_mode = ssl.CERT_NONE if disable_ssl_certificate_validation else ssl.CERT_OPTIONAL\n",
  ),
  E(
    "h2-hostname-check-off",
    R_HTTPLIB2,
    "httplib2/__init__.py",
    "secure-default",
    '    if hasattr(context, "check_hostname"):\n        context.check_hostname = not disable_ssl_certificate_validation\n\n    if not disable_ssl_certificate_validation:\n',
    '    if hasattr(context, "check_hostname"):\n        context.check_hostname = False\n\n    if not disable_ssl_certificate_validation:\n',
  ),
  E(
    "h2-forward-authorization-default",
    R_HTTPLIB2,
    "httplib2/__init__.py",
    "secure-default",
    "        self.forward_authorization_headers = False\n",
    "        self.forward_authorization_headers = True\n",
  ),
  E(
    "h2-auth-scope-any-host",
    R_HTTPLIB2,
    "httplib2/__init__.py",
    "secure-default",
    "        return (host == self.host) and path.startswith(self.path)\n",
    "        return path.startswith(self.path)\n",
  ),
];

/** Real security fixes of these projects, reversed (split `history13`). */
export const REVERSED_FIXES_HISTORY13: ReversedFix[] = [];
