/**
 * The part of a DOM node the converters use: the same code runs on linkedom's DOM (before
 * Readability) and on the DOM Turndown builds, and the package has no DOM type library.
 */
export interface MarkupNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<MarkupNode>;
  parentNode: MarkupNode | null;
  previousSibling?: MarkupNode | null;
  nextSibling?: MarkupNode | null;
  getAttribute?(name: string): string | null;
  setAttribute?(name: string, value: string): void;
  removeAttribute?(name: string): void;
  hasAttribute?(name: string): boolean;
  remove?(): void;
  replaceWith?(...nodes: unknown[]): void;
  ownerDocument?: { createTextNode(text: string): MarkupNode; createElement(name: string): MarkupNode } | null;
}

/** `nodeType` of an element. */
export const ELEMENT_NODE = 1;
/** `nodeType` of a text node. */
export const TEXT_NODE = 3;

/** The upper-case tag name of an element (`PRE`), whatever case the DOM reports; '' for other nodes. */
export function tagOf(node: MarkupNode | null | undefined): string {
  return node !== null && node !== undefined && node.nodeType === ELEMENT_NODE ? node.nodeName.toUpperCase() : '';
}

/** An attribute of an element, or undefined. */
export function attributeOf(node: MarkupNode | null | undefined, name: string): string | undefined {
  const value = node?.getAttribute?.(name);
  return value === null || value === undefined ? undefined : value;
}

/** Whether `node` has a descendant element with one of `tags` (upper case). */
export function containsTag(node: MarkupNode, tags: ReadonlySet<string>): boolean {
  const children = node.childNodes;
  for (let index = 0; index < children.length; index += 1) {
    const child = children[index]!;
    if (child.nodeType !== ELEMENT_NODE) continue;
    if (tags.has(tagOf(child)) || containsTag(child, tags)) return true;
  }
  return false;
}
