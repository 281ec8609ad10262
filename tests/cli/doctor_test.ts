/**
 * `retie doctor`: each check's verdict on real files (a real ledger, real key modes, a broken
 * config), and the whole report as users run it, in its own process under the shipped flags.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import {
  checkConfig,
  checkDeno,
  checkKeyModes,
  checkLedger,
  checkOuterLayer,
} from "../../src/cli/doctor_checks.ts";
import { checkConfigFile } from "../../src/cli/doctor_config.ts";
import { renderChecks } from "../../src/cli/doctor.ts";
import { isolatedEnv, runRetie } from "../helpers/retie_process.ts";
import { recordSampleSession } from "../helpers/sample_session.ts";

Deno.test("doctor: the config file is absent, valid, or named with what is wrong", () => {
  const dir = Deno.makeTempDirSync({ prefix: "retie-doctor-" });
  const path = join(dir, "config.json");
  assert.equal(checkConfigFile(path).state, "absent");
  assert.equal(checkConfig(path).verdict, "ok");
  Deno.writeTextFileSync(path, '{"provider": "ollama"}');
  assert.equal(checkConfigFile(path).state, "valid");
  Deno.writeTextFileSync(path, '{"provider": ');
  const broken = checkConfig(path);
  assert.equal(broken.verdict, "fail");
  assert.match(broken.detail, /config\.json: not JSON/);
  assert.match(broken.fix ?? "", /correct .*config\.json/);
  Deno.writeTextFileSync(path, "[1, 2]");
  assert.match(checkConfigFile(path).problem ?? "", /not a JSON object/);
});

Deno.test("doctor: a user key others can read fails, with the chmod that fixes it", () => {
  const dir = Deno.makeTempDirSync({ prefix: "retie-doctor-" });
  Deno.chmodSync(dir, 0o700);
  assert.match(checkKeyModes(dir).detail, /no user key yet/);
  const key = join(dir, "user_key.json");
  Deno.writeTextFileSync(key, "{}", { mode: 0o600 });
  Deno.chmodSync(key, 0o600);
  assert.equal(checkKeyModes(dir).verdict, "ok");
  Deno.chmodSync(key, 0o644);
  const bad = checkKeyModes(dir);
  assert.equal(bad.verdict, "fail");
  assert.match(bad.detail, /mode 644/);
  assert.match(bad.fix ?? "", new RegExp(`chmod 600 ${key}`));
  Deno.chmodSync(key, 0o600);
  Deno.chmodSync(dir, 0o777);
  assert.match(checkKeyModes(dir).fix ?? "", /chmod 700/);
});

Deno.test("doctor: the ledger verifies, or the first bad entry is named", async () => {
  const s = await recordSampleSession();
  const good = await checkLedger(s.ledgerPath);
  assert.equal(good.verdict, "ok", good.detail);
  assert.match(good.detail, /verifies: \d+ entries, 1 sessions/);
  const db = new DatabaseSync(s.ledgerPath);
  db.exec("DROP TRIGGER entries_no_update");
  db.exec(`UPDATE entries SET payload = replace(payload, 'calc', 'calx') WHERE seq = 3`);
  db.close();
  const bad = await checkLedger(s.ledgerPath);
  assert.equal(bad.verdict, "fail");
  assert.match(bad.detail, /does not verify: entry #3/);
  assert.match(bad.fix ?? "", /retie verify --ledger/);
  assert.equal((await checkLedger(join(s.dir, "none.db"))).verdict, "ok");
});

Deno.test("doctor: the outer layer fails when everything is granted", () => {
  const all = checkOuterLayer(() => true);
  assert.equal(all.verdict, "fail");
  assert.match(all.detail, /not narrowed: holds all permissions/);
  assert.ok(all.fix);
  const none = checkOuterLayer(() => false);
  assert.equal(none.verdict, "warn"); // narrower than the flags: commands will fail
  assert.match(none.detail, /but without/);
});

Deno.test("doctor: an old Deno is a warning with the install line", () => {
  const old = checkDeno("1.46.3");
  assert.equal(old.verdict, "warn");
  assert.match(old.fix ?? "", /deno@2\.9/);
  assert.equal(checkDeno("2.9.6").verdict, "ok");
});

Deno.test("doctor: text lines carry a verdict, and the fix under it", () => {
  const text = renderChecks([
    { id: "a", title: "config", verdict: "fail", detail: "x: not JSON", fix: "correct x" },
    { id: "b", title: "retie", verdict: "ok", detail: "0.1.0" },
  ]);
  assert.equal(
    text,
    "fail  config           x: not JSON\n                       fix: correct x\n" +
      "ok    retie            0.1.0\n",
  );
});

Deno.test("doctor: as users run it — every line, JSON, exit 1 on a broken config", async () => {
  const iso = isolatedEnv();
  const ok = await runRetie(["doctor", "--json"], { env: iso.env, local: false });
  const report = JSON.parse(ok.stdout);
  const ids = report.checks.map((c: { id: string }) => c.id);
  assert.deepEqual(ids, [
    "deno",
    "retie",
    "outer-layer",
    "bubblewrap",
    "user-namespaces",
    "seccomp",
    "overlay",
    "key-modes",
    "config",
    "ledger",
  ]);
  for (const c of report.checks) {
    assert.ok(["ok", "warn", "fail"].includes(c.verdict), JSON.stringify(c));
    if (c.verdict !== "ok") assert.ok(c.fix, `${c.id} has no fix`);
  }
  Deno.mkdirSync(join(iso.env.XDG_CONFIG_HOME, "retie"), { recursive: true });
  Deno.writeTextFileSync(join(iso.env.XDG_CONFIG_HOME, "retie", "config.json"), "{oops");
  const bad = await runRetie(["doctor"], { env: iso.env, local: false });
  assert.equal(bad.code, 1);
  assert.match(bad.stdout, /^fail\s+config\s+.*config\.json: not JSON/m);
  assert.match(bad.stdout, /fix: correct .*config\.json/);
});
