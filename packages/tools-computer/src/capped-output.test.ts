import { expect, test } from 'vitest';
import { CappedOutput } from './capped-output.js';

test('keeps everything within the budget', () => {
  const output = new CappedOutput(10);
  output.push(Buffer.from('hello'));
  output.push(Buffer.from('world'));
  expect(output.text()).toBe('helloworld');
  expect(output.omittedBytes).toBe(0);
});

test('keeps the head and the tail across many chunks and says what was cut', () => {
  const output = new CappedOutput(10);
  for (const chunk of ['abc', 'defgh', 'ijklmnop', 'qrstuvwxyz']) output.push(Buffer.from(chunk));
  expect(output.totalBytes).toBe(26);
  expect(output.omittedBytes).toBe(16);
  expect(output.text()).toBe('abcde\n[… 16 bytes cut of 26: the first 5 and the last 5 are shown …]\nvwxyz');
});

test('never shows half a UTF-8 character at the cut', () => {
  const output = new CappedOutput(8);
  output.push(Buffer.from('aéééééééb'));
  const text = output.text();
  expect(text).not.toContain('\uFFFD');
  expect(text.startsWith('aé\n')).toBe(true);
  expect(text.endsWith('\néb')).toBe(true);
});

test('counts the cut bytes right before the text is taken', () => {
  const output = new CappedOutput(10);
  output.push(Buffer.from('a'.repeat(5)));
  output.push(Buffer.from('b'.repeat(8)));
  expect(output.omittedBytes).toBe(3);
});
