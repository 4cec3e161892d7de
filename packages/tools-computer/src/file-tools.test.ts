import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { callTool, tempDir, textOf, toolNamed } from './__fixtures__/temp-home.js';
import { createComputerTools } from './create-computer-tools.js';

let home: Awaited<ReturnType<typeof tempDir>>;
let tools: ReturnType<typeof createComputerTools>;
const at = (file: string): string => path.join(home.path, file);

// A 1x1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

beforeEach(async () => {
  home = await tempDir();
  tools = createComputerTools({ home: home.path, limits: { maxReadBytes: 2000, maxImageBytes: 1000, maxSearchResults: 5, maxListResults: 4 } });
});
afterEach(() => home.dispose());

describe('read_file', () => {
  test('numbers lines and reads a range (offset / limit are 1-based lines)', async () => {
    await writeFile(at('notes.md'), Array.from({ length: 42 }, (_, index) => `line ${index + 1}`).join('\n') + '\n');
    const read = toolNamed(tools, 'read_file');
    const all = await callTool(read, { path: 'notes.md' });
    expect(textOf(all).split('\n')[0]).toBe(' 1\tline 1');
    expect(textOf(all).split('\n')).toHaveLength(42);
    expect(read.describeActivity({ path: 'notes.md' })).toBe('Reading notes.md');
    expect(read.describeCompletedActivity?.({ path: 'notes.md' }, all)).toBe('Read notes.md (42 lines)');
    const range = await callTool(read, { path: 'notes.md', offset: 10, limit: 3 });
    expect(textOf(range)).toBe('10\tline 10\n11\tline 11\n12\tline 12\n[Showing lines 10–12 of 42 (limit of 3 lines). Continue with offset=13.]');
    expect(read.describeCompletedActivity?.({ path: 'notes.md' }, range)).toBe('Read notes.md (lines 10–12 of 42)');
    const past = await callTool(read, { path: 'notes.md', offset: 43 });
    expect(past.isError).toBe(true);
    expect(textOf(past)).toContain('has 42 lines; offset 43 is past its end');
  });

  test('caps the text it returns and says where to continue', async () => {
    await writeFile(at('big.txt'), Array.from({ length: 1000 }, () => 'x'.repeat(50)).join('\n'));
    const result = await callTool(toolNamed(tools, 'read_file'), { path: 'big.txt' });
    const text = textOf(result);
    expect(Buffer.byteLength(text)).toBeLessThan(2200);
    expect(text).toMatch(/\[Showing lines 1–\d+ of 1000 \(output capped at 2\.0 KB\)\. Continue with offset=\d+\.\]$/);
    expect(result.details.capped).toBe(true);
  });

  test('describes binary files instead of dumping them (NUL bytes, invalid UTF-8)', async () => {
    await writeFile(at('data.bin'), Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0x01, 0x02]));
    await writeFile(at('latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const read = toolNamed(tools, 'read_file');
    const pdf = await callTool(read, { path: 'data.bin' });
    expect(textOf(pdf)).toBe('data.bin is a binary file (a PDF document, 7 B); its bytes are not shown. Use command (file, xxd, unzip -l, …) to inspect it.');
    expect(pdf.isError).toBeFalsy();
    expect(read.describeCompletedActivity?.({ path: 'data.bin' }, pdf)).toBe('Read data.bin (binary, 7 B)');
    expect(textOf(await callTool(read, { path: 'latin1.txt' }))).toContain('is a binary file (binary data');
  });

  test('returns images as input_image content with a data: URL, within the size cap', async () => {
    await writeFile(at('pixel.png'), PNG);
    const read = toolNamed(tools, 'read_file');
    const result = await callTool(read, { path: 'pixel.png' });
    expect(Array.isArray(result.content)).toBe(true);
    expect(result.content[1]).toEqual({ type: 'input_image', image_url: `data:image/png;base64,${PNG.toString('base64')}`, detail: 'auto' });
    expect(read.describeCompletedActivity?.({ path: 'pixel.png' }, result)).toBe('Read pixel.png (image, 70 B)');
    await writeFile(at('huge.png'), Buffer.concat([PNG, Buffer.alloc(2000)]));
    const huge = await callTool(read, { path: 'huge.png' });
    expect(huge.isError).toBe(true);
    expect(textOf(huge)).toContain('more than read_file returns');
  });

  test('a FIFO is refused at once, for reading and writing, instead of blocking', async () => {
    execFileSync('mkfifo', [at('pipe')]);
    const read = await callTool(toolNamed(tools, 'read_file'), { path: 'pipe' });
    expect(read.details.error.code).toBe('not_a_file');
    const write = await callTool(toolNamed(tools, 'write_file'), { path: 'pipe', content: 'x' });
    expect(write.details.error.code).toBe('not_a_file');
    const search = await callTool(toolNamed(tools, 'search_files'), { regex: 'x' });
    expect(search.isError).toBeFalsy();
  });

  test('a file over maxFileBytes is refused with a way forward, for reading and editing', async () => {
    const small = createComputerTools({ home: home.path, limits: { maxFileBytes: 100 } });
    await writeFile(at('large.log'), 'y'.repeat(200));
    const read = await callTool(toolNamed(small, 'read_file'), { path: 'large.log' });
    expect(read.details.error.code).toBe('file_too_large');
    expect(textOf(read)).toContain('Use command with head, tail, sed -n or grep');
    const edit = await callTool(toolNamed(small, 'edit_file'), { path: 'large.log', old_string: 'y', new_string: 'z', replace_all: true });
    expect(edit.details.error.code).toBe('file_too_large');
  });

  test('missing files and folders are clear errors', async () => {
    await mkdir(at('folder'));
    const read = toolNamed(tools, 'read_file');
    expect(textOf(await callTool(read, { path: 'nope.md' }))).toBe('nope.md does not exist. Check the path with list_files.');
    expect(textOf(await callTool(read, { path: 'folder' }))).toContain('folder is a folder, not a file');
  });
});

describe('write_file and edit_file', () => {
  test('write_file creates parent folders and overwrites', async () => {
    const write = toolNamed(tools, 'write_file');
    const created = await callTool(write, { path: 'a/b/c.txt', content: 'one\ntwo\n' });
    expect(textOf(created)).toBe('Created a/b/c.txt (2 lines, 8 bytes).');
    expect(created.presentation).toEqual([{ kind: 'file', path: 'a/b/c.txt', action: 'created', bytes: 8 }]);
    expect(await readFile(at('a/b/c.txt'), 'utf8')).toBe('one\ntwo\n');
    const again = await callTool(write, { path: path.join(home.path, 'a/b/c.txt'), content: 'x' });
    expect(again.presentation).toEqual([{ kind: 'file', path: 'a/b/c.txt', action: 'updated', bytes: 1 }]);
    expect(write.describeCompletedActivity?.({ path: 'a/b/c.txt', content: 'x' }, again)).toBe('Wrote a/b/c.txt (1 line, 1 B)');
    expect(await readFile(at('a/b/c.txt'), 'utf8')).toBe('x');
  });

  test('edit_file replaces a string that occurs exactly once', async () => {
    await writeFile(at('code.ts'), 'const a = 1;\nconst b = 2;\nconst c = 1;\n');
    const edit = toolNamed(tools, 'edit_file');
    const result = await callTool(edit, { path: 'code.ts', old_string: 'b = 2', new_string: 'b = 3' });
    expect(textOf(result)).toBe('Edited code.ts: replaced 1 occurrence.');
    expect(result.presentation).toEqual([{ kind: 'file', path: 'code.ts', action: 'edited', bytes: 39 }]);
    expect(edit.describeCompletedActivity?.({ path: 'code.ts', old_string: '', new_string: '' }, result)).toBe('Edited code.ts (1 replacement)');
    expect(await readFile(at('code.ts'), 'utf8')).toBe('const a = 1;\nconst b = 3;\nconst c = 1;\n');
  });

  test('edit_file refuses 0 or several matches with the count, and replace_all replaces them all', async () => {
    await writeFile(at('code.ts'), 'x = 1;\ny = 1;\nz = 1;\n');
    const edit = toolNamed(tools, 'edit_file');
    const none = await callTool(edit, { path: 'code.ts', old_string: 'w = 1', new_string: 'w = 2' });
    expect(none.isError).toBe(true);
    expect(none.details.error.code).toBe('edit_no_match');
    expect(textOf(none)).toContain('was not found in code.ts (0 occurrences)');
    const many = await callTool(edit, { path: 'code.ts', old_string: '= 1', new_string: '= 2' });
    expect(many.isError).toBe(true);
    expect(many.details.error.code).toBe('edit_ambiguous');
    expect(textOf(many)).toContain('occurs 3 times in code.ts');
    expect(many.presentation).toBeUndefined();
    expect(await readFile(at('code.ts'), 'utf8')).toBe('x = 1;\ny = 1;\nz = 1;\n');
    const all = await callTool(edit, { path: 'code.ts', old_string: '= 1', new_string: '= 2', replace_all: true });
    expect(textOf(all)).toBe('Edited code.ts: replaced 3 occurrences.');
    expect(await readFile(at('code.ts'), 'utf8')).toBe('x = 2;\ny = 2;\nz = 2;\n');
  });

  test('edit_file refuses binary files and files that do not exist', async () => {
    await writeFile(at('b.bin'), Buffer.from([1, 0, 2]));
    const edit = toolNamed(tools, 'edit_file');
    expect((await callTool(edit, { path: 'b.bin', old_string: 'a', new_string: 'b' })).details.error.code).toBe('file_binary');
    expect((await callTool(edit, { path: 'missing.txt', old_string: 'a', new_string: 'b' })).details.error.code).toBe('file_not_found');
  });
});

describe('list_files and search_files', () => {
  beforeEach(async () => {
    await mkdir(at('src/lib'), { recursive: true });
    await mkdir(at('node_modules/pkg'), { recursive: true });
    await mkdir(at('.git'), { recursive: true });
    await writeFile(at('src/a.ts'), 'export const a = 1; // TODO one\n');
    await writeFile(at('src/lib/b.ts'), 'export const b = 2;\n// TODO two\n');
    await writeFile(at('README.md'), '# readme\nTODO three\n');
    await writeFile(at('node_modules/pkg/index.js'), '// TODO hidden\n');
    await writeFile(at('.git/config'), 'TODO git\n');
    await writeFile(at('src/blob.bin'), Buffer.from([0, 1, 2, 84, 79, 68, 79]));
  });

  test('list_files lists a folder, globs below it, skips node_modules and .git, caps results', async () => {
    const list = toolNamed(tools, 'list_files');
    expect(textOf(await callTool(list, {}))).toBe('README.md\nsrc/');
    expect(textOf(await callTool(list, { pattern: '**/*.ts' }))).toBe('src/a.ts\nsrc/lib/b.ts');
    expect(textOf(await callTool(list, { pattern: '*.ts', path: 'src' }))).toBe('src/a.ts');
    const withIgnored = textOf(await callTool(list, { pattern: '**/*.js', include_ignored: true }));
    expect(withIgnored).toBe('node_modules/pkg/index.js');
    const capped = await callTool(list, { pattern: '**/*' });
    expect(textOf(capped).split('\n')).toHaveLength(5);
    expect(textOf(capped)).toMatch(/\[2 more not shown \(6 in all\)\. Narrow the pattern or the path\.\]$/);
  });

  test('search_files answers file:line: text, skips binary and ignored files, caps matches', async () => {
    const search = toolNamed(tools, 'search_files');
    const result = await callTool(search, { regex: 'TODO \\w+' });
    expect(textOf(result)).toBe('README.md:2: TODO three\nsrc/a.ts:1: export const a = 1; // TODO one\nsrc/lib/b.ts:2: // TODO two');
    expect(result.details).toMatchObject({ matches: 3, filesWithMatches: 3, skipped: 1 });
    expect(search.describeCompletedActivity?.({ regex: 'TODO \\w+' }, result)).toBe('Searched for TODO \\w+ (3 matches in 3 files)');
    expect(textOf(await callTool(search, { regex: 'todo', case_insensitive: true, glob: '**/*.md' }))).toBe('README.md:2: TODO three');
    const bad = await callTool(search, { regex: '(' });
    expect(bad.isError).toBe(true);
    expect(bad.details.error.code).toBe('regex_invalid');
    await writeFile(at('many.txt'), 'hit\n'.repeat(20));
    const capped = await callTool(search, { regex: 'hit' });
    expect(textOf(capped).split('\n')).toHaveLength(6);
    expect(textOf(capped)).toContain('[Stopped at 5 matches.');
  });

  test('a regex that backtracks catastrophically is stopped, not left to block the worker', async () => {
    await writeFile(at('evil.txt'), `${'a'.repeat(40)}!\n`);
    const search = toolNamed(createComputerTools({ home: home.path, limits: { searchTimeoutMs: 200 } }), 'search_files');
    const result = await callTool(search, { regex: '^(a+)+$', glob: 'evil.txt' });
    expect(result.isError).toBe(true);
    expect(result.details.error.code).toBe('regex_too_slow');
    expect(textOf(result)).toContain('took longer than 200 ms');
  });
});
