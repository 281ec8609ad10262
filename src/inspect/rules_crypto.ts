/**
 * `crypto-verification-removed`: signature and token verification, constant-time comparisons,
 * certificate pinning and explicit verification settings, counted per file; fires when the count
 * drops. `crypto-verification-disabled`: text that switches a verification off, fires on a rise.
 *
 * @module
 */
import { byLang, type Lang, type Rule } from "./rule_types.ts";
import { definitionSpans } from "./count.ts";

/** Names of functions that implement a verification or a comparison. */
const VERIFIER_NAME = /verif|compar|cmp|equal/i;

const PAY_PY = `import hmac, hashlib

def handle(request, secret):
    sig = hmac.new(secret, request.body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(sig, request.headers["X-Signature"]):
        raise PermissionError("bad signature")
    return process(request.json())
`;

const JWT_JS = `import jwt from "jsonwebtoken";

export function user(req) {
  const claims = jwt.verify(req.headers.authorization.slice(7), KEY, { algorithms: ["RS256"] });
  return claims.sub;
}
`;

/** Verification calls and settings, per language. */
const countVerification = byLang({
  python: [
    /\b(?:hmac|secrets)\.compare_digest\s*\(/g,
    /\bjwt\.decode\s*\(/g, // PyJWT verifies in decode; removing it removes the check
    /\b\w*verify_(?:signature|token|jwt|webhook|hmac|request)\w*\s*\(/g,
    /\._*verify\s*\(/g, // cryptography / nacl / itsdangerous signature checks (and private renames)
    /\bverify\s*=\s*True\b/g,
    /\b(?:ssl\.)?CERT_REQUIRED\b/g,
    /\bcheck_hostname\s*=\s*True\b/g,
    /\bconstant_time\.bytes_eq\s*\(/g,
    /\bload_verify_locations\s*\(/g,
    /\bWebhook\.construct_event\s*\(/g, // Stripe webhook signature check
  ],
  js: [
    /\btimingSafeEqual\s*\(/g,
    /\bjwt\.verify\s*\(|\bjwtVerify\s*\(/g,
    /\bcreateVerify\s*\(/g,
    /\bcrypto\.verify\s*\(|\bsubtle\.verify\s*\(/g,
    /\._*verify\s*\(\s*\w+\s*,\s*\w+/g, // verifier.verify(key, sig), this._verify(u, p) and kin
    /\bverify\w*(?:Signature|Token|Jwt|JWT|Webhook|Hmac|HMAC)\s*\(/g,
    /\brejectUnauthorized["']?\s*:\s*true\b/g,
    /\bcheckServerIdentity\b/g, // certificate pinning hooks
    /\bwebhooks\.constructEvent\s*\(/g, // Stripe webhook signature check
  ],
});

const EXAMPLES: Rule["examples"] = {
  positive: [
    {
      name: "constant-time compare replaced by ==",
      path: "pay.py",
      before: PAY_PY,
      after: PAY_PY.replace(
        'not hmac.compare_digest(sig, request.headers["X-Signature"])',
        'sig != request.headers["X-Signature"]',
      ),
    },
    {
      name: "jwt.verify replaced by jwt.decode",
      path: "src/auth.ts",
      before: JWT_JS,
      after: JWT_JS.replace(
        'jwt.verify(req.headers.authorization.slice(7), KEY, { algorithms: ["RS256"] })',
        "jwt.decode(req.headers.authorization.slice(7))",
      ),
    },
    {
      name: "verify=True dropped",
      path: "client.py",
      before: "requests.post(u, json=b, verify=True)\n",
      after: "requests.post(u, json=b)\n",
    },
    {
      name: "timingSafeEqual removed",
      path: "src/webhook.js",
      before: "if (!crypto.timingSafeEqual(a, b)) throw new Error('sig');\n",
      after: "if (a.toString() !== b.toString()) throw new Error('sig');\n",
    },
  ],
  negative: [
    {
      name: "timeout appended to a call that still says verify=True",
      path: "client.py",
      before: "requests.get(u, verify=True)\n",
      after: "requests.get(u, verify=True, timeout=5)\n",
    },
    {
      name: "handler edited around an unchanged compare",
      path: "pay.py",
      before: PAY_PY,
      after: PAY_PY.replace(
        "return process(request.json())",
        "log.info('ok')\n    return process(request.json())",
      ),
    },
  ],
};

/** The `crypto-verification-removed` rule. */
export const CRYPTO_VERIFICATION_REMOVED: Rule = {
  id: "crypto-verification-removed",
  severity: "high",
  mode: "guard",
  subject: "signature, token and certificate checks",
  justification:
    "Signature, token and certificate checks are what stop forged requests; replacing a verify " +
    "with a decode, or a constant-time compare with ==, keeps the code working and opens it.",
  langs: ["python", "js"],
  codeOnly: true,
  count: countVerification,
  inRemovedDefinitions(before: string, after: string, lang: Lang): number {
    const kept = new Set(definitionSpans(after, lang, VERIFIER_NAME).map((d) => d.name));
    let n = 0;
    for (const d of definitionSpans(before, lang, VERIFIER_NAME)) {
      if (!kept.has(d.name)) n += countVerification(before.slice(d.start, d.end), lang);
    }
    return n;
  },
  examples: EXAMPLES,
};

/** The `crypto-verification-disabled` rule. */
export const CRYPTO_VERIFICATION_DISABLED: Rule = {
  id: "crypto-verification-disabled",
  severity: "high",
  mode: "pattern",
  subject: "disabled token verifications",
  justification:
    "Decoding a token with its signature check off, or accepting the `none` algorithm, lets " +
    "anyone mint a valid-looking token.",
  langs: ["python", "js", "other"],
  codeOnly: true,
  count: byLang({
    python: [
      /["']verify_(?:signature|aud|exp)["']\s*:\s*False\b/g,
      /\bjwt\.decode\s*\([^)]*\bverify\s*=\s*False/g,
      /\balgorithms?\s*=\s*[[(][^\])]*["']none["']/gi,
    ],
    js: [
      /\balgorithms?["']?\s*[:=]\s*\[[^\]]*["']none["']/gi,
      /\bignoreExpiration["']?\s*:\s*true\b/g,
      /\bverify(?:Signature)?["']?\s*:\s*false\b/g,
    ],
  }),
  examples: {
    positive: [
      {
        name: "PyJWT signature check off",
        path: "auth.py",
        before: "claims = jwt.decode(t, KEY, algorithms=['HS256'])\n",
        after: "claims = jwt.decode(t, options={'verify_signature': False})\n",
      },
      {
        name: "alg none accepted",
        path: "src/auth.js",
        before: "jwt.verify(t, KEY, { algorithms: ['HS256'] });\n",
        after: "jwt.verify(t, KEY, { algorithms: ['HS256', 'none'] });\n",
      },
      {
        name: "alg none in a tuple of defaults",
        path: "aiohttp_jwt/middleware.py",
        before: "def JWTMiddleware(secret, algorithms=None):\n    pass\n",
        after: "def JWTMiddleware(secret, algorithms=('HS256', 'RS256', 'none')):\n    pass\n",
      },
    ],
    negative: [
      {
        name: "algorithm list edited without none",
        path: "src/auth.js",
        before: "jwt.verify(t, KEY, { algorithms: ['HS256'] });\n",
        after: "jwt.verify(t, KEY, { algorithms: ['HS256', 'RS256'] });\n",
      },
    ],
  },
};
