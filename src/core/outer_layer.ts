/**
 * The outer layer: which Deno permissions this process holds, compared with what retie's own
 * permission flags grant.
 *
 * Deno cannot list a process's grants, only answer a query about one permission, so the check asks
 * about a fixed set of probes: each permission as a whole (`-A` grants them all), the programs,
 * variables and addresses a broader grant would most likely add (`/bin/sh`, `PATH`, a private or
 * loopback address, …), and everything the flags name. A probe granted now but not by the flags
 * makes the process *broader*; one the flags grant but the process lacks makes it *narrower*.
 * The probes are representative, not exhaustive: a grant of one odd program nobody probes is not
 * seen. The usual ways of widening the outer layer (`-A`, `--allow-all`, `--allow-run`,
 * `--allow-env`, `--allow-sys`, `--allow-ffi`, dropping a `--deny-net`) all are.
 *
 * Pure: the query function is injected (tests pass their own; retie passes `Deno.permissions`).
 *
 * @module
 */

/** One question to ask Deno, and the answer retie's flags give. */
export interface Probe {
  /** What to query. */
  descriptor: Deno.PermissionDescriptor;
  /** Short human label, e.g. `run /bin/sh` or `net 10.0.0.1`. */
  label: string;
  /** True when the flags grant it. */
  expected: boolean;
}

/** The outcome of {@link assess}. */
export interface Assessment {
  /** Granted now, not by the flags. Empty means the process is at most as broad as the flags. */
  broader: string[];
  /** Granted by the flags, not now: some features will fail. */
  missing: string[];
  /** True when every permission as a whole is granted: started with `-A` / `--allow-all`. */
  allowAll: boolean;
}

// "import" (what `--allow-import` widens) is queryable though Deno's types leave it out.
const IMPORT = "import" as Deno.PermissionName;
const WHOLE: Deno.PermissionName[] = ["read", "write", "run", "env", "net", "ffi", "sys", IMPORT];
const RUN_PROBES = ["/bin/sh", "/usr/bin/env", "/usr/bin/python3", "git", "curl", "deno"];
const ENV_PROBES = [
  "PATH",
  "USER",
  "SHELL",
  "SSH_AUTH_SOCK",
  "AWS_SECRET_ACCESS_KEY",
  "GITHUB_TOKEN",
];
const NET_PROBES = ["127.0.0.1", "[::1]", "10.0.0.1", "169.254.169.254", "192.168.1.1"];
const SYS_PROBES: Deno.SysPermissionDescriptor["kind"][] = [
  "hostname",
  "osRelease",
  "networkInterfaces",
  "uid",
];

interface Grants {
  all: boolean;
  allow: string[];
  deny: string[];
  denyAll: boolean;
}

function grantsOf(flags: readonly string[], name: string): Grants {
  const g: Grants = { all: false, allow: [], deny: [], denyAll: false };
  for (const f of flags) {
    if (f === "-A" || f === "--allow-all") g.all = true;
    const m = /^--(allow|deny)-([a-z]+)(?:=(.*))?$/.exec(f);
    if (!m || m[2] !== name) continue;
    const list = m[3] === undefined ? undefined : m[3].split(",").filter(Boolean);
    if (m[1] === "allow") {
      if (list === undefined) g.all = true;
      else g.allow.push(...list);
    } else {
      if (list === undefined) g.denyAll = true;
      else g.deny.push(...list);
    }
  }
  return g;
}

function ipv4(s: string): number | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0;
}

/** Does a `--allow-net`/`--deny-net` entry (host, IPv4 CIDR, `[v6]`) cover this host? */
function netMatches(entry: string, host: string): boolean {
  const hostOnly = host.replace(/:\d+$/, "");
  const [net, bits] = entry.split("/");
  if (bits !== undefined) {
    const a = ipv4(net);
    const b = ipv4(hostOnly);
    if (a === undefined || b === undefined) return false;
    const n = Number(bits);
    const mask = n === 0 ? 0 : (~0 << (32 - n)) >>> 0;
    return ((a & mask) >>> 0) === ((b & mask) >>> 0);
  }
  return entry.replace(/:\d+$/, "") === hostOnly;
}

function expectedFor(flags: readonly string[], d: Deno.PermissionDescriptor): boolean {
  const g = grantsOf(flags, d.name);
  if (g.denyAll) return false;
  const item = d.name === "run"
    ? d.command
    : d.name === "env"
    ? d.variable
    : "host" in d
    ? d.host
    : d.name === "sys"
    ? d.kind
    : undefined;
  // The permission as a whole reads "granted" under `--allow-net --deny-net=…` too: the denials
  // are checked by the probes inside them.
  if (item === undefined) return g.all;
  const covers = (e: string) => d.name === "net" ? netMatches(e, String(item)) : e === String(item);
  if (g.deny.some(covers)) return false;
  return g.all || g.allow.some(covers);
}

function label(d: Deno.PermissionDescriptor): string {
  const item = "command" in d
    ? d.command
    : "variable" in d
    ? d.variable
    : "host" in d
    ? d.host
    : "kind" in d
    ? d.kind
    : undefined;
  return item === undefined ? `${d.name} (all)` : `${d.name} ${String(item)}`;
}

function listed(flags: readonly string[], name: string): string[] {
  const g = grantsOf(flags, name);
  return [...g.allow, ...g.deny];
}

/** A representative address inside a `--deny-net` entry (the network's first host). */
function insideOf(entry: string): string {
  const [net, bits] = entry.split("/");
  if (bits === undefined) return net;
  const a = ipv4(net);
  if (a === undefined) return net;
  const b = (a + 1) >>> 0;
  return [b >>> 24, (b >>> 16) & 255, (b >>> 8) & 255, b & 255].join(".");
}

/**
 * The probes that tell whether a process holds more (or less) than `flags` grant.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { probesFor } from "./outer_layer.ts";
 * const p = probesFor(["--allow-run=/usr/bin/bwrap"]);
 * assert.deepEqual(p.find((x) => x.label === "run /bin/sh")?.expected, false);
 * ```
 */
export function probesFor(flags: readonly string[]): Probe[] {
  const descriptors: Deno.PermissionDescriptor[] = WHOLE.map((name) => ({ name }));
  const runs = new Set([...RUN_PROBES, ...listed(flags, "run")]);
  for (const command of runs) descriptors.push({ name: "run", command });
  const envs = new Set([...ENV_PROBES, ...listed(flags, "env")]);
  for (const variable of envs) descriptors.push({ name: "env", variable });
  const hosts = new Set([...NET_PROBES, ...listed(flags, "net").map(insideOf), "example.com"]);
  for (const host of hosts) descriptors.push({ name: "net", host });
  for (const kind of SYS_PROBES) descriptors.push({ name: "sys", kind });
  descriptors.push({ name: IMPORT, host: "example.com" } as Deno.PermissionDescriptor);
  return descriptors.map((descriptor) => ({
    descriptor,
    label: label(descriptor),
    expected: expectedFor(flags, descriptor),
  }));
}

/** Answers one probe: true when the permission is granted (never prompts). */
export type PermissionQuery = (d: Deno.PermissionDescriptor) => boolean;

/**
 * Compares what `query` says this process holds with what `flags` grant.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { assess } from "./outer_layer.ts";
 * const everything = () => true; // what -A answers
 * assert.deepEqual(assess(["--allow-read"], everything).allowAll, true);
 * ```
 */
export function assess(flags: readonly string[], query: PermissionQuery): Assessment {
  const broader: string[] = [];
  const missing: string[] = [];
  let allowAll = true;
  for (const p of probesFor(flags)) {
    const granted = query(p.descriptor);
    if (
      !("command" in p.descriptor) && !("variable" in p.descriptor) && !("host" in p.descriptor) &&
      !("kind" in p.descriptor) && !granted
    ) allowAll = false;
    if (granted && !p.expected) broader.push(p.label);
    if (!granted && p.expected) missing.push(p.label);
  }
  return { broader, missing, allowAll };
}

/**
 * Asks Deno itself, without prompting.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { denoQuery } from "./outer_layer.ts";
 * assert.equal(typeof denoQuery({ name: "ffi" }), "boolean"); // false under retie's flags
 * ```
 */
export function denoQuery(d: Deno.PermissionDescriptor): boolean {
  try {
    return Deno.permissions.querySync(d).state === "granted";
  } catch {
    return false;
  }
}

/**
 * In words: what a broader grant adds, e.g. `all permissions (-A)` or `run /bin/sh, sys (all)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeBroader } from "./outer_layer.ts";
 * assert.deepEqual(describeBroader({ broader: ["run /bin/sh"], missing: [], allowAll: false }), "run /bin/sh");
 * ```
 */
export function describeBroader(a: Assessment): string {
  if (a.allowAll) return "all permissions (-A / --allow-all)";
  const shown = a.broader.slice(0, 6).join(", ");
  return a.broader.length > 6 ? `${shown} and ${a.broader.length - 6} more` : shown;
}

/** How this process's outer layer came about; set once at start-up, read by doctor and the ledger. */
export interface OuterLayerState {
  /**
   * `confined`: started under retie's flags (or narrower); `narrowed`: started broader and
   * re-executed under them; `unconfined`: broader, and kept so with `--unconfined`.
   */
  status: "confined" | "narrowed" | "unconfined";
  /** The profile it runs under (`retie`, `local`, `demo`), when confined or narrowed. */
  profile?: string;
  /** What the start-up grant had beyond the flags (narrowed, unconfined). */
  from?: string;
}

let state: OuterLayerState | undefined;

/**
 * Records the outer layer's state (the entry point does, once).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outerLayer, setOuterLayer } from "./outer_layer.ts";
 * setOuterLayer({ status: "confined", profile: "retie" });
 * assert.deepEqual(outerLayer()?.status, "confined");
 * ```
 */
export function setOuterLayer(s: OuterLayerState): void {
  state = s;
}

/**
 * The recorded outer-layer state, if the entry point set one (in-process callers may not).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outerLayer } from "./outer_layer.ts";
 * // "confined", "narrowed" or "unconfined" once the CLI has started; undefined before
 * assert.equal(outerLayer(), undefined);
 * ```
 */
export function outerLayer(): OuterLayerState | undefined {
  return state;
}
