import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The entry point of the real `@modelcontextprotocol/server-everything` (run with `node <it> stdio`). */
export function everythingEntry(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
}

/**
 * Writes an mcporter config with the real `@modelcontextprotocol/server-everything` (stdio) and a server that cannot start.
 * With `pidFile`, each start of server-everything appends its pid to that file (through `bash -c '…; exec node …'`).
 */
export async function writeMcpConfig(folder: string, options: { pidFile?: string } = {}): Promise<string> {
  const everything = everythingEntry();
  const file = path.join(folder, 'mcporter.json');
  const command =
    options.pidFile === undefined
      ? { command: process.execPath, args: [everything, 'stdio'] }
      : { command: 'bash', args: ['-c', `echo $$ >> '${options.pidFile}'; exec '${process.execPath}' '${everything}' stdio`] };
  const config = {
    mcpServers: {
      everything: { ...command, description: 'The MCP reference test server.' },
      down: { command: path.join(folder, 'no-such-server') },
    },
  };
  await writeFile(file, JSON.stringify(config));
  return file;
}
