import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { distStaleReason, runReadmeExample } from '@core/testkit';
import { describe, expect, it } from 'vitest';

/*
 * The README example, run as written against the BUILT package (dist/), as a reader would run it. In CI turbo
 * builds before it tests; locally, run `npx tsup` first: without a dist newer than every source file this is
 * skipped (and says why).
 */
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reason = distStaleReason(packageDir);
if (reason !== undefined) console.warn(`readme-example.test.ts skipped: ${reason}; run \`npx tsup\` in packages/control-plane-http to run the README example.`);

describe.skipIf(reason !== undefined)('the README example', () => {
  it('runs as written and prints what it says', async () => {
    const { stdout } = await runReadmeExample(packageDir, { timeoutMs: 60_000 });
    expect(stdout.trim().split('\n')).toStrictEqual(['true succeeded', '1', 'agent_forbidden', 'forbidden']);
  }, 70_000);
});
