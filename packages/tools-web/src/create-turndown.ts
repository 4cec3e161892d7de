import { strikethrough, taskListItems } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';
import { codeLanguage, fencedCodeBlock, preformattedText } from './code-block.js';
import { attributeOf, tagOf, type MarkupNode } from './markup-node.js';
import { MATH_ATTRIBUTE, MATH_TEX_ATTRIBUTE } from './prepare-math.js';
import { addTableRules } from './table-rules.js';

/**
 * The Turndown service web_fetch converts with: ATX headings, `-` bullets, and rules for what the
 * defaults lose — every `<pre>` as a fenced block with its text verbatim ({@link fencedCodeBlock}),
 * tables as GFM tables ({@link addTableRules}), formulas prepared by `prepareMath` as `$TeX$` or text,
 * only http(s) images, strikethrough and task-list checkboxes (from `@joplin/turndown-plugin-gfm`;
 * its table rule is not used: it leaves tables with lists or code as raw HTML, misaligns rows under
 * a `rowspan` and writes a malformed divider under a header `colspan`).
 */
export function createTurndown(): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });
  service.remove(['script', 'style', 'noscript', 'iframe', 'template']);
  service.use([strikethrough, taskListItems]);
  addTableRules(service);
  service.addRule('webImages', {
    filter: 'img',
    replacement: (_content, node) => {
      const element = node as unknown as MarkupNode;
      const src = attributeOf(element, 'src') ?? '';
      if (!/^https?:\/\//i.test(src)) return '';
      const alt = (attributeOf(element, 'alt') ?? '').replace(/[[\]\n]/g, ' ').trim();
      return `![${alt}](${src})`;
    },
  });
  service.addRule('preformatted', {
    filter: (node) => tagOf(node as unknown as MarkupNode) === 'PRE',
    replacement: (_content, node) => {
      const pre = node as unknown as MarkupNode;
      return fencedCodeBlock(preformattedText(pre), codeLanguage(pre));
    },
  });
  service.addRule('math', {
    filter: (node) => attributeOf(node as unknown as MarkupNode, MATH_ATTRIBUTE) !== undefined,
    replacement: (_content, node) => {
      const element = node as unknown as MarkupNode;
      const text = (element.textContent ?? '').trim();
      const block = attributeOf(element, MATH_ATTRIBUTE) === 'block';
      if (attributeOf(element, MATH_TEX_ATTRIBUTE) === undefined) return block ? `\n\n${text}\n\n` : text;
      return block ? `\n\n$$\n${text}\n$$\n\n` : `$${text}$`;
    },
  });
  return service;
}
