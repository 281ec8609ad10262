/**
 * The subcommands retie registers, one file each. Only commands that work are listed.
 *
 * @module
 */
import type { Command } from "commander";
import { register as models } from "./models.ts";
import { register as probe } from "./probe.ts";
import { register as usage } from "./usage.ts";
import { register as verify } from "./verify.ts";
import { register as fetch } from "./fetch.ts";
import { register as replay } from "./replay.ts";
import { register as run } from "./run.ts";
import { register as demo } from "./demo.ts";
import { register as sandbox } from "./sandbox.ts";
import { register as policy } from "./policy.ts";
import { register as undo } from "./undo.ts";
import { register as inspect } from "./inspect.ts";
import { register as mcp } from "./mcp.ts";
import { register as exportCmd } from "./export.ts";
import { register as config } from "./config.ts";
import { register as doctor } from "./doctor.ts";
import { register as gc } from "./gc.ts";

/** A subcommand registration: adds itself to the program. */
export type Register = (program: Command) => void;

/** Every registered subcommand, in `--help` order. */
export const COMMANDS: Register[] = [
  run,
  demo,
  replay,
  verify,
  fetch,
  models,
  probe,
  usage,
  sandbox,
  policy,
  undo,
  inspect,
  mcp,
  exportCmd,
  config,
  doctor,
  gc,
];
