import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { distStaleReason, runReadmeExample } from '@core/testkit';
import { describe, expect, it } from 'vitest';
import { sandboxMissing } from './__fixtures__/sandbox.js';

/*
 * The README example, run as written against the BUILT package (dist/), as a reader would run it. In CI turbo
 * builds before it tests; locally, run `npx tsup` first: without a dist newer than every source file this is
 * skipped (and says why).
 */
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stale = distStaleReason(packageDir);
if (stale !== undefined) console.warn(`readme-example.test.ts skipped: ${stale}; run \`npx tsup\` in packages/tools-computer to run the README example.`);
// The example's command runs in the sandbox: without bubblewrap it would be refused.
const reason = stale ?? sandboxMissing('readme-example.test.ts');

describe.skipIf(reason !== undefined)('the README example', () => {
  it('runs as written and prints what its comments say', async () => {
    const { stdout } = await runReadmeExample(packageDir);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines.slice(0, 2)).toStrictEqual(['0 .skills/notes/SKILL.md', 'success Created notes/2026-12-01.md (1 line, 9 B)']);
    expect(lines[2]).toMatch(/^success Ran `cat notes\/\*\.md` \(exit 0, [\d.]+ m?s\)$/);
    expect(lines.slice(3)).toStrictEqual(['error Could not read ../../etc/passwd', 'Ship it.', 'path_outside_home']);
  }, 40_000);
});
