/**
 * `tls-verify-disabled`: text that turns certificate or hostname verification off. Counted per
 * file; fires when the count rises, so editing a call that already said `verify=False` is silent.
 *
 * @module
 */
import { byLang, type Rule } from "./rule_types.ts";

/** The `tls-verify-disabled` rule. */
export const TLS_VERIFY_DISABLED: Rule = {
  id: "tls-verify-disabled",
  severity: "high",
  mode: "pattern",
  subject: "places that disable TLS verification",
  justification:
    "Without certificate (or SSH host key) verification any network position can impersonate the server and read " +
    "or alter the traffic, credentials included; the code keeps working, so nobody notices.",
  langs: ["python", "js", "other"],
  codeOnly: true,
  count: byLang({
    python: [
      /\bverify\s*=\s*False\b/g,
      /\bssl\._create_unverified_context\b/g,
      /\b_create_default_https_context\s*=/g,
      /\bcheck_hostname\s*=\s*False\b/g,
      /[^=!<>]=\s*(?:ssl\.)?CERT_NONE\b/g, // assigned or passed by keyword, not compared
      /[,(]\s*(?:ssl\.)?CERT_NONE\s*[,)]/g, // passed positionally
      /\bcert_reqs\s*=\s*["']?(?:none|CERT_NONE)["']?/gi,
      /\bassert_hostname\s*=\s*False\b/g,
      /\bssl_verify\s*=\s*False\b/gi,
      /\b(?:AutoAddPolicy|WarningPolicy)\s*\(/g, // paramiko: accept any SSH host key
      /\b(?:ClientSession|TCPConnector|get|post|put|patch|delete|request|ws_connect)\s*\([^)\n]*\bssl\s*=\s*False\b/g, // aiohttp
    ],
    js: [
      /\brejectUnauthorized["']?\s*:\s*(?:false|0)\b/g,
      /\.rejectUnauthorized\s*=\s*(?:false|0)\b/g,
      /\bstrictSSL["']?\s*:\s*false\b/g,
      /\bcheckServerIdentity["']?\s*:\s*(?:\(\s*\)|\(\s*\w+\s*(?:,\s*\w+\s*)?\))\s*=>\s*(?:undefined|null|\{\s*\})/g,
      /\binsecure["']?\s*:\s*true\b/g,
    ],
    any: [
      /\bNODE_TLS_REJECT_UNAUTHORIZED["']?\s*(?:=|:|\]\s*=)\s*["']?0/g,
      /\bPYTHONHTTPSVERIFY["']?\s*[=:]\s*["']?0/g,
      /\bGIT_SSL_NO_VERIFY["']?\s*[=:]\s*["']?(?:1|true)/gi,
      /\bInsecureSkipVerify\s*(?::|=)\s*true\b/g,
      /\bVERIFY_NONE\b/g,
      /\bCURLOPT_SSL_VERIFY(?:PEER|HOST)\s*,\s*(?:0|false)\b/gi,
      /\bsslverify\s*=\s*(?:0|false|no)\b/gi,
      /\bStrictHostKeyChecking[=\s]+no\b/gi, // ssh: accept any host key
    ],
  }),
  examples: {
    positive: [
      {
        name: "requests verify=False",
        path: "client.py",
        before: "r = requests.get(url, timeout=5)\n",
        after: "r = requests.get(url, timeout=5, verify=False)\n",
      },
      {
        name: "unverified SSL context",
        path: "fetch.py",
        before: "ctx = ssl.create_default_context()\n",
        after: "ctx = ssl._create_unverified_context()\n",
      },
      {
        name: "CERT_NONE",
        path: "tls.py",
        before: "ctx = ssl.create_default_context()\n",
        after:
          "ctx = ssl.create_default_context()\nctx.check_hostname = False\nctx.verify_mode = ssl.CERT_NONE\n",
      },
      {
        name: "https agent rejectUnauthorized false",
        path: "src/http.ts",
        before: "const agent = new https.Agent({ keepAlive: true });\n",
        after: "const agent = new https.Agent({ keepAlive: true, rejectUnauthorized: false });\n",
      },
      {
        name: "NODE_TLS_REJECT_UNAUTHORIZED",
        path: "src/index.js",
        before: "start();\n",
        after: "process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';\nstart();\n",
      },
      {
        name: "Go InsecureSkipVerify",
        path: "client.go",
        before: "cfg := &tls.Config{}\n",
        after: "cfg := &tls.Config{InsecureSkipVerify: true}\n",
      },
    ],
    negative: [
      {
        name: "timeout appended to a call that keeps verify=False",
        path: "client.py",
        before: "requests.get(u, verify=False)\n",
        after: "requests.get(u, verify=False, timeout=5)\n",
      },
      {
        name: "verify=False in a comment",
        path: "client.py",
        before: "requests.get(u)\n",
        after: "# never pass verify=False here\nrequests.get(u)\n",
      },
      {
        name: "rejectUnauthorized true",
        path: "src/http.ts",
        before: "",
        after: "new https.Agent({ rejectUnauthorized: true });\n",
      },
      {
        name: "comparison with CERT_NONE in JS is not Python",
        path: "src/a.js",
        before: "",
        after: "const s = 'see docs';\n",
      },
    ],
  },
};
