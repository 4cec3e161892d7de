import { mathText } from './math-text.js';
import { attributeOf, ELEMENT_NODE, tagOf, type MarkupNode } from './markup-node.js';

/** The attribute of the `<span>` that stands for a formula after {@link prepareMath}: `inline` or `block`. */
export const MATH_ATTRIBUTE = 'data-ankole-math';
/** Set on that span when its text is TeX. */
export const MATH_TEX_ATTRIBUTE = 'data-ankole-tex';

interface MathDocument {
  querySelectorAll(selector: string): Iterable<unknown>;
  createElement(name: string): unknown;
}

/**
 * Replaces every `<math>` of a (linkedom) document with a `<span>` holding its text ({@link mathText}),
 * so Readability keeps it and Turndown writes it as `$TeX$` or plain text. The span takes the place
 * of the renderer's wrapper around the formula (MathJax's `<mjx-container>`, whose class Readability
 * takes for a menu; KaTeX's `.katex`; Wikipedia's `.mwe-math-element`), so the visual copy and the
 * fallback image go with it, and of a wrapper that hides the MathML (`display: none`).
 */
export function prepareMath(document: MathDocument): void {
  for (const element of [...document.querySelectorAll('math')]) {
    const math = element as MarkupNode;
    const text = mathText(math);
    const rawTex = (attributeOf(math, 'alttext') ?? '').trim();
    // The formula replaces its renderer's wrapper (the visual copy goes with it) or a hidden wrapper.
    let target: MarkupNode = math;
    for (let ancestor = math.parentNode, depth = 0; ancestor !== null && depth < 3; ancestor = ancestor.parentNode, depth += 1) {
      if (isMathWrapper(ancestor) || isHidden(ancestor)) target = ancestor;
    }
    if (text === undefined) {
      target.remove?.();
      continue;
    }
    const span = document.createElement('span') as MarkupNode & { textContent: string };
    span.setAttribute?.(MATH_ATTRIBUTE, text.block ? 'block' : 'inline');
    if (text.kind === 'tex') span.setAttribute?.(MATH_TEX_ATTRIBUTE, '');
    span.textContent = text.text;
    target.replaceWith?.(span);
    for (const sibling of [elementSibling(span, 'previousSibling'), elementSibling(span, 'nextSibling')]) {
      if (sibling !== undefined && isFallbackImage(sibling, rawTex, text.text)) sibling.remove?.();
    }
  }
}

function isMathWrapper(node: MarkupNode): boolean {
  return tagOf(node).startsWith('MJX-') || /(?:^|\s)(?:MathJax\w*|katex|katex-display|mwe-math-element|math-container)(?:\s|$)/i.test(attributeOf(node, 'class') ?? '');
}

function isHidden(node: MarkupNode): boolean {
  const style = (attributeOf(node, 'style') ?? '').toLowerCase().replace(/\s+/g, '');
  return style.includes('display:none') || style.includes('visibility:hidden') || node.hasAttribute?.('hidden') === true || attributeOf(node, 'aria-hidden') === 'true';
}

function elementSibling(node: MarkupNode, direction: 'previousSibling' | 'nextSibling'): MarkupNode | undefined {
  let sibling = node[direction];
  while (sibling !== null && sibling !== undefined && sibling.nodeType !== ELEMENT_NODE) {
    if ((sibling.textContent ?? '').trim() !== '') return undefined;
    sibling = sibling[direction];
  }
  return sibling ?? undefined;
}

function isFallbackImage(node: MarkupNode, rawTex: string, text: string): boolean {
  if (tagOf(node) !== 'IMG') return false;
  const alt = (attributeOf(node, 'alt') ?? '').trim();
  return /math/i.test(attributeOf(node, 'class') ?? '') || (alt !== '' && (alt === rawTex || alt === text));
}
