import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLineReader } from './line-reader.js';

describe('createLineReader', () => {
  it('keeps lines typed ahead for the reads that follow', async () => {
    const input = new PassThrough();
    const reader = createLineReader(input);
    const first = reader.read();
    input.write('yes\nno\nkeep it\n');
    expect(await first).toBe('yes');
    expect(await reader.read()).toBe('no');
    expect(await reader.read()).toBe('keep it');
    reader.close();
  });

  it('answers undefined once input ends, and an aborted read leaves the line for the next one', async () => {
    const input = new PassThrough();
    const reader = createLineReader(input);
    const controller = new AbortController();
    const aborted = reader.read(controller.signal);
    controller.abort();
    expect(await aborted).toBeUndefined();
    const next = reader.read();
    input.end('later\n');
    expect(await next).toBe('later');
    expect(await reader.read()).toBeUndefined();
  });
});
