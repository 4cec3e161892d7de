import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPostgresDriver } from '@core/control-plane';
import type { BrainPageSummary, RecallResult } from '@core/control-plane-client';
import { testDatabaseUrl } from '@core/control-plane/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess } from '../../__fixtures__/spawn-cli.js';

// `ankole brain` as a real process, on PostgreSQL (DATABASE_URL, a fresh schema) and on the embedded database.
let scratch: string;
let notes: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-brain-cli-'));
  notes = path.join(scratch, 'notes');
  await mkdir(path.join(notes, 'garden', 'deep'), { recursive: true });
  await mkdir(path.join(notes, '.trash'), { recursive: true });
  await writeFile(path.join(notes, 'tides.md'), '# Tide pools\n\nAnemones close when the tide goes out.\n');
  await writeFile(path.join(notes, 'garden', 'tomatoes.markdown'), '```\n# not a title\n```\n\n## Tomato blight\n\nWater the roots, not the leaves, to keep blight away.\n');
  await writeFile(path.join(notes, 'garden', 'deep', 'compost-ratio.md'), 'Three parts brown leaves to one part green kitchen scraps.\n');
  await writeFile(path.join(notes, 'garden', 'huge.md'), `# Huge\n\n${'word '.repeat(41_000)}`);
  await writeFile(path.join(notes, '.trash', 'old.md'), '# Old\n\nthrown away\n');
  await writeFile(path.join(notes, 'readme.txt'), 'not markdown');
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe.each(['postgres', 'pglite'] as const)('ankole brain on %s', (kind) => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const env = (): Record<string, string> =>
    kind === 'postgres'
      ? { HOME: scratch, XDG_DATA_HOME: scratch, DATABASE_URL: testDatabaseUrl(), ANKOLE_DB_SCHEMA: schema }
      : { HOME: scratch, XDG_DATA_HOME: scratch, ANKOLE_DATA_DIR: path.join(scratch, `db-${schema}`) };
  const brain = async (...args: string[]) => {
    const result = await runCliProcess(['brain', ...args], env(), 60_000);
    return { ...result, json: () => JSON.parse(result.stdout) as unknown };
  };

  afterAll(async () => {
    if (kind !== 'postgres') return;
    const driver = createPostgresDriver({ connectionString: testDatabaseUrl() });
    await driver.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE;`).finally(() => driver.close());
  });

  it('imports a folder of Markdown (titles from the first heading or the file name), lists, searches and shows the pages', async () => {
    const imported = await brain('import', notes, '--agent', 'gardener');
    // A new embedded folder says what its first seconds are spent on; PostgreSQL says nothing.
    expect(imported.stderr).toBe(kind === 'pglite' ? `ankole: Creating the embedded database in ${env().ANKOLE_DATA_DIR} (first use, a few seconds)…\n` : '');
    expect(imported.stdout).toBe(
      `Imported 3 Markdown file(s) from ${notes} for agent gardener: 3 created, 0 updated, 0 unchanged.\n` +
        `Skipped ${path.join('garden', 'huge.md')}: 205008 characters, more than the 200000 a page may hold; split it.\n`,
    );
    expect(imported.code).toBe(0);

    // Each command is a process that opens the database (seconds on PGlite): the embedded run checks fewer of them.
    if (kind === 'postgres') {
      const listed = (await brain('list', '--agent', 'gardener', '--json')).json() as { pages: BrainPageSummary[]; total: number };
      expect(listed.total).toBe(3);
      expect(listed.pages.map((page) => page.title)).toEqual(['compost-ratio', 'Tide pools', 'Tomato blight']);
      expect((await brain('list')).stdout).toBe('No Brain pages for agent default.\n');
      const found = (await brain('search', 'keep the leaves dry against blight', '--agent', 'gardener', '--json')).json() as RecallResult;
      expect(found.hits[0]).toMatchObject({ title: 'Tomato blight' });
      expect(found.hits[0]!.snippet).toContain('**blight**');
      const again = (await brain('import', notes, '--agent', 'gardener', '--json')).json();
      expect(again).toMatchObject({ files: 3, created: 0, updated: 0, unchanged: 3, skipped: [{ file: path.join('garden', 'huge.md') }] });
      const table = await brain('list', '--agent', 'gardener', '--limit', '2');
      expect(table.stdout).toMatch(/^ID +CHARS +UPDATED +TITLE\n[0-9a-f-]{36} +59 +\d{4}-\d\d-\d\d \d\d:\d\d \S+ \([^)]+\) +compost-ratio\n/);
      expect(table.stdout).toContain('Pages 1–2 of 3 (--offset, --limit for more).');
    }

    const text = await brain('search', 'kitchen scraps', '--agent', 'gardener');
    // Not a terminal: the snippet's match marks are left out (--json keeps them).
    expect(text.stdout).toMatch(/^1\. compost-ratio {2}\([0-9a-f-]{36}, 59 characters\)\n {3}.*kitchen scraps/);
    expect(text.stdout).not.toContain('**');

    if (kind === 'postgres') {
      const shown = await brain('show', 'TIDE POOLS', '--agent', 'gardener');
      expect(shown.stdout).toMatch(/^Tide pools {2}\([0-9a-f-]{36}, 53 characters, updated \d{4}-\d\d-\d\d \d\d:\d\d \S+ \([^)]+\)\)\n\n# Tide pools\n\nAnemones close when the tide goes out.\n$/);
    }
  }, 120_000);

  it('says what is wrong: an unknown page, a missing folder, an empty query', async () => {
    if (kind === 'postgres') {
      const missing = await brain('show', 'No such page', '--agent', 'gardener');
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('No Brain page with id or title "No such page" for this agent: `ankole brain list`');
    }
    const twins = path.join(scratch, `twins-${kind}`);
    await mkdir(path.join(twins, 'a'), { recursive: true });
    await writeFile(path.join(twins, 'a', 'notes.md'), '# Tides\n\nOne.\n');
    await writeFile(path.join(twins, 'b.md'), '# Tides\n\nTwo.\n');
    const shared = await brain('import', twins, '--agent', 'twins');
    expect({ code: shared.code, stderr: shared.stderr }).toEqual({
      code: 2,
      stderr: `ankole: Files with the same title would become one page: "Tides" (${path.join('a', 'notes.md')}, b.md). Give them distinct first headings (or file names); nothing was imported.\n`,
    });
    const noFolder = await brain('import', path.join(scratch, 'nowhere'));
    expect(noFolder.code).toBe(2);
    expect(noFolder.stderr).toContain('does not exist: give `ankole brain import` a folder of Markdown files.');
    const noQuery = await brain('search');
    expect(noQuery.code).toBe(2);
    expect(noQuery.stderr).toContain('Give what to search for: ankole brain search "<query>".');
  }, 120_000);
});

it('--brain with no control plane named binds the default embedded one (opened only when a tool is called); lists the Brain tools', async () => {
  const fresh = path.join(scratch, 'fresh-data');
  const unnamed = await runCliProcess(['tools', '--brain', '--json'], { HOME: scratch, XDG_DATA_HOME: fresh });
  expect(unnamed.stderr).toBe('');
  expect(unnamed.code).toBe(0);
  expect((JSON.parse(unnamed.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toContain('recall');
  // Listing the tools calls none of them: the database was not created.
  expect(existsSync(path.join(fresh, 'ankole', 'pglite'))).toBe(false);
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const listed = await runCliProcess(['tools', '--brain', '--json'], { HOME: scratch, XDG_DATA_HOME: scratch, DATABASE_URL: testDatabaseUrl(), ANKOLE_DB_SCHEMA: schema }, 60_000);
  const driver = createPostgresDriver({ connectionString: testDatabaseUrl() });
  await driver.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE;`).finally(() => driver.close());
  expect(listed.stderr).toBe('');
  const names = (JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
  expect(names.slice(-5)).toEqual(['recall', 'get_page', 'create_page', 'update_page', 'delete_page']);
}, 90_000);
