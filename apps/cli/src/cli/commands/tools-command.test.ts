import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeMcpConfig } from '../../__fixtures__/mcp-config.js';
import { runCliProcess } from '../../__fixtures__/spawn-cli.js';

let scratch: string;
let env: Record<string, string>;

beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-tools-'));
  env = { HOME: scratch, XDG_DATA_HOME: path.join(scratch, 'data') };
});

afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('ankole tools', () => {
  it('lists the tool set in assembly order with namespace, mode, access and deferral', async () => {
    const { code, stdout } = await runCliProcess(['tools', '--home', scratch], env);
    expect(code).toBe(0);
    const rows = stdout.split('\n').slice(0, 8);
    expect(rows[0]).toMatch(/^NAME\s+NAMESPACE\s+MODE\s+ACCESS\s+DEFERRED$/);
    expect(rows.slice(1).map((row) => row.split(/\s+/))).toEqual([
      ['todo_write', '-', 'sequential', 'writes', 'no'],
      ['command', '-', 'sequential', 'destructive', 'no'],
      ['read_file', '-', 'parallel', 'read-only', 'no'],
      ['list_files', '-', 'parallel', 'read-only', 'no'],
      ['search_files', '-', 'parallel', 'read-only', 'no'],
      ['write_file', '-', 'sequential', 'destructive', 'no'],
      ['edit_file', '-', 'sequential', 'destructive', 'no'],
    ]);
  });

  it('adds the web tools only when a web profile is bound', async () => {
    const bound = await runCliProcess(['tools', '--home', scratch, '--json', '--web-search', 'searxng'], { ...env, SEARXNG_URL: 'http://127.0.0.1:1' });
    expect(bound.code).toBe(0);
    const names = (JSON.parse(bound.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(names.slice(-2)).toEqual(['web_search', 'web_fetch']);

    const fetchOnly = await runCliProcess(['tools', '--home', scratch, '--json', '--web-fetch'], env);
    expect((JSON.parse(fetchOnly.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name).at(-1)).toBe('web_fetch');
  });

  it("adds the tools of configured MCP servers last, namespaced by server; a server that is down is left out with a warning", async () => {
    const config = await writeMcpConfig(scratch);
    const { code, stdout, stderr } = await runCliProcess(['tools', '--home', scratch, '--mcp-config', config, '--json'], env);
    expect(code).toBe(0);
    const rows = (JSON.parse(stdout) as { tools: Array<{ name: string; namespace: string | null; mode: string; readOnly: boolean }> }).tools;
    expect(rows.slice(0, 7).map((row) => row.namespace)).toEqual(Array(7).fill(null));
    const mcpRows = rows.slice(7);
    expect(mcpRows.length).toBeGreaterThan(3);
    expect(mcpRows.every((row) => row.namespace === 'everything' && row.name.startsWith('everything.'))).toBe(true);
    expect(mcpRows.find((row) => row.name === 'everything.get-sum')).toMatchObject({ mode: 'parallel', readOnly: true });
    expect(stderr).toMatch(/^ankole: .*"down".*\n$/);

    const schemas = await runCliProcess(['tools', '--home', scratch, '--mcp-config', config, '--schemas', '--json'], env);
    const namespaces = (JSON.parse(schemas.stdout) as { tools: Array<{ type: string; name: string; tools?: unknown[] }> }).tools.filter(
      (entry) => entry.type === 'namespace',
    );
    expect(namespaces.map((entry) => entry.name)).toEqual(['everything']);
    expect(namespaces[0]?.tools).toHaveLength(mcpRows.length);
  });

  it('refuses an MCP config that does not exist', async () => {
    const { code, stderr } = await runCliProcess(['tools', '--home', scratch, '--mcp-config', 'nope.json'], env);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^ankole: The MCP config .*nope\.json does not exist/);
  });

  it('prints the exact Responses tools payload with --schemas, and its size in bytes', async () => {
    const { code, stdout, stderr } = await runCliProcess(['tools', '--home', scratch, '--schemas'], env);
    expect(code).toBe(0);
    const payload = JSON.parse(stdout) as Array<{ type: string; name: string; parameters: { type: string } }>;
    expect(payload.map((tool) => tool.name)[0]).toBe('todo_write');
    expect(payload.every((tool) => tool.type === 'function' && tool.parameters.type === 'object')).toBe(true);
    const bytes = Buffer.byteLength(JSON.stringify(payload));
    expect(stderr).toBe(`Responses tools payload: ${bytes.toLocaleString('en-US')} bytes as sent (compact JSON), 7 entries.\n`);

    const json = await runCliProcess(['tools', '--home', scratch, '--schemas', '--json'], env);
    expect(JSON.parse(json.stdout)).toEqual({ bytes, tools: payload });
  });
});
