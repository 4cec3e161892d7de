/** The deepest nesting of objects and arrays a control-plane call's input may have (the input object itself is level 1). */
export const MAX_INPUT_DEPTH = 64;

/** The deepest nesting of objects and arrays the HTTP control plane sends in a result. */
export const MAX_OUTPUT_DEPTH = 256;

interface Frame {
  readonly entries: ReadonlyArray<readonly [string | number, unknown]>;
  next: number;
}

/**
 * The path (keys and indexes from the top) of the first object or array in `value` nested deeper than `maxDepth`
 * levels (`value` itself, when an object or array, is level 1), or `undefined` when none is. Walks without recursion
 * and stops at the first one too deep, so any depth (a cycle included) is answered without exhausting the stack.
 */
export function findTooDeep(value: unknown, maxDepth: number): Array<string | number> | undefined {
  if (!isContainer(value)) return undefined;
  if (maxDepth < 1) return [];
  const frames: Frame[] = [{ entries: entriesOf(value), next: 0 }];
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    const entry = frame.entries[frame.next];
    if (entry === undefined) {
      frames.pop();
      continue;
    }
    frame.next += 1;
    const child = entry[1];
    if (!isContainer(child)) continue;
    if (frames.length >= maxDepth) return [...frames.map((each) => each.entries[each.next - 1]![0])];
    frames.push({ entries: entriesOf(child), next: 0 });
  }
  return undefined;
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

function entriesOf(value: object): Array<readonly [string | number, unknown]> {
  return Array.isArray(value) ? value.map((item, index) => [index, item] as const) : Object.entries(value);
}
