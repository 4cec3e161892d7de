import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Why a package's built `dist/index.js` cannot stand for its sources: missing, or older than a source file
 * in `src/` (tests excluded). `undefined` when the build is current. Tests of a built package skip (and say
 * why) rather than test a stale build; in CI turbo builds before it tests. Never throws for a missing `dist`.
 */
export function distStaleReason(packageDir: string): string | undefined {
  const distEntry = path.join(packageDir, 'dist/index.js');
  if (!existsSync(distEntry)) return 'dist/index.js is missing';
  const built = statSync(distEntry).mtimeMs;
  const sourceDir = path.join(packageDir, 'src');
  const newer = readdirSync(sourceDir).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && statSync(path.join(sourceDir, file)).mtimeMs > built,
  );
  return newer.length > 0 ? `dist is older than src (${newer.slice(0, 3).join(', ')})` : undefined;
}
