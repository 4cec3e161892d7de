import { homedir } from 'node:os';
import path from 'node:path';

/**
 * Where the embedded database lives by default: `$XDG_DATA_HOME/ankole/pglite`, else
 * `~/.local/share/ankole/pglite`.
 */
export function defaultDataDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const dataHome = env.XDG_DATA_HOME !== undefined && env.XDG_DATA_HOME !== '' ? env.XDG_DATA_HOME : path.join(homedir(), '.local', 'share');
  return path.join(dataHome, 'ankole', 'pglite');
}
