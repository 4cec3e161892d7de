import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { distStaleReason, runReadmeExample } from '@core/testkit';
import { describe, expect, it } from 'vitest';

/* The "Context window" example of the README, run as written against the BUILT package (skipped with a line when stale). */
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const reason = distStaleReason(packageDir) ?? distStaleReason(path.resolve(packageDir, '../testkit'));
if (reason !== undefined) console.warn(`context-readme.test.ts skipped: ${reason}; build packages/runtime and packages/testkit (npx tsup) to run it.`);

describe.skipIf(reason !== undefined)('README: Context window', () => {
  it('runs as written: the turn compacts locally and completes', async () => {
    const { stdout } = await runReadmeExample(packageDir, { heading: 'Context window' });
    const lines = stdout.trim().split('\n');
    expect(lines.at(-1)).toBe('completed 11 true');
    expect(lines.slice(0, -1).every((line) => /^compacted \(local\): \d+ -> \d+ tokens of 20000$/.test(line))).toBe(true);
    expect(lines.length).toBeGreaterThan(1);
  }, 60_000);
});
