import { attributeOf, ELEMENT_NODE, tagOf, TEXT_NODE, type MarkupNode } from './markup-node.js';

/** A MathML formula as text: TeX when the page gives it, else a linear reading of the MathML. */
export interface MathText {
  text: string;
  /** `tex` when `text` is the formula's TeX (annotation or alttext), `text` when it was read from the MathML. */
  kind: 'tex' | 'text';
  /** Whether the formula is displayed as its own block (`display="block"`). */
  block: boolean;
}

const TEX_ENCODINGS = new Set(['application/x-tex', 'text/x-tex', 'tex', 'latex', 'application/x-latex']);
// Operators read with a space on each side: relations and binary operators.
const SPACED_OPERATORS = new Set(['=', '+', '-', '−', '±', '∓', '×', '÷', '·', '⋅', '≠', '<', '>', '≤', '≥', '≈', '≡', '∼', '→', '←', '↔', '⇒', '⇔', '∈', '∉', '⊂', '⊆', '∪', '∩', '∧', '∨', ':=']);
const SKIPPED = new Set(['ANNOTATION', 'ANNOTATION-XML', 'MPHANTOM', 'NONE', 'MPRESCRIPTS']);

/**
 * The text of a `<math>` element: its TeX annotation (`<annotation encoding="application/x-tex">`)
 * or `alttext` when present (Wikipedia's `{\displaystyle …}` wrapper removed), else the MathML read
 * linearly (`x^2`, `(a)/(b)`, `√(x)`). Undefined when the formula has no text at all.
 */
export function mathText(math: MarkupNode): MathText | undefined {
  const block = (attributeOf(math, 'display') ?? attributeOf(math, 'mode') ?? '').toLowerCase() === 'block' || (attributeOf(math, 'mode') ?? '') === 'display';
  const tex = texAnnotation(math) ?? attributeOf(math, 'alttext')?.trim();
  if (tex !== undefined && tex !== '') {
    const unwrapped = unwrapDisplayStyle(tex);
    return { text: unwrapped, kind: /[\\^_{}]/.test(unwrapped) ? 'tex' : 'text', block };
  }
  const linear = readMathml(math).replace(/\s+/g, ' ').trim();
  return linear === '' ? undefined : { text: linear, kind: 'text', block };
}

function texAnnotation(node: MarkupNode): string | undefined {
  const children = node.childNodes;
  for (let index = 0; index < children.length; index += 1) {
    const child = children[index]!;
    if (child.nodeType !== ELEMENT_NODE) continue;
    if (tagOf(child) === 'ANNOTATION' && TEX_ENCODINGS.has((attributeOf(child, 'encoding') ?? '').toLowerCase())) {
      const text = (child.textContent ?? '').trim();
      if (text !== '') return text;
    }
    const nested = texAnnotation(child);
    if (nested !== undefined) return nested;
  }
  return undefined;
}

function unwrapDisplayStyle(tex: string): string {
  const match = /^\{\s*\\(?:displaystyle|textstyle)\s*([\s\S]*)\}$/.exec(tex.trim());
  return (match?.[1] ?? tex).trim();
}

function elementChildren(node: MarkupNode): MarkupNode[] {
  const result: MarkupNode[] = [];
  const children = node.childNodes;
  for (let index = 0; index < children.length; index += 1) {
    const child = children[index]!;
    if (child.nodeType === ELEMENT_NODE) result.push(child);
  }
  return result;
}

/** Wraps a sub-expression in parentheses unless it is one token (`x`, `2`, `αβ`, `∑`) or already in parentheses. */
function group(text: string): string {
  if ([...text].length <= 1 || /^[\p{L}\p{N}.′'∞]*$/u.test(text) || isParenthesised(text)) return text;
  return `(${text})`;
}

function isParenthesised(text: string): boolean {
  if (!text.startsWith('(') || !text.endsWith(')')) return false;
  let depth = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] === '(') depth += 1;
    else if (text[index] === ')') depth -= 1;
    if (depth === 0 && index < text.length - 1) return false;
  }
  return depth === 0;
}

function readMathml(node: MarkupNode): string {
  const tag = tagOf(node);
  if (node.nodeType === TEXT_NODE) return '';
  if (SKIPPED.has(tag)) return '';
  const parts = elementChildren(node);
  const at = (index: number): string => (parts[index] === undefined ? '' : readMathml(parts[index]!).trim());
  switch (tag) {
    case 'MI':
    case 'MN':
    case 'MTEXT':
    case 'MS':
      return (node.textContent ?? '').replace(/\s+/g, ' ').trim();
    case 'MO': {
      const operator = (node.textContent ?? '').trim();
      if (SPACED_OPERATORS.has(operator)) return ` ${operator} `;
      if (operator === ',' || operator === ';') return `${operator} `;
      return operator;
    }
    case 'MSPACE':
      return ' ';
    case 'SEMANTICS':
      return at(0);
    case 'MSUP':
      return `${group(at(0))}^${group(at(1))}`;
    case 'MSUB':
      return `${group(at(0))}_${group(at(1))}`;
    case 'MSUBSUP':
    case 'MUNDEROVER':
      return `${group(at(0))}_${group(at(1))}^${group(at(2))}`;
    case 'MUNDER':
      return `${group(at(0))}_${group(at(1))}`;
    case 'MOVER':
      return `${group(at(0))}^${group(at(1))}`;
    case 'MFRAC':
      return `${group(at(0))}/${group(at(1))}`;
    case 'MSQRT':
      return `√(${parts.map((part) => readMathml(part)).join('').trim()})`;
    case 'MROOT':
      return `${group(at(0))}^(1/${at(1)})`;
    case 'MFENCED': {
      const open = attributeOf(node, 'open') ?? '(';
      const close = attributeOf(node, 'close') ?? ')';
      const separator = (attributeOf(node, 'separators') ?? ',').trim().charAt(0);
      return `${open}${parts.map((part) => readMathml(part).trim()).join(`${separator} `)}${close}`;
    }
    case 'MTABLE':
      return `[${parts.map((row) => readMathml(row).trim()).join('; ')}]`;
    case 'MTR':
    case 'MLABELEDTR':
      // Cells of aligned equations (`x`, `= 1`) read as one line; matrix cells are separated by commas.
      return parts
        .map((cell) => readMathml(cell).trim())
        .reduce((line, cell, index) => (index === 0 ? cell : `${line}${/^[=<>≤≥≠≈≡→⇒]/.test(cell) ? ' ' : ', '}${cell}`), '');
    default:
      return parts.map((part) => readMathml(part)).join('');
  }
}
