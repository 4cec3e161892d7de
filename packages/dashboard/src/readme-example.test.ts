import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { distStaleReason, runReadmeExample } from '@core/testkit';
import { describe, expect, it } from 'vitest';

// The README example, run as written against the BUILT package (dist/); skipped (saying why) when dist is stale.
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reason = distStaleReason(packageDir);
if (reason !== undefined) console.warn(`readme-example.test.ts skipped: ${reason}; run \`npx tsup\` in packages/dashboard to run the README example.`);

describe.skipIf(reason !== undefined)('the README example', () => {
  it('runs as written and prints what it says', async () => {
    const { stdout } = await runReadmeExample(packageDir);
    expect(stdout.trim().split('\n')).toStrictEqual(['200 text/html; charset=utf-8', 'ankole_session=ank_demo; Path=/; HttpOnly; SameSite=Strict', 'true']);
  });
});
