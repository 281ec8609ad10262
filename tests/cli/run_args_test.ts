/**
 * `retie run` given bad input, as a new user gives it, under the shipped flags: each case exits 2
 * with one clear message naming the input and the fix, and no stack trace. Nothing here reaches a
 * model (every case fails before the first request).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { isolatedEnv, runRetie } from "../helpers/retie_process.ts";

interface Case {
  name: string;
  args: string[];
  env?: Record<string, string>;
  stdin?: string;
  /** What stderr must say. */
  says: RegExp[];
}

const iso = isolatedEnv();
const ws = Deno.makeTempDirSync({ prefix: "retie-run-args-" });
const file = join(ws, "a.txt");
Deno.writeTextFileSync(file, "x\n");

const CASES: Case[] = [
  {
    name: "--max-steps abc",
    args: ["run", ws, "--headless", "-p", "x", "--max-steps", "abc"],
    says: [/--max-steps takes a whole number from 1 to 1000 \(got "abc"\)/],
  },
  {
    name: "--max-tier 9",
    args: ["run", ws, "--max-tier", "9"],
    says: [/--max-tier takes a whole number from 1 to 4 \(got "9"\)/],
  },
  {
    name: "--mode weird",
    args: ["run", ws, "--mode", "weird"],
    says: [/--mode takes default or plan \(got "weird"\)/],
  },
  {
    name: "--provider foo",
    args: ["run", ws, "--provider", "foo"],
    says: [/--provider takes ollama, anthropic or openai \(got "foo"\)/],
  },
  {
    name: "a workspace that does not exist",
    args: ["run", join(ws, "nope"), "--headless", "-p", "x"],
    says: [/cannot use .*nope as the workspace/, /hint: pass an existing project directory/],
  },
  {
    name: "a workspace that is a file",
    args: ["run", file, "--headless", "-p", "x"],
    says: [/cannot use .*a\.txt as the workspace: not a directory/],
  },
  {
    name: "headless with an empty stdin",
    args: ["run", ws, "--headless"],
    stdin: "  \n",
    says: [/no objective for a headless run/, /pass -p "what to do" or pipe it on stdin/],
  },
  {
    name: "ollama without OLLAMA_API_KEY",
    args: ["run", ws, "--headless", "-p", "x"],
    says: [/OLLAMA_API_KEY is not set/, /https:\/\/ollama\.com\/settings\/keys/],
  },
  {
    name: "anthropic without a model",
    args: ["run", ws, "--headless", "-p", "x", "--provider", "anthropic"],
    env: { ANTHROPIC_API_KEY: "k" },
    says: [/no model given for anthropic/, /--model NAME/],
  },
  {
    name: "anthropic without ANTHROPIC_API_KEY",
    args: ["run", ws, "--headless", "-p", "x", "--provider", "anthropic", "--model", "m"],
    says: [/ANTHROPIC_API_KEY is not set/, /console\.anthropic\.com/],
  },
  {
    name: "openai without OPENAI_API_KEY",
    args: ["run", ws, "--headless", "-p", "x", "--provider", "openai", "--model", "m"],
    says: [/OPENAI_API_KEY is not set/, /platform\.openai\.com/],
  },
  {
    name: "a base URL that is not a URL (ollama)",
    args: ["run", ws, "--headless", "-p", "x", "--base-url", "notaurl"],
    env: { OLLAMA_API_KEY: "k" },
    says: [/invalid base URL \(notaurl\)/],
  },
  {
    name: "a base URL that is not http(s) (openai)",
    args: [
      "run",
      ws,
      "--headless",
      "-p",
      "x",
      "--provider",
      "openai",
      "--model",
      "m",
      "--base-url",
      "ftp://host/v1",
    ],
    env: { OPENAI_API_KEY: "k" },
    says: [/bad base URL \(ftp:\/\/host\/v1\): not an http\(s\) URL/],
  },
];

for (const c of CASES) {
  Deno.test(`retie run, bad input: ${c.name} → exit 2 with a clear message`, async () => {
    const r = await runRetie(["--ledger", join(iso.dir, "ledger.db"), ...c.args], {
      env: { ...iso.env, ...c.env },
      stdin: c.stdin,
      local: false,
    });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    for (const re of c.says) assert.match(r.stderr, re);
    assert.doesNotMatch(r.stderr, /^\s+at /m, "no stack trace");
    assert.doesNotMatch(r.stderr, /Uncaught/);
  });
}
