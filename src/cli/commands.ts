/**
 * The subcommands retie registers, one file each. Only commands that work are listed.
 *
 * @module
 */
import type { Command } from "commander";

/** A subcommand registration: adds itself to the program. */
export type Register = (program: Command) => void;

/** Every registered subcommand, in `--help` order. */
export const COMMANDS: Register[] = [];
