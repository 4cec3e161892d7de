import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { distStaleReason } from '@core/testkit';
import * as source from './index.js';

/*
 * Tests of the BUILT package (dist/), as a consumer gets it. In CI turbo builds before it tests; locally, run
 * `npx tsup` first: without a dist that is newer than every source file these tests are skipped (and say why).
 */
const run = promisify(execFile);
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(packageDir, '../..');

const reason = distStaleReason(packageDir);
if (reason !== undefined) console.warn(`built-package.test.ts skipped: ${reason}; run \`npx tsup\` in packages/runtime to test the built package.`);

describe.skipIf(reason !== undefined)('the built package', () => {
  it('passes publint', async () => {
    // publint is a root devDependency: take its CLI from the root's node_modules.
    const publintDir = path.join(repoRoot, 'node_modules/publint');
    const { bin } = JSON.parse(readFileSync(path.join(publintDir, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    // `npm pack` rather than the default (pnpm), which need not be on PATH.
    const { stdout } = await run(process.execPath, [path.join(publintDir, bin['publint'] as string), '--pack', 'npm', '--strict'], {
      cwd: packageDir,
      timeout: 90_000,
    });
    expect(stdout).toContain('All good!');
  }, 100_000);

  it('exports by package name exactly what src/index.ts exports, and works', async () => {
    const script = `
      import * as runtime from '@core/runtime';
      import { z } from 'zod';
      const tool = runtime.defineWorkerTool({
        name: 'read_file', description: 'Reads a file.', strict: true,
        schema: z.object({ path: z.string(), limit: z.number().optional() }),
        describeActivity: (params) => 'Reading ' + params.path, execute: () => ({ content: 'ok' }),
      });
      console.log(JSON.stringify({
        resolved: import.meta.resolve('@core/runtime'),
        names: Object.keys(runtime).sort(),
        tools: runtime.collectToolSchemas([tool]),
      }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: packageDir, timeout: 30_000 });
    const built = JSON.parse(stdout) as { resolved: string; names: string[]; tools: unknown };
    expect(built.resolved).toMatch(/\/dist\/index\.js$/);
    expect(built.names).toStrictEqual(Object.keys(source).sort());
    expect(built.tools).toStrictEqual([
      {
        type: 'function',
        name: 'read_file',
        description: 'Reads a file.',
        parameters: {
          type: 'object',
          properties: { path: { type: 'string' }, limit: { type: ['number', 'null'] } },
          required: ['path', 'limit'],
          additionalProperties: false,
        },
        strict: true,
      },
    ]);
  }, 40_000);

  const testkitBuilt = existsSync(path.join(packageDir, 'node_modules/@core/testkit/dist/index.js'));
  it.skipIf(!testkitBuilt)(
    'runs the README example as written (needs @core/testkit built)',
    async () => {
      const readme = readFileSync(path.join(packageDir, 'README.md'), 'utf8');
      const example = /## Example[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
      expect(example, 'README.md has a ts block under "## Example"').toBeDefined();
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', example as string], { cwd: packageDir, timeout: 30_000 });
      expect(stdout.trim().split('\n')).toStrictEqual(['Reading groceries', 'completed 2', 'You need "groceries: milk, eggs (all lines)".']);
    },
    40_000,
  );
});
