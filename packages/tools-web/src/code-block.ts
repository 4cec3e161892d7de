import { attributeOf, ELEMENT_NODE, tagOf, TEXT_NODE, type MarkupNode } from './markup-node.js';

/** The attribute {@link prepareCodeBlocks} leaves on a `<pre>` with the language it found. */
export const CODE_LANGUAGE_ATTRIBUTE = 'data-ankole-language';

// Where pages name a code block's language: `language-js` / `lang-js` (Prism, highlight.js, CommonMark
// renderers), GitHub's `highlight-source-js`, SyntaxHighlighter's `brush: js`.
const LANGUAGE_CLASS = /(?:^|\s)(?:language|lang|highlight-source|highlight)-([\w+#.-]+)|(?:^|\s)brush:\s*([\w+#.-]+)/i;
const LINE_ELEMENTS = new Set(['DIV', 'P', 'LI', 'TR']);

/**
 * The text of a `<pre>` exactly as a reader sees it: text nodes as they are, `<br>` as a newline,
 * a line element (`<div>` per line, as some highlighters write) ending its line.
 */
export function preformattedText(pre: MarkupNode): string {
  const parts: string[] = [];
  const walk = (node: MarkupNode): void => {
    const children = node.childNodes;
    for (let index = 0; index < children.length; index += 1) {
      const child = children[index]!;
      if (child.nodeType === TEXT_NODE) {
        parts.push(child.textContent ?? '');
      } else if (child.nodeType === ELEMENT_NODE) {
        const tag = tagOf(child);
        if (tag === 'BR') {
          parts.push('\n');
        } else {
          walk(child);
          if (LINE_ELEMENTS.has(tag) && !(parts.at(-1) ?? '\n').endsWith('\n')) parts.push('\n');
        }
      }
    }
  };
  walk(pre);
  return parts.join('');
}

/** The language a code block names (on the `<pre>`, its `<code>`, or a wrapper up to two levels up), lower case; '' when none. */
export function codeLanguage(pre: MarkupNode): string {
  const marked = attributeOf(pre, CODE_LANGUAGE_ATTRIBUTE);
  if (marked !== undefined) return marked;
  const candidates: MarkupNode[] = [pre];
  const code = firstCode(pre);
  if (code !== undefined) candidates.unshift(code);
  if (pre.parentNode !== null) candidates.push(pre.parentNode);
  if (pre.parentNode?.parentNode) candidates.push(pre.parentNode.parentNode);
  for (const candidate of candidates) {
    const explicit = attributeOf(candidate, 'data-lang') ?? attributeOf(candidate, 'data-language');
    if (explicit !== undefined && /^[\w+#.-]{1,30}$/.test(explicit)) return explicit.toLowerCase();
    const match = LANGUAGE_CLASS.exec(attributeOf(candidate, 'class') ?? '');
    const language = match?.[1] ?? match?.[2];
    if (language !== undefined && language.length <= 30 && !/^(none|plaintext|text|plain|nohighlight)$/i.test(language)) return language.toLowerCase();
  }
  return '';
}

/**
 * Makes every `<pre>` of a (linkedom) document safe to carry through Readability: its content becomes
 * one text node holding {@link preformattedText} (so `<br>` survives, and no highlighter markup is left
 * for Readability to rearrange), and its language is kept in an attribute, since Readability drops classes.
 */
export function prepareCodeBlocks(document: { querySelectorAll(selector: string): Iterable<unknown> }): void {
  for (const element of document.querySelectorAll('pre')) {
    const pre = element as MarkupNode & { textContent: string };
    const language = codeLanguage(pre);
    const text = preformattedText(pre);
    pre.textContent = text;
    if (language !== '') pre.setAttribute?.(CODE_LANGUAGE_ATTRIBUTE, language);
  }
}

/**
 * A fenced Markdown code block of `text`, verbatim (no escapes), with the language as info string;
 * the fence is longer than any run of backticks in the code.
 */
export function fencedCodeBlock(text: string, language: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  while (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop();
  const code = lines.map((line) => line.trimEnd()).join('\n');
  let longest = 0;
  for (const run of code.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `\n\n${fence}${language}\n${code}\n${fence}\n\n`;
}

function firstCode(pre: MarkupNode): MarkupNode | undefined {
  const children = pre.childNodes;
  for (let index = 0; index < children.length; index += 1) {
    const child = children[index]!;
    if (tagOf(child) === 'CODE') return child;
  }
  return undefined;
}
