import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/** Writes an mcporter config with the real `@modelcontextprotocol/server-everything` (stdio) and a server that cannot start. */
export async function writeMcpConfig(folder: string): Promise<string> {
  const require = createRequire(import.meta.url);
  const everything = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
  const file = path.join(folder, 'mcporter.json');
  const config = {
    mcpServers: {
      everything: { command: process.execPath, args: [everything, 'stdio'], description: 'The MCP reference test server.' },
      down: { command: path.join(folder, 'no-such-server') },
    },
  };
  await writeFile(file, JSON.stringify(config));
  return file;
}
