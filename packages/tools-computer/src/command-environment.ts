import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The PATH commands get when the worker gives none. */
export const DEFAULT_COMMAND_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

let binDir: string | undefined;

/** The folder holding this package's `mcporter` launcher, put first on every command's PATH. */
export function mcporterBinDir(): string {
  // Found through the package's own name, not this file's place: the same folder when a program bundles this code.
  // Resolved once: a package's place does not change while the process runs, and resolving costs ~1 ms a command.
  binDir ??= path.join(path.dirname(createRequire(import.meta.url).resolve('@core/tools-computer/package.json')), 'bin');
  return binDir;
}

/** Where the home's mcporter config lives: `<home>/config/mcporter.json`. */
export function mcporterConfigPath(home: string): string {
  return path.join(home, 'config', 'mcporter.json');
}

/**
 * The environment a command runs with: exactly the variables the worker allows (`allowed`), plus
 * `HOME` (always the agent home), `LANG`, `TERM=dumb`, `NO_COLOR`, `PAGER=cat`, and a `PATH` made of
 * this package's `mcporter` launcher folder, the running Node's folder, and the allowed `PATH`
 * (or `DEFAULT_COMMAND_PATH`). `MCPORTER_CONFIG` points at the home's mcporter config when it exists.
 * Nothing of the worker's own environment is passed on.
 */
export function commandEnvironment(home: string, allowed: Readonly<Record<string, string>> = {}): Record<string, string> {
  const basePath = allowed.PATH ?? DEFAULT_COMMAND_PATH;
  const pathParts = [mcporterBinDir(), path.dirname(process.execPath), ...basePath.split(path.delimiter)].filter((part) => part !== '');
  const environment: Record<string, string> = {
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    ...allowed,
    HOME: home,
    PATH: [...new Set(pathParts)].join(path.delimiter),
  };
  const config = mcporterConfigPath(home);
  if (allowed.MCPORTER_CONFIG === undefined && existsSync(config)) environment.MCPORTER_CONFIG = config;
  return environment;
}
