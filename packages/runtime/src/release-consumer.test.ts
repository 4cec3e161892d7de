import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { distStaleReason, readmeExample } from '@core/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The release path, as a consumer meets it: the tarballs `pnpm pack` makes (it rewrites `catalog:` and `workspace:`)
 * installed with plain npm into a project outside the repository, on this Node (20 in CI), with the lowest and the
 * highest `openai` / `zod` our peer ranges allow. There the runtime's README example must type-check (our .d.ts
 * included: skipLibCheck off) and run as written. Only @core/runtime and @core/testkit (the example's imports) are
 * packed. Needs the npm registry: without it the test is skipped with one line (a user's run may be offline; CI has
 * the registry).
 */
const run = promisify(execFile);
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(packageDir, '../..');
const testkitDir = path.join(repoRoot, 'packages/testkit');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The versions the workspace catalog pins (the top of our ranges). */
async function catalogVersion(name: string): Promise<string> {
  const workspace = await readFile(path.join(repoRoot, 'pnpm-workspace.yaml'), 'utf8');
  const version = new RegExp(`^\\s+"?${name}"?: (\\S+)$`, 'm').exec(workspace)?.[1];
  if (version === undefined) throw new Error(`pnpm-workspace.yaml has no catalog entry for ${name}`);
  return version;
}

async function registryReachable(): Promise<boolean> {
  try {
    await run(npm, ['ping'], { timeout: 15_000 });
    return true;
  } catch {
    return false;
  }
}

const stale = distStaleReason(packageDir) ?? distStaleReason(testkitDir);
const online = stale === undefined && (await registryReachable());
const skipReason = stale !== undefined ? `a package is not built (${stale})` : online ? undefined : 'the npm registry is unreachable';
if (skipReason !== undefined) console.warn(`release-consumer.test.ts skipped: ${skipReason}.`);

describe.skipIf(skipReason !== undefined)('the packed packages in a consumer project (npm, outside the repository)', () => {
  let scratch: string;
  const tarballs: string[] = [];

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'ankole-release-'));
    const packed = path.join(scratch, 'tarballs');
    for (const dir of [packageDir, testkitDir]) {
      const { stdout } = await run('bash', [path.join(repoRoot, 'scripts/pnpm.sh'), 'pack', '--pack-destination', packed], { cwd: dir, timeout: 120_000 });
      const tarball = stdout
        .trim()
        .split('\n')
        .reverse()
        .find((line) => line.endsWith('.tgz'));
      if (tarball === undefined) throw new Error(`pnpm pack printed no tarball:\n${stdout}`);
      tarballs.push(path.resolve(dir, tarball));
    }
  }, 240_000);
  afterAll(async () => {
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  });

  it('declares ranges, not the catalog pins, for openai and zod', async () => {
    const { stdout } = await run('tar', ['-xzOf', tarballs[0]!, 'package/package.json']);
    const manifest = JSON.parse(stdout) as { peerDependencies: Record<string, string>; dependencies: Record<string, string> };
    expect(manifest.peerDependencies).toEqual({ openai: '>=6.49.0 <8', zod: '^4.0.0' });
    expect(stdout).not.toMatch(/"(catalog|workspace):/);
  });

  const consumers = [
    { name: 'lowest', openai: async () => '6.49.0', zod: async () => '4.0.0' },
    { name: 'highest (the catalog)', openai: () => catalogVersion('openai'), zod: () => catalogVersion('zod') },
  ];
  // Both consumers at once: most of the time is waiting on the registry and on tsc reading openai's types.
  it.concurrent.each(consumers)(
    'the runtime README example type-checks and runs with the $name openai and zod',
    async (consumer) => {
      const openai = await consumer.openai();
      const zod = await consumer.zod();
      const project = path.join(scratch, `consumer-${openai}`);
      await mkdir(project);
      await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
      await run(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs, `openai@${openai}`, `zod@${zod}`], {
        cwd: project,
        timeout: 180_000,
      });
      const installed = JSON.parse(await readFile(path.join(project, 'node_modules/openai/package.json'), 'utf8')) as { version: string };
      expect(installed.version).toBe(openai);

      const example = readmeExample(path.join(packageDir, 'README.md'));
      await writeFile(path.join(project, 'example.mjs'), example);
      const { stdout } = await run(process.execPath, ['example.mjs'], { cwd: project, timeout: 30_000 });
      expect(stdout.trim().split('\n')).toStrictEqual(['Reading groceries', 'completed 2', 'You need "groceries: milk, eggs (all lines)".']);

      await writeFile(path.join(project, 'example.ts'), example);
      const compilerOptions = {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: [],
      };
      await writeFile(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['example.ts'] }));
      const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');
      const checked = await run(process.execPath, [tsc, '-p', project], { cwd: project, timeout: 120_000 }).then(
        () => '',
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
      expect(checked).toBe('');
    },
    360_000,
  );
});
