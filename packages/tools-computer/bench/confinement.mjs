// Per-call cost of the file tools' confined path resolution. Runs the BUILT package (run `npx tsup` first):
// `node bench/confinement.mjs`. Each tool is called many times in a row on a small file 4 folders deep;
// prints the mean µs per call and the ratio to the target (≤ 1 meets it).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createComputerTools } from '@core/tools-computer';

const calls = process.argv.includes('--quick') ? 500 : 3000;
const home = mkdtempSync(path.join(os.tmpdir(), 'ankole-bench-confine-'));
try {
  mkdirSync(path.join(home, 'a/b/c/d'), { recursive: true });
  writeFileSync(path.join(home, 'a/b/c/d/notes.md'), 'one\ntwo\nthree\n');
  for (let index = 0; index < 20; index += 1) writeFileSync(path.join(home, 'a/b/c/d', `file-${index}.txt`), `file ${index}\n`);
  const tools = Object.fromEntries(createComputerTools({ home }).map((tool) => [tool.name, tool]));
  const call = (name, params) => tools[name].execute(tools[name].schema.parse(params), { signal: new AbortController().signal, callId: 'bench', toolName: name });
  const cases = [
    ['read_file a/b/c/d/notes.md', () => call('read_file', { path: 'a/b/c/d/notes.md' }), 300],
    ['write_file a/b/c/d/out.txt (exists after the first)', () => call('write_file', { path: 'a/b/c/d/out.txt', content: 'x\n' }), 400],
    ['edit_file a/b/c/d/notes.md (two)', async () => {
      await call('edit_file', { path: 'a/b/c/d/notes.md', old_string: 'two', new_string: 'TWO' });
      await call('edit_file', { path: 'a/b/c/d/notes.md', old_string: 'TWO', new_string: 'two' });
    }, 800],
    ['list_files a/b/c/d (21 entries)', () => call('list_files', { path: 'a/b/c/d' }), 500],
    ['search_files /three/ in a (21 files)', () => call('search_files', { regex: 'three', path: 'a' }), 3000],
  ];
  for (const [name, operation, targetUs] of cases) {
    for (let run = 0; run < 50; run += 1) await operation();
    const started = process.hrtime.bigint();
    for (let run = 0; run < calls; run += 1) {
      const result = await operation();
      if (result?.isError) throw new Error(`${name}: ${result.content}`);
    }
    const perCall = Number(process.hrtime.bigint() - started) / 1e3 / calls;
    console.log(`${name.padEnd(52)} ${perCall.toFixed(1).padStart(8)} µs/call  target ${String(targetUs).padStart(5)} µs  ratio ${(perCall / targetUs).toFixed(2)}`);
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
