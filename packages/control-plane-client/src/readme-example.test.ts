import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { distStaleReason, readmeExample, runReadmeExample } from '@core/testkit';
import { describe, expect, it } from 'vitest';

/*
 * The README example, run as written against the BUILT package (dist/), as a reader would run it: each
 * `console.log(...); // text` prints what its comment says. In CI turbo builds before it tests; locally, run
 * `npx tsup` first: without a dist newer than every source file this is skipped (and says why).
 */
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reason = distStaleReason(packageDir);
if (reason !== undefined) console.warn(`readme-example.test.ts skipped: ${reason}; run \`npx tsup\` in packages/control-plane-client to run the README example.`);

describe.skipIf(reason !== undefined)('the README example', () => {
  it('runs as written and prints what its comments say', async () => {
    const example = readmeExample(path.join(packageDir, 'README.md'));
    const promised = [...example.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((match) => match[1]);
    expect(promised).toHaveLength(5);
    const { stdout } = await runReadmeExample(packageDir, { timeoutMs: 30_000 });
    expect(stdout.trimEnd().split('\n')).toStrictEqual(promised);
  }, 40_000);
});
