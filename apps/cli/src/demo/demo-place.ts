import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveAgentHome } from '../cli/agent-home.js';
import type { CliIO } from '../cli/cli-io.js';
import type { ParsedCommandLine } from '../cli/parse-command-line.js';

/** Where an offline demo turn works, and how to clean up after it. */
export interface DemoPlace {
  /** The options, without a `--home` the demo must not write into. */
  values: ParsedCommandLine['values'];
  /** The environment with `XDG_DATA_HOME` in the temporary folder: the default home, conversations and database. */
  io: CliIO;
  /** What the first line adds: the folder left untouched and a `--model` that needs a key (empty when neither). */
  notice: string;
  /** Removes the temporary folder. */
  remove(): Promise<void>;
}

/**
 * The offline demo touches nothing real: its conversation, the agent's default home and any embedded database live in
 * a new temporary folder (removed after the turn), so no demo turn piles into a real agent. A `--home` is written only
 * when the demo was asked for (`--demo`, or no prompt: the scripted demo); a prompt without a key (a real model's
 * command, e.g. the README's) leaves that folder untouched and says so, as it says that `--model` needs a key.
 * @throws CliError when such a `--home` could not be a home (missing, a file, the root, not writable).
 */
export async function demoPlace(options: { values: ParsedCommandLine['values']; io: CliIO; prompt: string; modelName: string | undefined }): Promise<DemoPlace> {
  const { home, ...others } = options.values;
  const askedForDemo = options.values.demo === true || options.prompt === '';
  const keepHome = typeof home === 'string' && askedForDemo;
  // A --home that cannot be one is the same mistake with or without a key: said before anything runs.
  if (typeof home === 'string' && !keepHome) await resolveAgentHome({ agent: 'default', cwd: options.io.cwd, env: options.io.env, home });
  const folder = await mkdtemp(join(tmpdir(), 'ankole-demo-'));
  const notes: string[] = [];
  if (typeof home === 'string' && !keepHome) notes.push(`${home} is left untouched`);
  if (options.modelName !== undefined && options.values.demo !== true) notes.push(`--model ${options.modelName} needs OPENAI_API_KEY`);
  const where = keepHome ? '' : ' It works in a temporary folder, removed after the turn.';
  return {
    values: keepHome ? options.values : others,
    // The properties as they are (getters stay getters: `stdinIsTTY` opens standard input only when asked).
    io: Object.defineProperties({}, {
      ...Object.getOwnPropertyDescriptors(options.io),
      env: { value: { ...options.io.env, XDG_DATA_HOME: folder }, enumerable: true, writable: true, configurable: true },
    }) as CliIO,
    notice: `${where}${notes.length === 0 ? '' : ` (${notes.join('; ')}.)`}`,
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}
