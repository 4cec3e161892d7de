import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { distStaleReason } from '@core/testkit';
import { describe, expect, it } from 'vitest';

/*
 * The README example, run as written against the BUILT package (dist/), as a reader would run it. In CI turbo
 * builds before it tests; locally, run `npx tsup` first: without a dist newer than every source file this is
 * skipped (and says why).
 */
const run = promisify(execFile);
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const reason = distStaleReason(packageDir);
if (reason !== undefined) console.warn(`readme-example.test.ts skipped: ${reason}; run \`npx tsup\` in packages/tools-jobs to run the README example.`);

describe.skipIf(reason !== undefined)('the README example', () => {
  it('runs as written and prints what its comments say', async () => {
    const readme = readFileSync(path.join(packageDir, 'README.md'), 'utf8');
    const example = /## Example[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example, 'README.md has a ts block under "## Example"').toBeDefined();
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', example as string], { cwd: packageDir, timeout: 60_000 });
    const expected = [...(example as string).matchAll(/console\.log\(.*\); \/\/ (.*)/g)].map((match) => match[1]);
    expect(expected).toHaveLength(5);
    expect(stdout.trim().split('\n')).toStrictEqual(expected);
  }, 70_000);
});
