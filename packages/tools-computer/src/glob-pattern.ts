import { ComputerToolError } from './errors.js';

/**
 * A glob compiled for a walk that goes one folder at a time: `step` from the states of a folder to those of one of
 * its entries, whether the entry `matches`, and whether the walk may `descend` into it (so folders no pattern
 * can reach are never opened).
 */
export interface GlobPattern {
  /** The states of the folder the walk starts from. */
  readonly start: GlobState;
  step(states: GlobState, name: string): GlobState;
  matches(states: GlobState): boolean;
  /** Whether the pattern asks only for folders (it ends with `/`). */
  readonly onlyFolders: boolean;
  descend(states: GlobState): boolean;
}

/** Where the walk stands in each alternative of the pattern: pairs of (alternative, part). */
export type GlobState = readonly (readonly [number, number])[];

type Segment = RegExp | '**';

/** Alternatives a pattern may expand into (`{a,b}` multiplies them). */
const MAX_ALTERNATIVES = 256;

/**
 * Compiles a glob: `*` and `?` within a name (dot names included), `[abc]` / `[!a-z]` classes, `{a,b}`
 * alternatives (nested too), `**` as a whole part for any number of folders, `\` to escape. A pattern ending
 * with `/` matches only folders.
 * @throws ComputerToolError (`pattern_invalid`) for a pattern expanding to too many alternatives.
 */
export function compileGlob(pattern: string): GlobPattern {
  const onlyFolders = pattern.endsWith('/');
  const alternatives = expandBraces(pattern.replace(/\/+$/, ''), pattern).map((expanded) =>
    expanded
      .split('/')
      .filter((part) => part !== '' && part !== '.')
      .map((part): Segment => (part === '**' ? '**' : segmentRegExp(part)))
      // Two `**` in a row mean one.
      .filter((segment, index, all) => !(segment === '**' && all[index - 1] === '**')),
  );
  const closure = (states: (readonly [number, number])[]): GlobState => {
    const seen = new Set<string>();
    const out: (readonly [number, number])[] = [];
    const add = (state: readonly [number, number]): void => {
      const key = `${state[0]}:${state[1]}`;
      if (seen.has(key)) return;
      seen.add(key);
      out.push(state);
      if (alternatives[state[0]]?.[state[1]] === '**') add([state[0], state[1] + 1]);
    };
    for (const state of states) add(state);
    return out;
  };
  return {
    start: closure(alternatives.map((_, index) => [index, 0] as const)),
    onlyFolders,
    step(states, name) {
      const next: (readonly [number, number])[] = [];
      for (const [alternative, index] of states) {
        const segment = alternatives[alternative]?.[index];
        if (segment === undefined) continue;
        if (segment === '**') next.push([alternative, index]);
        else if (segment.test(name)) next.push([alternative, index + 1]);
      }
      return closure(next);
    },
    matches: (states) => states.some(([alternative, index]) => index === alternatives[alternative]?.length),
    descend: (states) => states.some(([alternative, index]) => index < (alternatives[alternative]?.length ?? 0)),
  };
}

function expandBraces(pattern: string, original: string): string[] {
  const results: string[] = [];
  const pending = [pattern];
  while (pending.length > 0) {
    const current = pending.pop() as string;
    const group = firstBraceGroup(current);
    if (group === undefined) {
      results.push(current);
    } else {
      for (const option of group.options) pending.push(current.slice(0, group.start) + option + current.slice(group.end + 1));
    }
    if (results.length + pending.length > MAX_ALTERNATIVES) {
      throw new ComputerToolError('pattern_invalid', `The pattern ${JSON.stringify(original)} expands to more than ${MAX_ALTERNATIVES} alternatives; simplify its {…} groups.`);
    }
  }
  return results.reverse();
}

/** The first top-level `{…}` group holding a comma, with its options split at top-level commas. */
function firstBraceGroup(pattern: string): { start: number; end: number; options: string[] } | undefined {
  for (let start = 0; start < pattern.length; start += 1) {
    if (pattern[start] === '\\') {
      start += 1;
      continue;
    }
    if (pattern[start] !== '{') continue;
    let depth = 0;
    const commas: number[] = [];
    for (let index = start; index < pattern.length; index += 1) {
      const char = pattern[index];
      if (char === '\\') index += 1;
      else if (char === '{') depth += 1;
      else if (char === ',' && depth === 1) commas.push(index);
      else if (char === '}') {
        depth -= 1;
        if (depth === 0) {
          if (commas.length === 0) break;
          const bounds = [start, ...commas, index];
          const options = bounds.slice(1).map((bound, at) => pattern.slice((bounds[at] as number) + 1, bound));
          return { start, end: index, options };
        }
      }
    }
  }
  return undefined;
}

function segmentRegExp(part: string): RegExp {
  let source = '';
  for (let index = 0; index < part.length; index += 1) {
    const char = part[index] as string;
    if (char === '\\' && index + 1 < part.length) {
      index += 1;
      source += escapeRegExp(part[index] as string);
    } else if (char === '*') {
      source += '.*';
    } else if (char === '?') {
      source += '.';
    } else if (char === '[') {
      const close = part.indexOf(']', index + 2);
      if (close === -1) {
        source += '\\[';
        continue;
      }
      let body = part.slice(index + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      source += `[${negated ? '^' : ''}${body.replace(/[\\\]^]/g, (found) => `\\${found}`)}]`;
      index = close;
    } else {
      source += escapeRegExp(char);
    }
  }
  try {
    return new RegExp(`^${source}$`, 's');
  } catch (cause) {
    throw new ComputerToolError('pattern_invalid', `The pattern part ${JSON.stringify(part)} is not a valid glob: ${(cause as Error).message}.`, { cause });
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
