import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AnyWorkerAgentTool } from '@core/runtime';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { callTool, tempDir, textOf } from './__fixtures__/temp-home.js';
import type { ComputerToolContext } from './computer-context.js';
import { DEFAULT_COMPUTER_LIMITS } from './computer-limits.js';
import { createEditFileTool } from './edit-file-tool.js';
import { homeFolder } from './home-folder.js';
import { createListFilesTool } from './list-files-tool.js';
import { createReadFileTool } from './read-file-tool.js';
import { createSearchFilesTool } from './search-files-tool.js';
import { createWriteFileTool } from './write-file-tool.js';

let root: Awaited<ReturnType<typeof tempDir>>;
let home: string;
let outside: string;

beforeEach(async () => {
  root = await tempDir();
  home = path.join(root.path, 'home');
  outside = path.join(root.path, 'outside');
  await mkdir(path.join(home, 'docs'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(home, 'docs', 'a.md'), 'alpha\n');
  await writeFile(path.join(outside, 'secret.txt'), 'top secret\n');
  await symlink(outside, path.join(home, 'out'));
  await symlink('docs', path.join(home, 'docs-alias'));
});
afterEach(() => root.dispose());

// The same walk by handles (/proc/self/fd, Linux) and by full paths (the fallback where /proc is missing):
// without a concurrent swap both refuse the same things and do the same work.
describe.each([
  ['through /proc/self/fd', true],
  ['by full paths (no /proc)', false],
])('the file tools %s', (_label, procFd) => {
  const tools = (): Record<'read_file' | 'write_file' | 'edit_file' | 'list_files' | 'search_files', AnyWorkerAgentTool> => {
    const context: ComputerToolContext = { home: homeFolder(home, { procFd }), env: {}, signal: undefined, limits: DEFAULT_COMPUTER_LIMITS, shell: 'bash', sandbox: 'unsandboxed', allowHosts: [] };
    return {
      read_file: createReadFileTool(context),
      write_file: createWriteFileTool(context),
      edit_file: createEditFileTool(context),
      list_files: createListFilesTool(context),
      search_files: createSearchFilesTool(context),
    };
  };

  test('work inside the home, through links inside it', async () => {
    const tool = tools();
    expect(textOf(await callTool(tool.read_file, { path: 'docs-alias/a.md' }))).toContain('alpha');
    expect((await callTool(tool.write_file, { path: 'docs-alias/new/b.md', content: 'beta\n' })).details).toMatchObject({ path: 'docs/new/b.md', created: true });
    expect((await callTool(tool.edit_file, { path: 'docs/new/b.md', old_string: 'beta', new_string: 'gamma' })).isError).toBeFalsy();
    expect(await readFile(path.join(home, 'docs', 'new', 'b.md'), 'utf8')).toBe('gamma\n');
    expect(textOf(await callTool(tool.list_files, { pattern: '**/*' }))).toBe('docs-alias\ndocs/\ndocs/a.md\ndocs/new/\ndocs/new/b.md\nout');
    expect(textOf(await callTool(tool.search_files, { regex: 'alpha|gamma' }))).toBe('docs/a.md:1: alpha\ndocs/new/b.md:1: gamma');
  });

  test('refuse links out, naming only the path given', async () => {
    const tool = tools();
    for (const [name, params] of [
      ['read_file', { path: 'out/secret.txt' }],
      ['write_file', { path: 'out/new/x.txt', content: 'x' }],
      ['edit_file', { path: 'out/secret.txt', old_string: 'top', new_string: 'no' }],
      ['list_files', { path: 'out' }],
      ['search_files', { regex: 'top', path: 'out' }],
    ] as const) {
      const result = await callTool(tool[name], params);
      expect(result.details.error.code, name).toBe('path_outside_home');
      expect(textOf(result), name).not.toContain(outside);
    }
    expect(existsSync(path.join(outside, 'new'))).toBe(false);
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
  });
});
