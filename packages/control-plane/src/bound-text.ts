import { jsonPathChild } from '@core/runtime';

/**
 * `text` cut to at most `max` characters (the cut never splits a surrogate pair), ending with a marker that says how
 * many characters were cut; `text` itself when it fits.
 */
export function boundText(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = (cut: number) => ` [... ${cut} more characters cut]`;
  let keep = Math.max(0, max - marker(text.length).length);
  const last = text.charCodeAt(keep - 1);
  if (last >= 0xd800 && last <= 0xdbff) keep -= 1;
  return text.slice(0, keep) + marker(text.length - keep);
}

/**
 * The JSON path of the first array or object in `value` nested deeper than `maxDepth` levels (the root is level 1),
 * or `undefined`. Walks without recursion, so any depth is safe to check.
 */
export function checkJsonDepth(value: unknown, maxDepth: number): string | undefined {
  const stack: Array<{ node: unknown; path: string; depth: number }> = [{ node: value, path: '$', depth: 1 }];
  while (stack.length > 0) {
    const { node, path, depth } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > maxDepth) return path;
    if (Array.isArray(node)) node.forEach((item, index) => stack.push({ node: item, path: jsonPathChild(path, index), depth: depth + 1 }));
    else for (const [key, item] of Object.entries(node)) stack.push({ node: item, path: jsonPathChild(path, key), depth: depth + 1 });
  }
  return undefined;
}
