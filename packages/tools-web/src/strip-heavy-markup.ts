/** Elements whose content is never readable text and can be large (inline bundles, styles, icons). */
const HEAVY_ELEMENTS = ['script', 'style', 'svg', 'template'] as const;

/**
 * Removes `<script>` (except JSON-LD, which Readability reads for metadata), `<style>`, `<svg>`,
 * `<template>` elements and comments from HTML before it is parsed, in one linear pass: real pages
 * are often mostly inline scripts, and parsing them costs time for nothing. An element left open
 * at the end is kept as it is.
 */
export function stripHeavyMarkup(html: string): string {
  const lower = html.toLowerCase();
  const parts: string[] = [];
  let position = 0;
  for (;;) {
    const next = nextHeavyStart(lower, position);
    if (next === undefined) break;
    const end = blockEnd(lower, next);
    if (end === undefined) break;
    parts.push(html.slice(position, next.index));
    if (next.keep) parts.push(html.slice(next.index, end));
    position = end;
  }
  parts.push(html.slice(position));
  return parts.join('');
}

interface BlockStart {
  index: number;
  /** `comment` or the element name. */
  kind: 'comment' | (typeof HEAVY_ELEMENTS)[number];
  keep: boolean;
}

function nextHeavyStart(lower: string, from: number): BlockStart | undefined {
  let index = lower.indexOf('<', from);
  while (index !== -1) {
    if (lower.startsWith('<!--', index)) return { index, kind: 'comment', keep: false };
    for (const element of HEAVY_ELEMENTS) {
      if (lower.startsWith(element, index + 1) && /[\s>/]/.test(lower[index + 1 + element.length] ?? '')) {
        const tagEnd = lower.indexOf('>', index);
        const keep = element === 'script' && tagEnd !== -1 && lower.slice(index, tagEnd).includes('application/ld+json');
        return { index, kind: element, keep };
      }
    }
    index = lower.indexOf('<', index + 1);
  }
  return undefined;
}

function blockEnd(lower: string, start: BlockStart): number | undefined {
  if (start.kind === 'comment') {
    const close = lower.indexOf('-->', start.index + 4);
    return close === -1 ? undefined : close + 3;
  }
  const close = lower.indexOf(`</${start.kind}`, start.index + 1);
  if (close === -1) return undefined;
  const tagEnd = lower.indexOf('>', close);
  return tagEnd === -1 ? undefined : tagEnd + 1;
}
