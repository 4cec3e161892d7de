import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { afterEach, expect, it, vi } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
let folder: string | undefined;

afterEach(async () => {
  vi.restoreAllMocks();
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
});

it('runs the README Brain example as written and prints what its comments say', async () => {
  const readme = await readFile(path.join(here, '../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Brain'));
  const code = section.slice(section.indexOf('```ts') + 5, section.indexOf('```', section.indexOf('```ts') + 5));
  folder = await mkdtemp(path.join(tmpdir(), 'ankole-readme-brain-'));
  // Only the import changes: the package itself, from source.
  const file = path.join(folder, 'example.ts');
  await writeFile(file, code.replace("from '@core/control-plane'", `from ${JSON.stringify(path.join(here, 'index.ts'))}`));
  const printed: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...values: unknown[]) => void printed.push(values.map((value) => (typeof value === 'string' ? value : inspect(value))).join(' ')));
  await import(/* @vite-ignore */ file);
  const promised = [...code.matchAll(/console\.log\(.*\); \/\/ (.*)/g)].map((match) => match[1]);
  expect(promised).toHaveLength(4);
  expect(printed).toEqual(promised);
});
