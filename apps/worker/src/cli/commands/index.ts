import type { CliCommand } from '../cli-command.js';
import { runCommand } from './run-command.js';
import { toolsCommand } from './tools-command.js';

/**
 * The `ankole` commands, in the order `ankole --help` lists them. A new command is one file in this
 * folder exporting a `CliCommand`, added here.
 */
export const COMMANDS: readonly CliCommand[] = [runCommand, toolsCommand];
