/** Marks that already end a sentence (a closing quote or bracket after one still counts). */
const SENTENCE_END = /[.!?…]["'”’)\]]*$/u;

/**
 * `text` as a sentence: a period is added unless it already ends with `.`, `!`, `?` or `…` (possibly followed by
 * closing quotes or brackets), so a message quoted from elsewhere never ends in "..". Surrounding space is trimmed.
 */
export function endSentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return trimmed;
  return SENTENCE_END.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** `text` without one final period (to go on with more words after a quoted sentence); other marks stay. */
export function withoutFinalPeriod(text: string): string {
  const trimmed = text.trim();
  return trimmed.endsWith('.') && !trimmed.endsWith('..') ? trimmed.slice(0, -1) : trimmed;
}
