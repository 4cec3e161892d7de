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
    expect(textOf(read)).toMatch(/symlink on the way leads out of the home/);
    // The refusal names the path the model gave, never where the link points.
    expect(textOf(read)).not.toContain('/etc');
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

  test('a dangling symlink is not written through, whether it points out or inside', async () => {
    await symlink(path.join(outside, 'created-by-write.txt'), path.join(home, 'dangling.txt'));
    const write = await callTool(toolNamed(tools, 'write_file'), { path: 'dangling.txt', content: 'x' });
    expect(write.isError).toBe(true);
    expect(write.details.error.code).toBe('path_outside_home');
    expect(textOf(write)).not.toContain(outside);
    expect(existsSync(path.join(outside, 'created-by-write.txt'))).toBe(false);
    expect(await readlink(path.join(home, 'dangling.txt'))).toBe(path.join(outside, 'created-by-write.txt'));

    await symlink('missing/target.txt', path.join(home, 'dangling-inside.txt'));
    for (const target of ['dangling-inside.txt', 'dangling-inside.txt/deeper.txt']) {
      const inside = await callTool(toolNamed(tools, 'write_file'), { path: target, content: 'x' });
      expect(inside.isError, target).toBe(true);
      expect(inside.details.error.code, target).toMatch(/^path_dangling_symlink$|^path_not_folder$/);
    }
    expect(existsSync(path.join(home, 'missing'))).toBe(false);
  });

  test('a pattern under a symlinked folder lists nothing outside (list_files and search_files)', async () => {
    await symlink(outside, path.join(home, 'link-dir'));
    for (const pattern of ['link-dir/*', 'link-dir/**', '**/*', '*/*', 'link-dir/secret.txt', '{link-dir,other}/*']) {
      const listed = await callTool(toolNamed(tools, 'list_files'), { pattern });
      expect(textOf(listed), pattern).not.toMatch(/^link-dir\//m);
      const searched = await callTool(toolNamed(tools, 'search_files'), { regex: 'top', glob: pattern });
      expect(textOf(searched), pattern).not.toContain('top secret');
    }
    expect(textOf(await callTool(toolNamed(tools, 'list_files'), { pattern: '*' }))).toBe('inside.txt\nlink-dir');
  });

  test('no refusal shows where a link points', async () => {
    await symlink(outside, path.join(home, 'linked'));
    await symlink(path.join(outside, 'secret.txt'), path.join(home, 'secret-link.txt'));
    const attempts: [string, Record<string, unknown>][] = [
      ['read_file', { path: 'linked/secret.txt' }],
      ['read_file', { path: 'secret-link.txt' }],
      ['write_file', { path: 'linked/x/y.txt', content: 'x' }],
      ['write_file', { path: 'secret-link.txt', content: 'x' }],
      ['edit_file', { path: 'secret-link.txt', old_string: 'top', new_string: 'no' }],
      ['list_files', { path: 'linked' }],
      ['search_files', { regex: 'top', path: 'linked' }],
    ];
    for (const [name, params] of attempts) {
      const result = await callTool(toolNamed(tools, name), params);
      expect(result.isError, name).toBe(true);
      expect(result.details.error.code, name).toBe('path_outside_home');
      expect(textOf(result), name).toContain(String(params.path));
      expect(textOf(result), name).not.toContain(outside);
    }
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
  });

  test('symlinked folders inside the home are followed, links climbing out through ".." are refused, loops stop', async () => {
    await mkdir(path.join(home, 'real', 'deep'), { recursive: true });
    await writeFile(path.join(home, 'real', 'deep', 'a.txt'), 'alpha\n');
    await symlink('real/deep', path.join(home, 'alias'));
    await symlink(path.join(home, 'real'), path.join(home, 'absolute-alias'));
    await symlink('../../outside', path.join(home, 'real', 'up'));
    await symlink('loop-b', path.join(home, 'loop-a'));
    await symlink('loop-a', path.join(home, 'loop-b'));
    expect(textOf(await callTool(toolNamed(tools, 'read_file'), { path: 'alias/a.txt' }))).toContain('alpha');
    expect(textOf(await callTool(toolNamed(tools, 'read_file'), { path: 'absolute-alias/deep/a.txt' }))).toContain('alpha');
    const written = await callTool(toolNamed(tools, 'write_file'), { path: 'alias/new/b.txt', content: 'beta\n' });
    expect(written.details).toMatchObject({ path: 'real/deep/new/b.txt', created: true });
    expect(await readFile(path.join(home, 'real', 'deep', 'new', 'b.txt'), 'utf8')).toBe('beta\n');
    expect(textOf(await callTool(toolNamed(tools, 'list_files'), { path: 'alias' }))).toBe('real/deep/a.txt\nreal/deep/new/');
    const up = await callTool(toolNamed(tools, 'read_file'), { path: 'real/up/secret.txt' });
    expect(up.details.error.code).toBe('path_outside_home');
    const loop = await callTool(toolNamed(tools, 'read_file'), { path: 'loop-a' });
    expect(loop.details.error.code).toBe('path_symlink_loop');
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
