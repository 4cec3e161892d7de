import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { ServerDefinition } from 'mcporter';

/**
 * The worker variables every stdio server keeps: the MCP SDK's own safe default set
 * (`DEFAULT_INHERITED_ENV_VARS` on POSIX). Nothing else of the worker's environment is passed on
 * unless `inheritEnv` is set.
 */
export const SERVER_BASE_VARIABLES: readonly string[] = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

/** The environment variable that marks the processes of one stdio server (its value is unique per server and source). */
export const SERVER_MARKER_VARIABLE = 'ANKOLE_MCP_SERVER_ID';

/** How `serverWithEnvironment` prepares a stdio server. */
export interface ServerEnvironmentOptions {
  /** Marks the server's processes (`ANKOLE_MCP_SERVER_ID=<markerId>`), so they can be found and stopped. */
  markerId: string;
  /** Variables the worker allows servers to see, on top of `SERVER_BASE_VARIABLES` and the server's own `env`. */
  allowed?: Readonly<Record<string, string>> | undefined;
  /** Pass the worker's whole environment instead (mcporter's own behaviour). */
  inheritEnv?: boolean | undefined;
  /** The worker's environment at the time (default `process.env`). */
  workerEnv?: NodeJS.ProcessEnv;
}

/**
 * A stdio server definition whose process sees a scrubbed environment: its own `env` entries (with
 * mcporter's `${VAR}` placeholders, resolved from the worker's environment as usual), the `allowed`
 * variables, and `SERVER_BASE_VARIABLES`; every other variable of the worker is removed. mcporter always
 * spawns stdio servers with the worker's whole environment, so the server is started through
 * `env -u NAME … NAME=VALUE … <command> <args>`, which execs the command in place (no extra process).
 * Variables the worker sets after this call are not removed. HTTP servers are returned unchanged, and so
 * is a stdio server whose command cannot be found (it cannot start, and mcporter's ENOENT error says why).
 */
export function serverWithEnvironment(definition: ServerDefinition, options: ServerEnvironmentOptions): ServerDefinition {
  if (definition.command.kind !== 'stdio') return definition;
  const own = { ...definition.env, [SERVER_MARKER_VARIABLE]: options.markerId };
  if (options.inheritEnv === true) return { ...definition, env: own };
  const allowed = options.allowed ?? {};
  const workerEnv = options.workerEnv ?? process.env;
  const { command, cwd } = definition.command;
  if (!command.includes('$') && findExecutable(command, allowed.PATH ?? workerEnv.PATH ?? '', cwd) === undefined) return { ...definition, env: own };
  const kept = new Set([...SERVER_BASE_VARIABLES, ...Object.keys(own)]);
  const unset = Object.keys(workerEnv).filter((name) => !kept.has(name) && !(name in allowed));
  const assignments = Object.entries(allowed)
    .filter(([name]) => !(name in own))
    .map(([name, value]) => `${name}=${value}`);
  return {
    ...definition,
    env: own,
    command: {
      ...definition.command,
      command: 'env',
      args: [...unset.flatMap((name) => ['-u', name]), ...assignments, definition.command.command, ...definition.command.args],
    },
  };
}

/** The executable a command name runs (`execvp` rules: a name with `/` is a path, else looked up in PATH), or undefined. */
function findExecutable(command: string, searchPath: string, cwd: string): string | undefined {
  const candidates = command.includes('/')
    ? [path.resolve(cwd, command)]
    : searchPath
        .split(path.delimiter)
        .filter((folder) => folder !== '')
        .map((folder) => path.join(path.resolve(cwd, folder), command));
  return candidates.find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
}
