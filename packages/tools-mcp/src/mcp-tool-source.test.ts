import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRuntime, type Runtime } from 'mcporter';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isProcessAlive as isAlive, waitFor } from '@core/testkit';
import { everythingServer, serverEverythingEntry, stdioServer } from './__fixtures__/mcp-servers.js';
import { createMcpTools } from './create-mcp-tools.js';
import { createMcpToolSource, type McpToolSource } from './mcp-tool-source.js';
import { SERVER_BASE_VARIABLES } from './server-environment.js';

let dir: string;
let source: McpToolSource;
let reference: Runtime;
const warnings: string[] = [];
const call = { signal: new AbortController().signal, callId: 'call_1', toolName: 'x' };

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'ankole-mcp-'));
  source = createMcpToolSource({
    servers: [everythingServer('everything', dir, path.join(dir, 'everything.pid'), 'Echo, sums and test content.')],
    logger: { warn: (message) => warnings.push(message) },
  });
  reference = await createRuntime({ servers: [everythingServer('everything', dir, path.join(dir, 'reference.pid'))], logger: { info() {}, warn() {}, error() {} } });
});
afterAll(async () => {
  await source.close();
  await reference.close();
  await rm(dir, { recursive: true, force: true });
});

describe('createMcpToolSource against server-everything', () => {
  test('every tool is namespaced by the server, with its input schema unchanged', async () => {
    const { tools, unavailable } = await source.tools();
    expect(unavailable).toEqual([]);
    const listed = await reference.listTools('everything', { includeSchema: true });
    expect(tools.map((tool) => tool.name)).toEqual(listed.map((tool) => tool.name));
    for (const [index, tool] of tools.entries()) {
      expect(tool.namespace).toBe('everything');
      expect(tool.namespaceDescription).toBe('Echo, sums and test content.');
      expect(tool.jsonSchema).toEqual(listed[index]?.inputSchema);
      expect(tool.description).toBe(listed[index]?.description);
      expect(tool.deferLoading).toBe(false);
    }
  });

  test('read-only and destructive flags follow the annotations; only read-only tools run in parallel', async () => {
    const context = await reference.connect('everything');
    const { tools: full } = await context.client.listTools();
    const { tools } = await source.tools();
    for (const tool of tools) {
      const annotations = full.find((item) => item.name === tool.name)?.annotations ?? {};
      expect(tool.isReadOnly, tool.name).toBe(annotations.readOnlyHint === true);
      expect(tool.isDestructive, tool.name).toBe(annotations.readOnlyHint !== true && annotations.destructiveHint !== false);
      expect(tool.executionMode, tool.name).toBe(tool.isReadOnly ? 'parallel' : 'sequential');
    }
    expect(tools.some((tool) => tool.isReadOnly)).toBe(true);
    expect(tools.some((tool) => !tool.isReadOnly)).toBe(true);
  });

  test('calls run on the server; isError results become error outputs', async () => {
    const { tools } = await source.tools();
    const sum = tools.find((tool) => tool.name === 'get-sum');
    const result = await sum?.execute({ a: 2, b: 40 }, call);
    expect(result).toMatchObject({ content: 'The sum of 2 and 40 is 42.', isError: false, details: { server: 'everything', tool: 'get-sum' } });
    expect(sum?.describeActivity({})).toBe('Calling everything.get-sum');
    const bad = await sum?.execute({ a: 'two' }, call);
    expect(bad?.isError).toBe(true);
    expect(String(bad?.content)).toMatch(/Invalid arguments for tool get-sum/);
    expect(sum?.describeCompletedActivity?.({}, bad!)).toBe('Called everything.get-sum (error)');
  });

  test('images come back as input_image parts', async () => {
    const { tools } = await source.tools();
    const image = await tools.find((tool) => tool.name === 'get-tiny-image')?.execute({}, call);
    expect(Array.isArray(image?.content)).toBe(true);
    const parts = image?.content as Array<{ type: string; image_url?: string }>;
    expect(parts.some((part) => part.type === 'input_image' && part.image_url?.startsWith('data:image/png;base64,iVBORw0KGgo'))).toBe(true);
  });

  test('tool lists are cached per source, and refreshed on request', async () => {
    const first = await source.tools();
    const second = await source.tools();
    expect(second.tools[0]).toBe(first.tools[0]);
    const refreshed = await source.tools({ refresh: true });
    expect(refreshed.tools[0]).not.toBe(first.tools[0]);
    expect(refreshed.tools[0]?.jsonSchema).toEqual(first.tools[0]?.jsonSchema);
    const named = await source.tools({ refresh: ['everything'] });
    expect(named.tools[0]).not.toBe(refreshed.tools[0]);
  });
});

describe('deferral, names and servers that are down', () => {
  test('a server with more tools than the threshold has them all deferred', async () => {
    const tools = await createMcpTools({ servers: [everythingServer('everything', dir, path.join(dir, 'deferred.pid'))], deferThreshold: 3, logger: { warn() {} } });
    try {
      expect(tools.tools.length).toBeGreaterThan(3);
      expect(tools.tools.every((tool) => tool.deferLoading)).toBe(true);
    } finally {
      await tools.close();
    }
  });

  test('a server name outside [a-zA-Z0-9_-] becomes a valid namespace', async () => {
    const tools = await createMcpTools({ servers: [everythingServer('my.server v2', dir, path.join(dir, 'named.pid'))], logger: { warn() {} } });
    try {
      expect(new Set(tools.tools.map((tool) => tool.namespace))).toEqual(new Set(['my_server_v2']));
      expect(tools.tools[0]?.namespaceDescription?.length).toBeGreaterThan(0);
      expect(tools.tools[0]?.describeActivity({})).toMatch(/^Calling my\.server v2\./);
    } finally {
      await tools.close();
    }
  });

  test('servers that are down are left out with a logged reason; the others still work; nothing throws', async () => {
    const logged: string[] = [];
    const tools = await createMcpTools({
      servers: [
        stdioServer('missing', '/nonexistent/mcp-server', [], dir),
        stdioServer('crashes', process.execPath, ['-e', 'process.exit(3)'], dir),
        everythingServer('everything', dir, path.join(dir, 'mixed.pid')),
      ],
      logger: { warn: (message) => logged.push(message) },
    });
    try {
      expect(tools.unavailable.map((problem) => problem.server).sort()).toEqual(['crashes', 'missing']);
      expect(tools.unavailable.find((problem) => problem.server === 'missing')?.reason).toMatch(/MCP server "missing" is unavailable; its tools are left out of this turn: .*ENOENT/);
      expect(logged).toHaveLength(2);
      expect(new Set(tools.tools.map((tool) => tool.namespace))).toEqual(new Set(['everything']));
    } finally {
      await tools.close();
    }
  });

  test('a server that never answers is given up after the listing timeout', async () => {
    // A marker in its command line finds the server's process even when a busy machine gives up on it before it
    // could write its pid anywhere.
    const marker = `1000.${process.pid}${Date.now() % 100_000}`;
    const source = createMcpToolSource({
      servers: [stdioServer('hangs', 'bash', ['-c', `exec sleep ${marker}`], dir)],
      listTimeoutMs: 1_500,
      closeTimeoutMs: 200,
      logger: { warn() {} },
    });
    try {
      const set = await source.tools();
      expect(set.tools).toEqual([]);
      expect(set.unavailable[0]?.reason).toMatch(/listing its tools took longer than 1500 ms/);
      // Its process is stopped now, not after the SDK's 60 s handshake timeout.
      await waitFor(() => (processesWithArgument(marker).length === 0 ? true : undefined), 10_000);
    } finally {
      await source.close();
      for (const pid of processesWithArgument(marker)) process.kill(pid, 'SIGKILL');
    }
  });

  test('close() during a listing stuck in the handshake stops the server at once and the turn still gets its answer', async () => {
    const pidFile = path.join(dir, 'stuck.pid');
    const stuck = createMcpToolSource({
      servers: [stdioServer('stuck', 'bash', ['-c', `echo $$ > '${pidFile}'; exec sleep 1000`], dir)],
      listTimeoutMs: 120_000,
      // Longer than the test: a close that waited for the SDK's 60 s handshake timeout would fail it.
      closeTimeoutMs: 120_000,
      logger: { warn() {} },
    });
    const listing = stuck.tools();
    const pid = Number(await waitFor(() => (existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '' ? readFileSync(pidFile, 'utf8') : undefined)));
    try {
      await stuck.close();
      expect(isAlive(pid)).toBe(false);
      const set = await listing;
      expect(set.tools).toEqual([]);
      expect(set.unavailable.map((problem) => problem.server)).toEqual(['stuck']);
    } finally {
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  test("stdio servers see a scrubbed environment: their own env, the allowed variables, the SDK's safe basics; no worker secret", async () => {
    process.env.ANKOLE_WORKER_SECRET = 'do-not-leak';
    process.env.ANKOLE_PASSED = 'via-placeholder';
    const sources: McpToolSource[] = [];
    try {
      const environmentOf = async (extra: Parameters<typeof createMcpToolSource>[0]) => {
        // Node directly (no bash wrapper, whose start-up files may add variables of their own).
        const server = { ...stdioServer('everything', process.execPath, [serverEverythingEntry(), 'stdio'], dir), env: { OWN_SETTING: 'own', FROM_WORKER: '${ANKOLE_PASSED}' } };
        const created = createMcpToolSource({ servers: [server], logger: { warn() {} }, ...extra });
        sources.push(created);
        const { tools } = await created.tools();
        const result = await tools.find((tool) => tool.name === 'get-env')?.execute({}, call);
        return JSON.parse(String(result?.content)) as Record<string, string>;
      };
      const scrubbed = await environmentOf({ env: { ALLOWED_VAR: 'visible' } });
      expect(scrubbed).toMatchObject({ ALLOWED_VAR: 'visible', OWN_SETTING: 'own', FROM_WORKER: 'via-placeholder' });
      const basics = SERVER_BASE_VARIABLES.filter((name) => process.env[name] !== undefined);
      const expected = [...basics, 'ALLOWED_VAR', 'OWN_SETTING', 'FROM_WORKER', 'ANKOLE_MCP_SERVER_ID'].sort();
      expect(Object.keys(scrubbed).sort()).toEqual(expected);
      expect(JSON.stringify(scrubbed)).not.toContain('do-not-leak');
      // inheritEnv gives the worker's whole environment back (mcporter's own behaviour).
      const inherited = await environmentOf({ inheritEnv: true });
      expect(inherited.ANKOLE_WORKER_SECRET).toBe('do-not-leak');
    } finally {
      delete process.env.ANKOLE_WORKER_SECRET;
      delete process.env.ANKOLE_PASSED;
      await Promise.all(sources.map((item) => item.close()));
    }
  });

  test('a config that cannot be loaded leaves every MCP tool out, without throwing', async () => {
    const logged: string[] = [];
    const tools = await createMcpTools({ configPath: path.join(dir, 'missing.json'), logger: { warn: (message) => logged.push(message) } });
    expect(tools.tools).toEqual([]);
    expect(tools.unavailable[0]?.reason).toMatch(/could not be loaded/);
    expect(logged).toHaveLength(1);
    await tools.close();
  });

  test('concurrent turns share one listing and one server process', async () => {
    const log = path.join(dir, 'spawned.log');
    const shared = createMcpToolSource({
      servers: [stdioServer('everything', 'bash', ['-c', `echo $$ >> '${log}'; exec node '${serverEverythingEntry()}' stdio`], dir)],
      logger: { warn() {} },
    });
    try {
      const [first, second] = await Promise.all([shared.tools(), shared.tools()]);
      expect(second.tools[0]).toBe(first.tools[0]);
      expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(1);
    } finally {
      await shared.close();
    }
  });

  test('close stops the stdio server processes', async () => {
    const pidFile = path.join(dir, 'closing.pid');
    const tools = await createMcpTools({ servers: [everythingServer('everything', dir, pidFile)], logger: { warn() {} } });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(isAlive(pid)).toBe(true);
    await tools.close();
    await waitFor(() => (isAlive(pid) ? undefined : true), 5_000);
    expect(isAlive(pid)).toBe(false);
  });
});

/** The pids of this machine's processes with `argument` in their command line (from /proc). */
function processesWithArgument(argument: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(argument)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}
