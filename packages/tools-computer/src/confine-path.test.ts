import { constants } from 'node:fs';
import { mkdir, rename, symlink, writeFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { tempDir } from './__fixtures__/temp-home.js';
import { openInHome, prepareWrite, resolveInHome } from './confine-path.js';
import { PathOutsideHomeError } from './errors.js';
import { homeFolder, type HomeFolder } from './home-folder.js';

let root: Awaited<ReturnType<typeof tempDir>>;
let home: HomeFolder;
let outside: string;

beforeEach(async () => {
  root = await tempDir();
  await mkdir(path.join(root.path, 'home', 'docs'), { recursive: true });
  outside = path.join(root.path, 'outside');
  await mkdir(outside);
  await writeFile(path.join(outside, 'notes.md'), 'outside');
  await writeFile(path.join(root.path, 'home', 'docs', 'notes.md'), 'inside');
  home = homeFolder(path.join(root.path, 'home'));
});
afterEach(() => root.dispose());

test('resolveInHome keeps the missing parts after the nearest existing folder', async () => {
  expect(await resolveInHome(home, 'docs/new/deeper/file.txt')).toBe(path.join(home.realRoot, 'docs/new/deeper/file.txt'));
});

test('a file swapped for a symlink after resolving is caught by O_NOFOLLOW', async () => {
  const real = await resolveInHome(home, 'docs/notes.md');
  await rm(real);
  await symlink(path.join(outside, 'notes.md'), real);
  await expect(openInHome(home, real, constants.O_RDONLY, 'docs/notes.md')).rejects.toMatchObject({ code: 'path_changed' });
});

test('a parent folder swapped for a symlink after resolving is caught by checking the opened file', async () => {
  const real = await resolveInHome(home, 'docs/notes.md');
  await rename(path.join(home.realRoot, 'docs'), path.join(home.realRoot, 'docs-moved'));
  await symlink(outside, path.join(home.realRoot, 'docs'));
  await expect(openInHome(home, real, constants.O_RDONLY, 'docs/notes.md')).rejects.toBeInstanceOf(PathOutsideHomeError);
});

test('prepareWrite re-checks the parent after creating folders', async () => {
  await symlink(outside, path.join(home.realRoot, 'out'));
  await expect(prepareWrite(home, 'out/a/b.txt')).rejects.toBeInstanceOf(PathOutsideHomeError);
  expect(await prepareWrite(home, 'docs/a/b.txt')).toBe(path.join(home.realRoot, 'docs/a/b.txt'));
});
