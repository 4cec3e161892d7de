import type { CliCommand } from '../cli-command.js';

/** A command whose module is imported only when it runs, so `ankole --help` starts fast. */
function lazyCommand(name: string, summary: string, load: () => Promise<CliCommand>): CliCommand {
  return { name, summary, run: async (args, io) => (await load()).run(args, io) };
}

/**
 * The `ankole` commands, in the order `ankole --help` lists them. A new command is one file exporting a
 * `CliCommand` (here, or under `worker/commands/` for the control-plane commands), added to this table.
 */
export const COMMANDS: readonly CliCommand[] = [
  lazyCommand('run', 'run one text turn (the offline demo model when OPENAI_API_KEY is not set)', async () => (await import('./run-command.js')).runCommand),
  lazyCommand('tools', 'show the tool set a turn would get (--schemas: the Responses tools payload and its size)', async () => (await import('./tools-command.js')).toolsCommand),
  lazyCommand(
    'worker',
    'run scheduled turns, background jobs and workflows from the queue until stopped (SIGTERM / Ctrl-C)',
    async () => (await import('./worker-command.js')).workerCommand,
  ),
  lazyCommand('serve', 'serve the control plane over HTTP for remote workers and commands (bearer tokens)', async () => (await import('./serve-command.js')).serveCommand),
  lazyCommand('tokens', 'create, list or revoke bearer tokens for `ankole serve`', async () => (await import('./tokens-command.js')).tokensCommand),
  lazyCommand('jobs', 'list, show, cancel or start background jobs', async () => (await import('./jobs-command.js')).jobsCommand),
  lazyCommand(
    'approvals',
    'list, show, approve or deny calls that background jobs hold for approval',
    async () => (await import('./approvals-command.js')).approvalsCommand,
  ),
  lazyCommand(
    'schedules',
    'list, cancel or create schedules that start turns later',
    async () => (await import('./schedules-command.js')).schedulesCommand,
  ),
  lazyCommand(
    'workflows',
    'start, list, show or cancel workflows (scripts that orchestrate sub-agent tasks)',
    async () => (await import('./workflows-command.js')).workflowsCommand,
  ),
  lazyCommand('brain', "list, search, show or import an agent's Brain pages (Markdown knowledge)", async () => (await import('./brain-command.js')).brainCommand),
  lazyCommand(
    'conversations',
    'list or show the conversations of ankole run (go on with one: ankole run --continue / --resume ID)',
    async () => (await import('./conversations-command.js')).conversationsCommand,
  ),
  lazyCommand('config', 'show the effective settings (config files, environment, defaults) and where each comes from', async () => (await import('./config-command.js')).configCommand),
];
