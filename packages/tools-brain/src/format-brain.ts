import type { BrainPage, BrainPageSlice, RecallResult } from '@core/control-plane-client';

/** Recall hits as the lines the model reads: title, id and size, then the snippet. */
export function formatRecall(result: RecallResult): string {
  if (result.hits.length === 0) return `No Brain pages match "${result.query}".`;
  const how =
    result.mode === 'all-words' || result.mode === 'any-word'
      ? result.mode === 'all-words'
        ? 'best first'
        : 'no page has every word; pages with some of them, best first'
      : result.mode === 'prefix'
        ? 'no whole-word match; matched as word prefixes'
        : 'no word match; matched as text';
  const lines = [`${result.hits.length} Brain page(s) for "${result.query}" (${how}):`];
  result.hits.forEach((hit, index) => {
    lines.push(`${index + 1}. ${hit.title} (id ${hit.id}, ${hit.size} characters)`);
    if (hit.snippet !== '') lines.push(`   ${hit.snippet}`);
  });
  lines.push('Read a whole page with get_page.');
  return lines.join('\n');
}

/** A window of a page: a header with its place in the page, the text, and how to continue. */
export function formatPageSlice(slice: BrainPageSlice): string {
  const end = slice.offset + Array.from(slice.text).length;
  const whole = slice.offset === 0 && slice.nextOffset === null;
  const header = whole
    ? `# ${slice.title} (id ${slice.id}, ${slice.size} characters, updated ${slice.updatedAt})`
    : `# ${slice.title} (id ${slice.id}; characters ${slice.offset}–${end} of ${slice.size}, updated ${slice.updatedAt})`;
  const footer = slice.nextOffset === null ? '' : `\n\n[The page continues: call get_page with offset ${slice.nextOffset} for the next part.]`;
  return `${header}\n\n${slice.text}${footer}`;
}

/** A stored page, briefly. */
export function formatPage(page: Pick<BrainPage, 'id' | 'title' | 'size' | 'updatedAt'>): string {
  return `"${page.title}" (id ${page.id}, ${page.size} characters, updated ${page.updatedAt})`;
}
