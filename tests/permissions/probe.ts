// Tries three things the shipped permission flags must forbid, and prints what happened as JSON.
// Run as its own process: `deno run <flags> probe.ts <port>`.
const port = Number(Deno.args[0]);
const result: Record<string, string> = {};

try {
  const out = await new Deno.Command("/bin/sh", { args: ["-c", "echo spawned"] }).output();
  result.spawn = new TextDecoder().decode(out.stdout).trim();
} catch (e) {
  result.spawn = (e as Error).name;
}
try {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  conn.close();
  result.loopback = "connected";
} catch (e) {
  result.loopback = (e as Error).name;
}
try {
  result.env = Deno.env.get("RETIE_PROBE_SECRET") ?? "unset";
} catch (e) {
  result.env = (e as Error).name;
}
try {
  Deno.dlopen("libc.so.6", {});
  result.ffi = "loaded";
} catch (e) {
  result.ffi = (e as Error).name;
}
console.log(JSON.stringify(result));
