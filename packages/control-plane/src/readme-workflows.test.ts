import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, expect, it, vi } from 'vitest';
import { testDatabaseUrl } from './testing.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const saved = { DATABASE_URL: process.env.DATABASE_URL };
let folder: string | undefined;

afterEach(async () => {
  vi.restoreAllMocks();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
});

it('runs the README Workflows example as written (on the test PostgreSQL server, its workflow removed afterwards)', async () => {
  const readme = await readFile(path.join(here, '../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Workflows'));
  const code = section.slice(section.indexOf('```ts') + 5, section.indexOf('```', section.indexOf('```ts') + 5));
  folder = await mkdtemp(path.join(tmpdir(), 'ankole-readme-'));
  process.env.DATABASE_URL = testDatabaseUrl();
  // Only the import changes: the package itself, from source.
  const file = path.join(folder, 'example.ts');
  await writeFile(file, code.replace("from '@core/control-plane'", `from ${JSON.stringify(path.join(here, 'index.ts'))}`));
  const printed: unknown[] = [];
  vi.spyOn(console, 'log').mockImplementation((...values: unknown[]) => void printed.push(...values));
  await import(/* @vite-ignore */ file);
  const shown = printed.at(-1) as { id: string };
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  await client.query('DELETE FROM ankole.workflow WHERE id = $1', [shown.id]).finally(() => client.end());
  expect(shown).toMatchObject({ title: 'Two notes', status: 'succeeded', result: ['Note on owls: …', 'Note on bats: …'], log: [{ text: 'collected 2' }] });
});
