import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { distStaleReason } from './dist-stale-reason.js';
import { runReadmeExample } from './readme-example.js';

/*
 * The README example, run as written against the BUILT package (dist/), as a reader would run it. In CI turbo
 * builds before it tests; locally, run `npx tsup` first: without a dist newer than every source file this is
 * skipped (and says why).
 */
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const reason = distStaleReason(packageDir);
if (reason !== undefined) console.warn(`readme-example.test.ts skipped: ${reason}; run \`npx tsup\` in packages/testkit to run the README example.`);

describe.skipIf(reason !== undefined)('the README example', () => {
  it('runs as written and prints what its comments say', async () => {
    // Imports resolve from the package (openai, and @core/testkit by its own name).
    const { stdout } = await runReadmeExample(packageDir);
    expect(stdout.trim().split('\n')).toStrictEqual(['The file says: hello', '2 0']);
  }, 40_000);
});
