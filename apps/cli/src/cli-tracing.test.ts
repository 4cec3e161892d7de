import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readmeExample } from '@core/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLI_PATH } from './__fixtures__/spawn-cli.js';

/*
 * The README's tracing.mjs, written as it is there, loaded into the built CLI with NODE_OPTIONS="--import …", and
 * an OTLP/HTTP collector on 127.0.0.1 that keeps what it is sent: the offline demo turn arrives as spans.
 */
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let scratch: string;
let collector: Server;
const batches: unknown[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-tracing-'));
  // tracing.mjs imports the SDK "installed beside it": this package's node_modules.
  await symlink(path.join(packageDir, 'node_modules'), path.join(scratch, 'node_modules'));
  await writeFile(path.join(scratch, 'tracing.mjs'), readmeExample(path.join(packageDir, 'README.md'), 'Tracing with OpenTelemetry'));
  collector = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces') batches.push(JSON.parse(body));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await new Promise((resolve) => collector.close(resolve));
  await rm(scratch, { recursive: true, force: true });
});

interface OtlpSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number; boolValue?: boolean } }[];
}

function spansOf(batch: unknown): OtlpSpan[] {
  const resourceSpans = (batch as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans;
  return resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
}

function attribute(span: OtlpSpan, key: string): string | number | boolean | undefined {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue)) ?? value?.boolValue;
}

it("the README's tracing.mjs sends a demo turn's spans to the collector before the CLI exits", async () => {
  const { port } = collector.address() as AddressInfo;
  const home = await mkdtemp(path.join(scratch, 'home-'));
  const child = spawn(process.execPath, [CLI_PATH, 'run', '--demo', '--json', '--home', home], {
    cwd: scratch,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: scratch,
      XDG_DATA_HOME: scratch,
      XDG_CONFIG_HOME: scratch,
      NODE_OPTIONS: '--import ./tracing.mjs',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.resume();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code, stderr).toBe(0);

  const spans = batches.flatMap(spansOf);
  const turns = spans.filter((span) => span.name === 'invoke_agent default');
  expect(turns).toHaveLength(1);
  const turn = turns[0]!;
  expect(attribute(turn, 'gen_ai.operation.name')).toBe('invoke_agent');
  expect(attribute(turn, 'ankole.turn.end_reason')).toBe('completed');
  const chats = spans.filter((span) => span.name.startsWith('chat '));
  const tools = spans.filter((span) => span.name.startsWith('execute_tool '));
  expect(chats.length).toBe(attribute(turn, 'ankole.turn.steps'));
  expect(tools.length).toBeGreaterThan(3);
  for (const span of [...chats, ...tools]) expect(span.parentSpanId).toBe(turn.spanId);
  expect(tools.map((span) => attribute(span, 'gen_ai.tool.name'))).toContain('todo_write');
  expect(tools.every((span) => typeof attribute(span, 'ankole.tool.label') === 'string')).toBe(true);
}, 90_000);

it('with no SDK registered, a turn loads no OpenTelemetry module', async () => {
  const home = await mkdtemp(path.join(scratch, 'home-'));
  const loaded = path.join(scratch, 'loaded.txt');
  // Module hooks that note every OpenTelemetry module the process loads, in a file.
  await writeFile(
    path.join(scratch, 'hooks.mjs'),
    "import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  if (url.includes('opentelemetry')) appendFileSync(process.env.LOADED_FILE, url + '\\n');\n  return next(url, context);\n}\n",
  );
  await writeFile(path.join(scratch, 'loaded.txt'), '');
  // The CLI's own code is CommonJS (loaded through its compile cache), which ES module hooks do not see: the
  // CommonJS module cache is checked too, when the process exits.
  await writeFile(
    path.join(scratch, 'probe.mjs'),
    "import { Module, register } from 'node:module';\nimport { appendFileSync } from 'node:fs';\nregister('./hooks.mjs', import.meta.url);\n" +
      "process.on('exit', () => { for (const file of Object.keys(Module._cache)) if (file.includes('opentelemetry')) appendFileSync(process.env.LOADED_FILE, file + '\\n'); });\n",
  );
  const child = spawn(process.execPath, ['--import', path.join(scratch, 'probe.mjs'), CLI_PATH, 'run', '--demo', '--json', '--home', home], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch, XDG_DATA_HOME: scratch, XDG_CONFIG_HOME: scratch, LOADED_FILE: loaded },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.resume();
  expect(await new Promise<number | null>((resolve) => child.on('close', resolve)), stderr).toBe(0);
  expect(await readFile(loaded, 'utf8')).toBe('');
}, 90_000);
