import type { CliCommand } from '../cli-command.js';

/** A command whose module is imported only when it runs, so `ankole --help` starts fast. */
function lazyCommand(name: string, summary: string, load: () => Promise<CliCommand>): CliCommand {
  return { name, summary, run: async (args, io) => (await load()).run(args, io) };
}

/**
 * The `ankole` commands, in the order `ankole --help` lists them. A new command is one file in this
 * folder exporting a `CliCommand`, added here.
 */
export const COMMANDS: readonly CliCommand[] = [
  lazyCommand('run', 'run one text turn (the offline demo model when OPENAI_API_KEY is not set)', async () => (await import('./run-command.js')).runCommand),
  lazyCommand('tools', 'show the tool set a turn would get (--schemas: the Responses tools payload and its size)', async () => (await import('./tools-command.js')).toolsCommand),
];
