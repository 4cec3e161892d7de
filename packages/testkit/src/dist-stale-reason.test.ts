import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { distStaleReason } from './dist-stale-reason.js';

describe('distStaleReason', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function packageWith(files: Record<string, number>): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'ankole-dist-'));
    made.push(dir);
    mkdirSync(path.join(dir, 'src'));
    for (const [file, mtimeSeconds] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), '');
      utimesSync(path.join(dir, file), mtimeSeconds, mtimeSeconds);
    }
    return dir;
  }

  it('says dist is missing', () => {
    expect(distStaleReason(packageWith({ 'src/index.ts': 100 }))).toBe('dist/index.js is missing');
  });

  it('names the sources newer than the build, ignoring tests', () => {
    const dir = packageWith({ 'dist/index.js': 200, 'src/index.ts': 300, 'src/index.test.ts': 300 });
    expect(distStaleReason(dir)).toBe('dist is older than src (index.ts)');
  });

  it('is undefined for a current build', () => {
    expect(distStaleReason(packageWith({ 'dist/index.js': 200, 'src/index.ts': 100 }))).toBeUndefined();
  });
});
