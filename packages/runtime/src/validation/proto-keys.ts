import { jsonPathChild } from '../json.js';

/** The outcome of `keepProtoKeys`: the params to use, or the JSON path of an own `"__proto__"` key that was lost. */
export type KeptProtoKeys = { ok: true; value: unknown } | { ok: false; path: string };

/** Most nodes of an argument value walked looking for `"__proto__"` keys (a 1 MiB argument has fewer). */
const MAX_NODES = 1_000_000;

/**
 * `JSON.parse` reads `{"__proto__": …}` as an own data key, but Zod (and any code that copies with `obj[key] = …`)
 * drops it or turns it into a prototype. So a model's valid arguments holding that key would reach the tool changed.
 * For every own `"__proto__"` key of `input` (the value validated), this checks that `output` (what the schema gave)
 * has it at the same path. Where it is missing: with `restore`, it is put back as an own data property (on a copy,
 * along the path); without, the answer names the first path, so the call can be refused with a clear message.
 * Cheap when the text has no such key (`mayHoldProtoKey`). Bounded (at most `MAX_NODES` nodes); never throws.
 */
export function keepProtoKeys(input: unknown, output: unknown, restore: boolean): KeptProtoKeys {
  const paths = ownProtoKeyPaths(input);
  let result = output;
  for (const path of paths) {
    const value = valueAt(input, path);
    const target = containerAt(result, path);
    if (target !== undefined && Object.hasOwn(target, '__proto__')) continue;
    if (!restore || target === undefined) return { ok: false, path: path.reduce<string>((text, key) => jsonPathChild(text, key), '$') + '["__proto__"]' };
    result = withProtoKey(result, input, path, value);
  }
  return { ok: true, value: result };
}

/** Whether argument text can hold a `"__proto__"` key at all (plainly, or spelled with `\u` escapes). */
export function mayHoldProtoKey(text: string): boolean {
  return text.includes('__proto__') || text.includes('\\u');
}

type Path = Array<string | number>;

function ownProtoKeyPaths(value: unknown): Path[] {
  const found: Path[] = [];
  const stack: Array<{ node: unknown; path: Path }> = [{ node: value, path: [] }];
  let visited = 0;
  while (stack.length > 0 && visited++ < MAX_NODES) {
    const { node, path } = stack.pop() as { node: unknown; path: Path };
    if (Array.isArray(node)) {
      node.forEach((child: unknown, index) => stack.push({ node: child, path: [...path, index] }));
    } else if (typeof node === 'object' && node !== null) {
      if (Object.hasOwn(node, '__proto__')) found.push(path);
      for (const key of Object.keys(node)) stack.push({ node: (node as Record<string, unknown>)[key], path: [...path, key] });
    }
  }
  return found;
}

function valueAt(root: unknown, path: Path): unknown {
  const container = containerAt(root, path);
  return container === undefined ? undefined : Object.getOwnPropertyDescriptor(container, '__proto__')?.value;
}

/** The plain object at `path` (own keys only), or `undefined`. */
function containerAt(root: unknown, path: Path): Record<string, unknown> | undefined {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return typeof node === 'object' && node !== null && !Array.isArray(node) ? (node as Record<string, unknown>) : undefined;
}

/**
 * A copy of `root` along `path` with an own `"__proto__"` data property at its end, the keys of that object in the
 * order the input had them (keys only the output has, such as defaults, after them).
 */
function withProtoKey(root: unknown, input: unknown, path: Path, value: unknown): unknown {
  const copy = (node: unknown): Record<string | number, unknown> =>
    (Array.isArray(node) ? [...node] : Object.defineProperties({}, Object.getOwnPropertyDescriptors(node as object))) as Record<string | number, unknown>;
  const define = (target: object, key: string | number, child: unknown): void => {
    Object.defineProperty(target, key, { value: child, writable: true, enumerable: true, configurable: true });
  };
  const reorder = (output: Record<string, unknown>, source: Record<string, unknown>): Record<string, unknown> => {
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(source)) {
      if (key === '__proto__') define(result, key, value);
      else if (Object.hasOwn(output, key)) define(result, key, output[key]);
    }
    for (const key of Object.keys(output)) if (!Object.hasOwn(result, key)) define(result, key, output[key]);
    return result;
  };
  const source = containerAt(input, path) as Record<string, unknown>;
  if (path.length === 0) return reorder(root as Record<string, unknown>, source);
  const top = copy(root);
  let node = top;
  path.forEach((key, index) => {
    const child = index === path.length - 1 ? reorder(node[key] as Record<string, unknown>, source) : copy(node[key]);
    define(node, key, child);
    node = child as Record<string | number, unknown>;
  });
  return top;
}
