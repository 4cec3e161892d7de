import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isProcessAlive, waitFor } from './process-probes.js';

describe('isProcessAlive', () => {
  it('is true for a running process and false once it is killed and reaped', async () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    const pid = child.pid as number;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    expect(isProcessAlive(pid)).toBe(true);
    child.kill('SIGKILL');
    await exited;
    expect(isProcessAlive(pid)).toBe(false);
  });
});

describe('waitFor', () => {
  it('resolves with the first defined value', async () => {
    let calls = 0;
    const value = await waitFor(() => (++calls >= 3 ? calls : undefined));
    expect(value).toBe(3);
  });

  it('rejects when the time runs out', async () => {
    await expect(waitFor(() => undefined, 50)).rejects.toThrow(/nothing after 50 ms/);
  });
});
