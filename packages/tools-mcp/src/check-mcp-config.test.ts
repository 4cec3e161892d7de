import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkMcpConfig, McpConfigError } from './check-mcp-config.js';

describe('checkMcpConfig', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'mcp-config-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  async function config(name: string, text: string): Promise<string> {
    const file = path.join(folder, name);
    await writeFile(file, text);
    return file;
  }

  it('names the servers of a valid config (comments and trailing commas allowed), starting none', async () => {
    const file = await config('ok.json', '{ // servers\n "mcpServers": { "files": { "command": "definitely-not-a-binary", "args": [] }, } }');
    expect(await checkMcpConfig(file)).toContain('files');
  });

  it('bad JSON: one sentence with the offset, typed', async () => {
    const file = await config('bad.json', '{ "mcpServers": { ');
    const error = await checkMcpConfig(file).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(McpConfigError);
    expect((error as McpConfigError).code).toBe('mcp_config_invalid');
    expect((error as Error).message).toMatch(new RegExp(`^The MCP config ${file} is not a valid mcporter config \\(Failed to parse JSON \\(offset \\d+\\): \\w+\\): it must be JSON`));
  });

  it('the wrong shape: the first field that does not fit, not a dump of every issue', async () => {
    const file = await config('shape.json', '{ "mcpServers": { "files": { "command": 42 } } }');
    const message = await checkMcpConfig(file).then(
      () => '',
      (thrown: unknown) => (thrown as Error).message,
    );
    expect(message).toMatch(/^The MCP config .* is not a valid mcporter config \(mcpServers\.files(\.command)?: [^\n]+\): it must be JSON with an "mcpServers" object/);
    expect(message).not.toContain('\n');
  });
});
