import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { callTool, tempDir, textOf, toolNamed } from './__fixtures__/temp-home.js';
import { createComputerTools } from './create-computer-tools.js';
import { loadSkills } from './load-skills.js';
import { projectSkills } from './project-skills.js';

/*
 * The race the confinement must survive: another process swaps a folder of the home for a symlink to an outside
 * folder (and back) as fast as it can, while every file tool runs against paths through that folder. Nothing may
 * be created, listed, read or changed outside. Bounded in time (RACE_MS); the counts are printed.
 */
const RACE_MS = 4_000;
const SKILLS_RACE_MS = 2_000;

/**
 * The swapper: a separate node process that, for each folder named (in turn), renames it aside, plants a symlink
 * to the outside folder in its place, removes the link and puts the folder back, as fast as it can.
 */
const SWAPPER = `
const fs = require('node:fs');
const path = require('node:path');
const [home, outside, ms, ...names] = process.argv.slice(1);
const deadline = Date.now() + Number(ms);
let swaps = 0;
let failures = 0;
process.stdout.write('ready\\n');
for (let turn = 0; Date.now() < deadline; turn += 1) {
  const race = path.join(home, names[turn % names.length]);
  const aside = race + '.aside';
  try {
    fs.renameSync(race, aside);
    fs.symlinkSync(outside, race);
    swaps += 1;
    fs.unlinkSync(race);
  } catch {
    failures += 1;
  }
  try {
    fs.renameSync(aside, race);
  } catch {
    // The tools made a new folder there while it was aside: drop theirs, put the original back.
    try { fs.rmSync(race, { recursive: true, force: true }); fs.renameSync(aside, race); } catch { failures += 1; }
  }
}
process.stdout.write(JSON.stringify({ swaps, failures }) + '\\n');
`;

let root: Awaited<ReturnType<typeof tempDir>>;
let home: string;
let outside: string;

beforeEach(async () => {
  root = await tempDir('ankole-race-');
  home = path.join(root.path, 'home');
  outside = path.join(root.path, 'outside');
  await mkdir(path.join(home, 'race'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(home, 'race', 'inside.txt'), 'inside\n');
  await writeFile(path.join(home, 'race', 'edit.txt'), 'alpha\n');
  await writeFile(path.join(outside, 'inside.txt'), 'OUTSIDE-MARKER\n');
  await writeFile(path.join(outside, 'edit.txt'), 'alpha OUTSIDE-MARKER\n');
  await writeFile(path.join(outside, 'outside-only.txt'), 'OUTSIDE-MARKER\n');
});
afterEach(() => root.dispose());

/** Starts the swapper on folders of the home; `counts` resolves when it is done. */
async function startSwapper(ms: number, names: string[]): Promise<{ counts: Promise<{ swaps: number; failures: number }> }> {
  const swapper = spawn(process.execPath, ['-e', SWAPPER, home, outside, String(ms), ...names], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  swapper.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const counts = new Promise<{ swaps: number; failures: number }>((resolve) =>
    swapper.on('close', () => resolve(JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as { swaps: number; failures: number })),
  );
  await new Promise<void>((resolve) => swapper.stdout.once('data', () => resolve()));
  return { counts };
}

async function tree(folder: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    out[path.relative(folder, full)] = entry.isFile() ? await readFile(full, 'utf8') : entry.isDirectory() ? '<folder>' : '<other>';
  }
  return out;
}

test('a folder swapped for a symlink to the outside, as fast as another process can, never lets a file tool out', async () => {
  const before = await tree(outside);
  const tools = createComputerTools({ home });
  const swapper = await startSwapper(RACE_MS, ['race']);

  const counts = { calls: 0, refusals: 0, writes: 0, reads: 0, listings: 0, edits: 0, searches: 0 };
  const leaks: string[] = [];
  let racing = true;
  const loop = async (name: string, params: (index: number) => Record<string, unknown>, check: (text: string) => void): Promise<void> => {
    for (let index = 0; racing; index += 1) {
      const result = await callTool(toolNamed(tools, name), params(index));
      counts.calls += 1;
      if (result.isError === true) counts.refusals += 1;
      const text = textOf(result);
      if (text.includes('OUTSIDE-MARKER') || text.includes('outside-only') || text.includes(outside)) leaks.push(`${name}: ${text.slice(0, 200)}`);
      check(text);
    }
  };
  const stop = new Promise<void>((resolve) =>
    setTimeout(() => {
      racing = false;
      resolve();
    }, RACE_MS - 200),
  );
  // Several loops of each tool at once, so calls overlap each other as well as the swaps.
  const loops = [1, 2, 3].flatMap((lane) => [
    loop('write_file', (index) => ({ path: `race/new-${lane}-${index % 50}.txt`, content: 'written\n' }), () => (counts.writes += 1)),
    loop('write_file', (index) => ({ path: `race/made-${lane}/deeper-${index % 20}/file.txt`, content: 'written\n' }), () => (counts.writes += 1)),
    loop('read_file', () => ({ path: 'race/inside.txt' }), () => (counts.reads += 1)),
    loop('edit_file', (index) => (index % 2 === 0 ? { path: 'race/edit.txt', old_string: 'alpha', new_string: 'beta' } : { path: 'race/edit.txt', old_string: 'beta', new_string: 'alpha' }), () => (counts.edits += 1)),
    loop('list_files', (index) => (index % 2 === 0 ? { path: 'race' } : { pattern: 'race/**' }), () => (counts.listings += 1)),
  ]);
  // search_files costs more per call (a sandboxed matcher): one loop.
  loops.push(loop('search_files', (index) => (index % 2 === 0 ? { regex: 'MARKER|inside', path: 'race' } : { regex: 'MARKER|inside', glob: 'race/**' }), () => (counts.searches += 1)));
  await Promise.all([stop, ...loops]);
  const { swaps, failures } = await swapper.counts;
  console.log(
    `race: ${counts.calls} calls (${counts.writes} writes, ${counts.reads} reads, ${counts.edits} edits, ${counts.listings} listings, ${counts.searches} searches), ` +
      `${counts.refusals} refused or failed, ${swaps} swaps by the other process (${failures} swap steps failed); outside: ${leaks.length} leaks`,
  );
  // The race really ran (the counts vary with the machine's load: thousands of each on an idle machine).
  expect(swaps).toBeGreaterThan(20);
  expect(counts.calls).toBeGreaterThan(50);
  expect(leaks).toEqual([]);
  // Nothing created, changed or removed outside: no files, no folders.
  expect(await tree(outside)).toStrictEqual(before);
}, 30_000);

test('skills projection with .skills and config swapped for symlinks to the outside never writes or removes outside', async () => {
  const before = await tree(outside);
  const skillFolder = path.join(root.path, 'skills', 'remote');
  await mkdir(skillFolder, { recursive: true });
  await writeFile(path.join(skillFolder, 'SKILL.md'), '---\nname: remote\ndescription: Remote.\nmcpServers:\n  remote:\n    url: https://example.com/mcp\n---\nUse it.\n');
  const { skills } = await loadSkills([skillFolder]);
  await projectSkills(skills, { home });
  const swapper = await startSwapper(SKILLS_RACE_MS, ['.skills', 'config']);
  const deadline = Date.now() + SKILLS_RACE_MS - 200;
  let projections = 0;
  let problems = 0;
  while (Date.now() < deadline) {
    // Active, then not: copies are made and removed, the config written and cleaned.
    const projection = await projectSkills(projections % 2 === 0 ? skills : [], { home });
    projections += 1;
    problems += projection.problems.length;
  }
  const { swaps, failures } = await swapper.counts;
  console.log(`skills race: ${projections} projections (${problems} problems reported), ${swaps} swaps by the other process (${failures} swap steps failed)`);
  expect(swaps).toBeGreaterThan(20);
  expect(projections).toBeGreaterThan(2);
  expect(await tree(outside)).toStrictEqual(before);
}, 30_000);
