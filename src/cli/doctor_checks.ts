/**
 * The checks `retie doctor` runs. Each returns a verdict (`ok`, `warn`, `fail`), what it saw, and
 * — when not ok — the fix. None throws: a check that cannot look says so as its verdict.
 *
 * @module
 */
import { join } from "node:path";
import { VERSION } from "../version.ts";
import { configDir } from "../core/dirs.ts";
import { assess, denoQuery, describeBroader, outerLayer } from "../core/outer_layer.ts";
import { profileFlags, type ProfileName } from "../core/permission_flags.ts";
import { checkConfigFile } from "./doctor_config.ts";
import { errorMessage } from "../core/errors.ts";

export { checkBwrap, checkOverlay, checkSeccomp, checkUserNamespaces } from "./doctor_sandbox.ts";

/** A verdict, strictest last. */
export type Verdict = "ok" | "warn" | "fail";

/** One line of the report. */
export interface Check {
  /** Stable identifier (for `--json` consumers). */
  id: string;
  /** What was checked, as shown. */
  title: string;
  verdict: Verdict;
  /** What was found. */
  detail: string;
  /** What to do about it (when not ok). */
  fix?: string;
  /** Machine-readable facts behind the verdict. */
  data?: Record<string, unknown>;
}

/**
 * Deno's version: retie is built and tested on 2.9.
 *
 * @example
 * ```ts ignore
 * import { checkDeno } from "./doctor_checks.ts";
 * (checkDeno()).verdict; // "ok", "warn" or "fail"
 * ```
 */
export function checkDeno(version: string = Deno.version.deno): Check {
  const [major, minor] = version.split(".").map(Number);
  const ok = major === 2 && minor >= 9;
  return {
    id: "deno",
    title: "deno",
    verdict: ok ? "ok" : "warn",
    detail: `${version} (v8 ${Deno.version.v8}, typescript ${Deno.version.typescript})`,
    fix: ok ? undefined : "retie is tested on Deno 2.9: npm install -g deno@2.9.6",
  };
}

/**
 * retie's own version.
 *
 * @example
 * ```ts ignore
 * import { checkRetie } from "./doctor_checks.ts";
 * (checkRetie()).verdict; // "ok", "warn" or "fail"
 * ```
 */
export function checkRetie(): Check {
  return { id: "retie", title: "retie", verdict: "ok", detail: VERSION };
}

/**
 * The outer layer: what this process may do, against retie's flags, and how that came about.
 *
 * @example
 * ```ts
 * import { checkOuterLayer } from "./doctor_checks.ts";
 * checkOuterLayer(() => true).verdict; // "fail": everything granted, nothing narrowed
 * ```
 */
export function checkOuterLayer(query = denoQuery): Check {
  const state = outerLayer();
  const profiles: ProfileName[] = state?.profile
    ? [state.profile as ProfileName]
    : ["retie", "local", "demo"];
  const fits = profiles.map((p) => ({ p, a: assess(profileFlags(p), query) }))
    .find((x) => x.a.broader.length === 0);
  const a = fits?.a ?? assess(profileFlags("retie"), query);
  const data = {
    status: fits ? (state?.status === "narrowed" ? "narrowed" : "confined") : "broader",
    recorded: state?.status ?? null,
    profile: fits?.p ?? null,
    from: state?.from ?? null,
    broader: a.broader,
    missing: a.missing,
  };
  if (!fits) {
    return {
      id: "outer-layer",
      title: "outer layer",
      verdict: "fail",
      detail: `not narrowed: holds ${describeBroader(a)} beyond retie's flags` +
        (state?.status === "unconfined" ? " (--unconfined)" : ""),
      fix: "start retie without --unconfined and let it narrow itself, or run it under its " +
        "flags: deno task retie, an installed `retie`, or a release binary",
      data,
    };
  }
  const how = state?.status === "narrowed"
    ? `narrowed: started with ${state.from}, re-executed under the ${fits.p} flags`
    : `confined: started under the ${fits.p} flags`;
  if (a.missing.length > 0) {
    return {
      id: "outer-layer",
      title: "outer layer",
      verdict: "warn",
      detail: `${how}, but without ${a.missing.slice(0, 5).join(", ")}`,
      fix: "some commands will fail for lack of a permission; run retie with its own flags " +
        "(docs/permissions.md)",
      data,
    };
  }
  return { id: "outer-layer", title: "outer layer", verdict: "ok", detail: how, data };
}

/**
 * The user key and its folder must be private (0600 / 0700).
 *
 * @example
 * ```ts ignore
 * import { checkKeyModes } from "./doctor_checks.ts";
 * (checkKeyModes()).verdict; // "ok", "warn" or "fail"
 * ```
 */
export function checkKeyModes(dir: string = configDir()): Check {
  const key = join(dir, "user_key.json");
  let keyMode: number;
  try {
    keyMode = Deno.statSync(key).mode ?? 0;
  } catch {
    return {
      id: "key-modes",
      title: "key files",
      verdict: "ok",
      detail: `no user key yet (${key}); the first session creates it, mode 600`,
    };
  }
  const problems: string[] = [];
  const fixes: string[] = [];
  if ((keyMode & 0o077) !== 0) {
    problems.push(`${key} is mode ${(keyMode & 0o777).toString(8)}`);
    fixes.push(`chmod 600 ${key} (and consider it exposed: delete it to make a new one)`);
  }
  let dirMode = 0o700;
  try {
    dirMode = Deno.statSync(dir).mode ?? 0o700;
  } catch { /* the key exists, so the folder does */ }
  if ((dirMode & 0o022) !== 0) {
    problems.push(`${dir} is mode ${(dirMode & 0o777).toString(8)} (others may replace the key)`);
    fixes.push(`chmod 700 ${dir}`);
  }
  return {
    id: "key-modes",
    title: "key files",
    verdict: problems.length ? "fail" : "ok",
    detail: problems.length ? problems.join("; ") : `${key} is private (mode 600)`,
    fix: fixes.length ? fixes.join("; ") : undefined,
  };
}

/**
 * The config file: absent, valid, or what is wrong with it.
 *
 * @example
 * ```ts ignore
 * import { checkConfig } from "./doctor_checks.ts";
 * (checkConfig()).verdict; // "ok", "warn" or "fail"
 * ```
 */
export function checkConfig(path?: string): Check {
  const r = checkConfigFile(path);
  return {
    id: "config",
    title: "config",
    verdict: r.state === "invalid" ? "fail" : "ok",
    detail: r.state === "absent"
      ? `no config file (${r.path}); the defaults apply`
      : r.state === "valid"
      ? `${r.path} is valid`
      : `${r.path}: ${r.problem}`,
    fix: r.state === "invalid"
      ? `correct ${r.path}, or move it aside to use the defaults`
      : undefined,
  };
}

/**
 * The ledger: absent, verified, or the first bad entry.
 *
 * @example
 * ```ts ignore
 * import { checkLedger } from "./doctor_checks.ts";
 * (await checkLedger("/tmp/ledger.db")).verdict; // "ok", "warn" or "fail"
 * ```
 */
export async function checkLedger(path: string): Promise<Check> {
  try {
    Deno.statSync(path);
  } catch {
    return {
      id: "ledger",
      title: "ledger",
      verdict: "ok",
      detail: `no ledger yet (${path}); the first session creates it`,
    };
  }
  try {
    const { verifyLedger } = await import("../ledger/mod.ts");
    const r = verifyLedger(path);
    return {
      id: "ledger",
      title: "ledger",
      verdict: r.ok ? "ok" : "fail",
      detail: r.ok
        ? `${path} verifies: ${r.entries} entries, ${r.sessions} sessions, head #${r.headSeq}`
        : `${path} does not verify: entry #${r.firstBad?.seq}: ${r.firstBad?.code} ${r.firstBad?.detail}`,
      fix: r.ok ? undefined : `retie verify --ledger ${path} shows every problem; keep the file ` +
        "as evidence and start a new ledger with --ledger or RETIE_LEDGER",
      data: { entries: r.entries, sessions: r.sessions, headSeq: r.headSeq, ok: r.ok },
    };
  } catch (e) {
    return {
      id: "ledger",
      title: "ledger",
      verdict: "fail",
      detail: `${path} cannot be read as a retie ledger: ${errorMessage(e)}`,
      fix: `check the path; retie verify --ledger ${path} says more`,
    };
  }
}
