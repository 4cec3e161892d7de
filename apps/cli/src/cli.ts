#!/usr/bin/env node
// The `ankole` command (dist/ankole.cjs; dist/cli.js loads it too). The command line itself is bundled as CommonJS
// (dist/cli-main.cjs and its chunks, see build-cli.mjs) so that it can load through a V8 code cache: on Node 20 most
// of a short command's time would otherwise go to compiling the same code again on every start.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileCacheFolder, installCompileCache } from './install-compile-cache.js';

/** Long-running commands, and those that never compile WebAssembly (no fetch, no PGlite), or print help. */
const NO_LIFTOFF_ONLY = new Set(['worker', 'serve', 'tools', 'config', 'help']);
const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const command = process.argv[2];
const variant = command === undefined || command.startsWith('-') ? undefined : command;
// WebAssembly in a command that soon ends is compiled by V8's baseline compiler only: the optimizing tier's work on
// the HTTP parser of Node's fetch (undici's llhttp) alone took about 26 MiB of a demo turn's 100 MiB, for code that
// runs a few milliseconds. The long-running commands keep it (PGlite and QuickJS run for hours there), and those that
// never compile any (node:v8 itself costs a few ms) skip it. Set before any code is compiled, so the compile cache's
// code always matches the flags.
if (variant !== undefined && !NO_LIFTOFF_ONLY.has(variant)) (require('node:v8') as typeof import('node:v8')).setFlagsFromString('--liftoff-only');
installCompileCache({
  codeFolder: here,
  cacheFolder: compileCacheFolder(process.env),
  // One cache per command: each keeps the functions its own runs compiled.
  ...(variant === undefined ? {} : { variant }),
  // PGlite, QuickJS and mcporter, imported by the command line at their first use; resolved from this folder.
  importModule: (specifier) => import(specifier),
});
require('./cli-main.cjs');
