import { describe, expect, it } from 'vitest';
import { endSentence, withoutFinalPeriod } from './end-sentence.js';

describe('endSentence', () => {
  it('adds a period only when the text does not end a sentence already', () => {
    expect(endSentence('An error occurred while processing the request.')).toBe('An error occurred while processing the request.');
    expect(endSentence('Sorry, something went wrong')).toBe('Sorry, something went wrong.');
    expect(endSentence('Is it there?')).toBe('Is it there?');
    expect(endSentence('(Please include the request ID in your message.)')).toBe('(Please include the request ID in your message.)');
  });

  it('drops one final period so more words can follow', () => {
    expect(withoutFinalPeriod('the request.')).toBe('the request');
    expect(withoutFinalPeriod('wait...')).toBe('wait...');
    expect(withoutFinalPeriod('why?')).toBe('why?');
  });
});
