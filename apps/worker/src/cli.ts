#!/usr/bin/env node
// The `ankole` command (dist/cli.js). The command line itself is bundled as CommonJS (dist/cli-main.cjs and its
// chunks, see build-cli.mjs) so that it can load through a V8 code cache: on Node 20 most of a short command's
// time would otherwise go to compiling the same code again on every start.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileCacheFolder, installCompileCache } from './install-compile-cache.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const command = process.argv[2];
installCompileCache({
  codeFolder: here,
  cacheFolder: compileCacheFolder(process.env),
  // One cache per command: each keeps the functions its own runs compiled.
  ...(command === undefined || command.startsWith('-') ? {} : { variant: command }),
  // PGlite, QuickJS and mcporter, imported by the command line at their first use; resolved from this folder.
  importModule: (specifier) => import(specifier),
});
createRequire(import.meta.url)('./cli-main.cjs');
