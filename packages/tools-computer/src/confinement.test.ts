import { mkdir, readFile, symlink, writeFile, readlink, lstat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { callTool, tempDir, textOf, toolNamed } from './__fixtures__/temp-home.js';
import { createComputerTools } from './create-computer-tools.js';

let root: Awaited<ReturnType<typeof tempDir>>;
let home: string;
let outside: string;
let tools: ReturnType<typeof createComputerTools>;

beforeEach(async () => {
  root = await tempDir();
  home = path.join(root.path, 'home');
  outside = path.join(root.path, 'outside');
  await mkdir(home);
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.txt'), 'top secret\n');
  await writeFile(path.join(home, 'inside.txt'), 'inside\n');
  tools = createComputerTools({ home });
});
afterEach(() => root.dispose());

const refusal = /outside the home folder/;

describe('path confinement', () => {
  test('paths relative to the home and absolute inside it are accepted', async () => {
    expect(textOf(await callTool(toolNamed(tools, 'read_file'), { path: 'inside.txt' }))).toContain('inside');
    expect(textOf(await callTool(toolNamed(tools, 'read_file'), { path: path.join(home, 'inside.txt') }))).toContain('inside');
    expect(textOf(await callTool(toolNamed(tools, 'read_file'), { path: '~/inside.txt' }))).toContain('inside');
    expect(textOf(await callTool(toolNamed(tools, 'read_file'), { path: 'sub/../inside.txt' }))).toContain('inside');
  });

  test('`..` escapes are refused by every file tool', async () => {
    const attempts: [string, Record<string, unknown>][] = [
      ['read_file', { path: '../outside/secret.txt' }],
      ['write_file', { path: '../outside/new.txt', content: 'x' }],
      ['edit_file', { path: '../outside/secret.txt', old_string: 'top', new_string: 'no' }],
      ['list_files', { path: '..' }],
      ['list_files', { pattern: '../**' }],
      ['search_files', { regex: 'secret', path: '../outside' }],
    ];
    for (const [name, params] of attempts) {
      const result = await callTool(toolNamed(tools, name), params);
      expect(result.isError, name).toBe(true);
      expect(textOf(result), name).toMatch(refusal);
      expect(result.details.error.code).toBe('path_outside_home');
    }
    expect(existsSync(path.join(outside, 'new.txt'))).toBe(false);
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
  });

  test('absolute paths outside the home are refused', async () => {
    for (const target of ['/etc/passwd', path.join(outside, 'secret.txt')]) {
      const result = await callTool(toolNamed(tools, 'read_file'), { path: target });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/absolute path elsewhere/);
    }
    const write = await callTool(toolNamed(tools, 'write_file'), { path: path.join(outside, 'x.txt'), content: 'x' });
    expect(write.isError).toBe(true);
    expect(existsSync(path.join(outside, 'x.txt'))).toBe(false);
  });

  test('a symlink planted to /etc is not followed, for reading, listing, searching or writing', async () => {
    await symlink('/etc', path.join(home, 'etc'));
    await symlink('/etc/hostname', path.join(home, 'hostname'));
    const read = await callTool(toolNamed(tools, 'read_file'), { path: 'etc/hostname' });
    expect(read.isError).toBe(true);
    expect(textOf(read)).toMatch(/symlink on the way leads to \/etc/);
    expect((await callTool(toolNamed(tools, 'read_file'), { path: 'hostname' })).isError).toBe(true);
    expect((await callTool(toolNamed(tools, 'list_files'), { path: 'etc' })).isError).toBe(true);
    const listed = textOf(await callTool(toolNamed(tools, 'list_files'), { pattern: '**/*' }));
    expect(listed).not.toContain('passwd');
    const searched = await callTool(toolNamed(tools, 'search_files'), { regex: 'root' });
    expect(textOf(searched)).not.toContain('root:');
    const write = await callTool(toolNamed(tools, 'write_file'), { path: 'etc/ankole-test.txt', content: 'x' });
    expect(write.isError).toBe(true);
    expect(existsSync('/etc/ankole-test.txt')).toBe(false);
  });

  test('a symlinked parent folder leading out is refused, and nothing is created outside', async () => {
    await symlink(outside, path.join(home, 'linked'));
    const write = await callTool(toolNamed(tools, 'write_file'), { path: 'linked/deep/new.txt', content: 'x' });
    expect(write.isError).toBe(true);
    expect(textOf(write)).toMatch(refusal);
    expect(existsSync(path.join(outside, 'deep'))).toBe(false);
    const edit = await callTool(toolNamed(tools, 'edit_file'), { path: 'linked/secret.txt', old_string: 'top', new_string: 'no' });
    expect(edit.isError).toBe(true);
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
  });

  test('a symlink to a file inside the home is followed; writing through it writes the real file', async () => {
    await symlink('inside.txt', path.join(home, 'alias.txt'));
    expect(textOf(await callTool(toolNamed(tools, 'read_file'), { path: 'alias.txt' }))).toContain('inside');
    const write = await callTool(toolNamed(tools, 'write_file'), { path: 'alias.txt', content: 'changed\n' });
    expect(write.isError).toBeFalsy();
    expect(await readFile(path.join(home, 'inside.txt'), 'utf8')).toBe('changed\n');
    expect((await lstat(path.join(home, 'alias.txt'))).isSymbolicLink()).toBe(true);
  });

  test('a dangling symlink is not written through', async () => {
    await symlink(path.join(outside, 'created-by-write.txt'), path.join(home, 'dangling.txt'));
    const write = await callTool(toolNamed(tools, 'write_file'), { path: 'dangling.txt', content: 'x' });
    expect(write.isError).toBe(true);
    expect(write.details.error.code).toBe('path_dangling_symlink');
    expect(existsSync(path.join(outside, 'created-by-write.txt'))).toBe(false);
    expect(await readlink(path.join(home, 'dangling.txt'))).toBe(path.join(outside, 'created-by-write.txt'));
  });

  test('a home given through a symlink works, and its real path is inside', async () => {
    const alias = path.join(root.path, 'home-alias');
    await symlink(home, alias);
    const aliased = createComputerTools({ home: alias });
    expect(textOf(await callTool(toolNamed(aliased, 'read_file'), { path: path.join(alias, 'inside.txt') }))).toContain('inside');
    expect(textOf(await callTool(toolNamed(aliased, 'read_file'), { path: path.join(home, 'inside.txt') }))).toContain('inside');
  });

  test('an unusable home is a usage error when the tools are built', () => {
    expect(() => createComputerTools({ home: 'relative/home' })).toThrow(/absolute path/);
    expect(() => createComputerTools({ home: path.join(root.path, 'missing') })).toThrow(/does not exist/);
  });
});
