import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

/** Options of `installCompileCache`. */
export interface CompileCacheOptions {
  /** The folder whose CommonJS files (`*.cjs`, not in a subfolder) are compiled through the cache. */
  codeFolder: string;
  /** Where compiled code is kept; `undefined`: no cache (the files load as usual). */
  cacheFolder: string | undefined;
  /** Separates caches filled by different uses (e.g. the CLI command), so each keeps the functions it runs. */
  variant?: string;
  /**
   * Dynamic `import()` for the compiled files, handed to them as `__ankoleImport` (build-cli.mjs rewrites their
   * `import("package")` of external packages to use it): code V8 restores from a cache has lost the link to Node's
   * module loader (in Node 20 it fails with ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), so the import is made by the
   * caller's own code, compiled by Node. Bare specifiers resolve from the caller's file: keep it in `codeFolder`.
   */
  importModule: (specifier: string) => Promise<unknown>;
}

// Node's CommonJS wrapper, with one more parameter: the files' dynamic import (see `importModule`).
const WRAPPER_START = '(function (exports, require, module, __filename, __dirname, __ankoleImport) { ';
const WRAPPER_END = '\n});';

interface Pending {
  script: vm.Script;
  cacheFile: string;
}

/** A cache file's name: the code file's name, its size and modification time. */
const CACHE_FILE = /^(.+)\.(\d+)-(\d+)\.v8$/;

/**
 * A V8 code cache for this process's own CommonJS bundle (Node 20 has no `module.enableCompileCache`, which
 * came in Node 22). Each `*.cjs` file of `codeFolder` is compiled with the code V8 produced for it in an earlier
 * run, when there is one for the same file (name, size, modification time) and the same Node, so neither the
 * parse nor the functions that run have to be compiled again. Files without usable code are compiled from
 * source and, when the process exits, their code, with every function compiled by then, is written (temp file
 * and rename: processes starting at once do not see half a file). Anything the cache cannot do (a folder it
 * cannot create or write, a damaged file) only means compiling from source, never an error.
 *
 * Patches `Module.prototype._compile` for the files of `codeFolder` only; everything else loads as usual.
 */
export function installCompileCache(options: CompileCacheOptions): void {
  const { cacheFolder } = options;
  if (cacheFolder === undefined) return;
  const folder = path.join(cacheFolder, `${process.version}-${process.arch}`, sanitize(options.variant ?? 'default'));
  const codeFolder = path.resolve(options.codeFolder) + path.sep;
  const pending: Pending[] = [];
  const moduleProto = Module.prototype as unknown as { _compile(content: string, filename: string): unknown };
  const compile = moduleProto._compile;

  moduleProto._compile = function compileThroughCache(this: Module, content: string, filename: string): unknown {
    if (!filename.startsWith(codeFolder) || !filename.endsWith('.cjs') || filename.slice(codeFolder.length).includes(path.sep)) {
      return compile.call(this, content, filename);
    }
    const name = path.basename(filename);
    let cacheFile: string;
    try {
      const { size, mtimeMs } = statSync(filename);
      cacheFile = path.join(folder, `${name}.${size}-${Math.trunc(mtimeMs)}.v8`);
    } catch {
      return compile.call(this, content, filename);
    }
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
    const script = new vm.Script(`${WRAPPER_START}${content}${WRAPPER_END}`, { filename, ...(cachedData === undefined ? {} : { cachedData }) });
    // No cached code, or V8 refused it: this file's code is written when the process exits.
    if (cachedData === undefined || script.cachedDataRejected === true) pending.push({ script, cacheFile });
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    const require = Module.createRequire(filename);
    return wrapper.call(this.exports, this.exports, require, this, filename, path.dirname(filename), options.importModule);
  };

  process.once('exit', () => {
    if (pending.length === 0) return;
    try {
      mkdirSync(folder, { recursive: true });
    } catch {
      return;
    }
    const current = new Set<string>();
    for (const { script, cacheFile } of pending) {
      try {
        const temporary = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(temporary, script.createCachedData());
        renameSync(temporary, cacheFile);
        current.add(path.basename(cacheFile));
      } catch {
        // An unwritable cache only means compiling from source next time.
      }
    }
    pruneStaleCode(folder, codeFolder, current);
  });
}

/**
 * Removes the code of files that are gone or changed (an upgrade, a rebuild: chunk names carry a content hash), and
 * temp files of processes that died while writing; `written` are the files just written.
 */
function pruneStaleCode(folder: string, codeFolder: string, written: ReadonlySet<string>): void {
  try {
    for (const entry of readdirSync(folder)) {
      if (written.has(entry)) continue;
      const match = CACHE_FILE.exec(entry);
      let stale = match === null;
      if (match !== null) {
        try {
          const { size, mtimeMs } = statSync(path.join(codeFolder, match[1]!));
          stale = String(size) !== match[2] || String(Math.trunc(mtimeMs)) !== match[3];
        } catch {
          stale = true;
        }
      }
      // A temp file younger than a minute may belong to a process writing right now.
      if (stale && (!entry.endsWith('.tmp') || Date.now() - statSync(path.join(folder, entry)).mtimeMs > 60_000)) {
        rmSync(path.join(folder, entry), { force: true });
      }
    }
  } catch {
    // Pruning is housekeeping: a folder that cannot be listed stays as it is.
  }
}

/**
 * The cache folder of the `ankole` CLI: `ANKOLE_COMPILE_CACHE` when it names a folder (`off` turns the cache
 * off), else `$XDG_CACHE_HOME/ankole/compile-cache`, else `~/.cache/ankole/compile-cache`.
 */
export function compileCacheFolder(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const setting = env.ANKOLE_COMPILE_CACHE?.trim();
  if (setting !== undefined && setting !== '') return /^(off|0|false|no)$/i.test(setting) ? undefined : path.resolve(setting);
  const xdg = env.XDG_CACHE_HOME?.trim();
  const base = xdg !== undefined && path.isAbsolute(xdg) ? xdg : homeCache(env);
  return base === undefined ? undefined : path.join(base, 'ankole', 'compile-cache');
}

function homeCache(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const home = env.HOME?.trim() || safeHomedir();
  return home === undefined || home === '' ? undefined : path.join(home, '.cache');
}

function safeHomedir(): string | undefined {
  try {
    return os.homedir();
  } catch {
    return undefined;
  }
}

function sanitize(variant: string): string {
  return /^[a-z][a-z0-9-]{0,31}$/.test(variant) ? variant : 'default';
}
