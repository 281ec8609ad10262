/**
 * Fetches the corpus the inspector's false-positive rate is measured on: consecutive releases of
 * popular npm packages (each file that differs between two consecutive releases is one real edit).
 *
 * The package list and the exact versions are pinned in `scripts/inspector_fp_manifest.json`, so a
 * re-run downloads the same tarballs. `--refresh` re-resolves the newest versions and rewrites the
 * manifest. Tarballs go to `bench/data/inspector/` (ignored by git).
 *
 * Usage: `deno run --allow-all scripts/inspector_fp_fetch.ts [--refresh]`
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { run } from "../src/exec.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const MANIFEST = join(ROOT, "scripts", "inspector_fp_manifest.json");
export const DATA = join(ROOT, "bench", "data", "inspector");

/** Packages chosen for many releases and real, hand-written source. */
const PACKAGES = [
  "express",
  "lodash",
  "axios",
  "commander",
  "chalk",
  "koa",
  "got",
  "ws",
  "yargs",
  "minimist",
  "debug",
  "uuid",
  "dotenv",
  "jsonwebtoken",
  "passport",
  "helmet",
  "cors",
  "body-parser",
  "mongoose",
  "semver",
  "node-fetch",
  "ejs",
  "cookie-parser",
  "express-session",
  "multer",
  "nodemailer",
  "pg",
  "qs",
  "ajv",
  "fastify",
  "socket.io",
  "morgan",
  "bcryptjs",
  "undici",
  // security-heavy code, where the guard rules have something to count
  "jose",
  "node-forge",
  "express-jwt",
  "passport-jwt",
  "passport-local",
  "superagent",
  "mysql2",
  "sequelize",
  "knex",
  "@nestjs/common",
  "@nestjs/passport",
  "@hapi/hapi",
  "csurf",
  "express-rate-limit",
  "https-proxy-agent",
];
/** Python packages present both as Debian `python3-*` and in the pyenv site-packages. */
const PY_PACKAGES = [
  ...["blinker", "cryptography", "pip", "pygments", "pyparsing", "yaml"].map((name) => ({
    name,
    older: "debian",
  })),
  // pyenv ships the older setuptools (65.5.0 vs Debian's 66.1.1)
  { name: "setuptools", older: "pyenv" },
  { name: "pkg_resources", older: "pyenv" },
];
/** Releases kept per package (consecutive, newest stable ones). */
const PER_PACKAGE = 6;

interface Manifest {
  note: string;
  npm: Record<string, string[]>;
  python: {
    newer: string;
    older: string;
    note: string;
    packages: { name: string; older: string }[];
  };
}

async function sh(cmd: string, args: string[], cwd?: string): Promise<string> {
  const env = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? "/root",
  };
  const r = await run({ cmd, args, cwd, env, timeoutMs: 120_000, maxOutputBytes: 64 << 20 });
  const out = new TextDecoder().decode(r.stdout);
  if (r.code !== 0) {
    throw new Error(
      `${cmd} ${args.join(" ")} failed (${r.code}): ${new TextDecoder().decode(r.stderr)}`,
    );
  }
  return out;
}

async function resolveVersions(pkg: string): Promise<string[]> {
  const all = JSON.parse(await sh("npm", ["view", pkg, "versions", "--json"])) as string[];
  const stable = all.filter((v) => /^\d+\.\d+\.\d+$/.test(v));
  return stable.slice(-PER_PACKAGE);
}

async function fetchOne(pkg: string, version: string): Promise<void> {
  const dir = join(DATA, "npm", pkg.replace("/", "__"), version);
  if (existsSync(join(dir, "package"))) return;
  if (existsSync(dir)) Deno.removeSync(dir, { recursive: true }); // a partial earlier attempt
  mkdirSync(dir, { recursive: true });
  await sh("npm", ["pack", `${pkg}@${version}`, "--silent", "--pack-destination", dir]);
  const tgz = readdirSync(dir).find((f) => f.endsWith(".tgz"));
  if (!tgz) throw new Error(`npm pack ${pkg}@${version} produced no tarball`);
  await sh("tar", ["-xzf", tgz], dir);
  Deno.removeSync(join(dir, tgz));
  // Most tarballs unpack to `package/`; a few use their own top folder.
  if (!existsSync(join(dir, "package"))) {
    const top = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
    if (top.length !== 1) throw new Error(`${pkg}@${version}: unexpected tarball layout`);
    Deno.renameSync(join(dir, top[0].name), join(dir, "package"));
  }
}

if (import.meta.main) {
  const refresh = Deno.args.includes("--refresh");
  let manifest: Manifest;
  if (!refresh && existsSync(MANIFEST)) {
    manifest = JSON.parse(Deno.readTextFileSync(MANIFEST));
    // Packages added to the list since the manifest was written get pinned now.
    const missing = PACKAGES.filter((p) => !(p in manifest.npm));
    for (const pkg of missing) manifest.npm[pkg] = await resolveVersions(pkg);
    if (missing.length > 0) {
      Deno.writeTextFileSync(MANIFEST, JSON.stringify(manifest, null, 2) + "\n");
    }
  } else {
    const npm: Record<string, string[]> = {};
    for (const pkg of PACKAGES) npm[pkg] = await resolveVersions(pkg);
    manifest = {
      note: "Corpus of the inspector false-positive rate; see docs/inspector.md.",
      npm,
      python: {
        newer: "/root/.pyenv/versions/3.11.7/lib/python3.11",
        older: "/usr/lib/python3.11",
        note: "CPython 3.11.2 (Debian bookworm) -> 3.11.7 (pyenv) stdlib; Debian python3-* " +
          "packages -> pyenv site-packages copies",
        packages: PY_PACKAGES,
      },
    };
    Deno.writeTextFileSync(MANIFEST, JSON.stringify(manifest, null, 2) + "\n");
  }
  const jobs = Object.entries(manifest.npm).flatMap(([p, vs]) => vs.map((v) => [p, v] as const));
  let done = 0;
  // A few at a time: npm is the bottleneck, not the CPU.
  const queue = [...jobs];
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        await fetchOne(job[0], job[1]);
        done++;
      }
    }),
  );
  console.log(
    `fetched ${done} releases of ${Object.keys(manifest.npm).length} packages into ${DATA}`,
  );
}
