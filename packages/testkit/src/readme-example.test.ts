import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { distStaleReason } from './dist-stale-reason.js';

/*
 * The README example, run as written against the BUILT package (dist/), as a reader would run it. In CI turbo
 * builds before it tests; locally, run `npx tsup` first: without a dist newer than every source file this is
 * skipped (and says why).
 */
const run = promisify(execFile);
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(packageDir, '../..');

const reason = distStaleReason(packageDir);
if (reason !== undefined) console.warn(`readme-example.test.ts skipped: ${reason}; run \`npx tsup\` in packages/testkit to run the README example.`);

describe.skipIf(reason !== undefined)('the README example', () => {
  it('runs as written and prints what its comments say', async () => {
    const readme = readFileSync(path.join(packageDir, 'README.md'), 'utf8');
    const example = /## Example[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example, 'README.md has a ts block under "## Example"').toBeDefined();
    // Imports resolve from the package (openai, and @core/testkit by its own name); the example's openapiPath is
    // relative to the repository root, where a reader runs it.
    const script = `process.chdir(${JSON.stringify(repoRoot)});\n${example as string}`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: packageDir, timeout: 30_000 });
    expect(stdout.trim().split('\n')).toStrictEqual(['The file says: hello', '2 0']);
  }, 40_000);
});
