#!/usr/bin/env node
// The `ankole` command (dist/cli.js). The command line itself is bundled as CommonJS (dist/cli-main.cjs and its
// chunks, see build-cli.mjs) so that it can load through a V8 code cache: on Node 20 most of a short command's
// time would otherwise go to compiling the same code again on every start.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { compileCacheFolder, installCompileCache } from './install-compile-cache.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const command = process.argv[2];
// WebAssembly in a command that soon ends is compiled by V8's baseline compiler only: the optimizing tier's work on
// the HTTP parser of Node's fetch (undici's llhttp) alone took about 26 MiB of a demo turn's 100 MiB, for code that
// runs a few milliseconds. The long-running commands keep it (PGlite, QuickJS run for hours there). Set before any
// code is compiled, so the compile cache's code always matches these flags.
if (command !== 'worker' && command !== 'serve') v8.setFlagsFromString('--liftoff-only');
installCompileCache({
  codeFolder: here,
  cacheFolder: compileCacheFolder(process.env),
  // One cache per command: each keeps the functions its own runs compiled.
  ...(command === undefined || command.startsWith('-') ? {} : { variant: command }),
  // PGlite, QuickJS and mcporter, imported by the command line at their first use; resolved from this folder.
  importModule: (specifier) => import(specifier),
});
createRequire(import.meta.url)('./cli-main.cjs');
