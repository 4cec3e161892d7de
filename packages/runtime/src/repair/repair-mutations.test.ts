import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import { validateToolArguments } from '../validation/validate-tool-arguments.js';

/*
 * Property-style test of the repair ladder on cases nobody wrote by hand: random valid argument objects, each damaged
 * by one mutation of a kind models make whose reading is unambiguous (an upper-case literal, a tuple, digit
 * separators, a comment next to a bracket, a closing bracket of the wrong kind, the object sent twice, a stray fence,
 * a property name missing its closing quote, a doubled opening quote, a missing comma, a Python dict, unescaped inner
 * quotes, a long string value cut off). The ladder must give back the original object (for the cut-off string: the object without that property).
 */
const permissive = defineWorkerTool({
  name: 'anything',
  description: 'Any object.',
  jsonSchema: { type: 'object' },
  describeActivity: () => 'x',
  execute: () => ({ content: 'ok' }),
});

type Random = () => number;
type Mutation = (text: string, value: Record<string, unknown>, random: Random) => { text: string; expected: unknown } | undefined;

const KEYS = ['path', 'query', 'limit', 'mode', 'items', 'content', 'name', 'tags', 'options', 'id'];
const STRINGS = [
  'a.txt',
  'hello world',
  'x, y',
  'f() { return 1; }',
  'say: hi',
  '[1, 2]',
  'naïve',
  '😀',
  'TRUE',
  'None',
  '1_000',
  '(1, 2)',
  'C:\\dir',
  'a "quoted" word',
  'end}',
  '{start',
  '',
];

const MUTATIONS: Record<string, Mutation> = {
  'upper-case literal': (text, _value, random) => {
    const found = tokensOutsideStrings(text, /\b(?:true|false|null)\b/g);
    if (found.length === 0) return undefined;
    const match = pick(random, found);
    const spellings: Record<string, string[]> = { true: ['TRUE', 'True'], false: ['FALSE', 'False'], null: ['NULL', 'Null', 'None', 'NONE'] };
    return replaceAt(text, match.index, match.text.length, pick(random, spellings[match.text] ?? []));
  },
  'digit separators': (text, _value, random) => {
    const found = tokensOutsideStrings(text, /(?<![\d.])\d{4,}(?![\d.])/g);
    if (found.length === 0) return undefined;
    const match = pick(random, found);
    return replaceAt(text, match.index, match.text.length, match.text.replace(/\B(?=(\d{3})+(?!\d))/g, '_'));
  },
  'comment after { [ ,': (text, _value, random) => {
    const found = tokensOutsideStrings(text, /[{[,]/g);
    const at = pick(random, found).index + 1;
    return replaceAt(text, at, 0, pick(random, ['/* c */', ' // note\n', '/* } ] */']));
  },
  'comment before } ]': (text, _value, random) => {
    const found = tokensOutsideStrings(text, /[}\]]/g);
    return replaceAt(text, pick(random, found).index, 0, pick(random, [' /* end */', ' // x\n']));
  },
  tuple: (text, _value, random) => {
    const found = tokensOutsideStrings(text, /\[/g);
    if (found.length === 0) return undefined;
    const start = pick(random, found).index;
    const end = matchingBracket(text, start);
    const array = JSON.parse(text.slice(start, end + 1)) as unknown[];
    const inner = text.slice(start + 1, end);
    return replaceAt(text, start, end + 1 - start, `(${array.length === 1 ? `${inner},` : inner})`);
  },
  'wrong closing bracket': (text, _value, random) => {
    const found = tokensOutsideStrings(text, /[}\]]/g).filter((match) => match.index < text.length - 1);
    if (found.length === 0) return undefined;
    const at = pick(random, found).index;
    return replaceAt(text, at, 1, text[at] === ']' ? '}' : ']');
  },
  'sent twice': (text, _value, random) => ({ text: text + pick(random, ['', '\n', ' ']) + text, expected: JSON.parse(text) }),
  'stray fence': (text, _value, random) => ({ text: text + pick(random, ['```', '\n```', '\n```\n', ' ```json']), expected: JSON.parse(text) }),
  'key missing its closing quote': (text, _value, random) => {
    const found = tokensOutsideStrings(text, /"[A-Za-z_0-9]+":/g);
    if (found.length === 0) return undefined;
    const match = pick(random, found);
    return replaceAt(text, match.index, match.text.length, `${match.text.slice(0, -2)}:`);
  },
  'doubled opening quote': (text, _value, random) => {
    const found = tokensOutsideStrings(text, /"(?=[A-Za-z])/g);
    if (found.length === 0) return undefined;
    return replaceAt(text, pick(random, found).index, 0, '"');
  },
  'comma missing': (text, _value, random) => {
    const found = tokensOutsideStrings(text, /,/g);
    if (found.length === 0) return undefined;
    return replaceAt(text, pick(random, found).index, 1, ' ');
  },
  'Python dict': (text) => {
    // Single quotes and True / False / None, when no string holds a quote or a literal-like word.
    if (/'|\\"|"[^"]*\b(?:true|false|null|True|False|None)\b[^"]*"/.test(text)) return undefined;
    const python = text
      .replaceAll('"', "'")
      .replace(/\btrue\b/g, 'True')
      .replace(/\bfalse\b/g, 'False')
      .replace(/\bnull\b/g, 'None');
    return { text: python, expected: JSON.parse(text) };
  },
  'unescaped inner quotes': (text) => (text.includes('\\"') ? { text: text.replaceAll('\\"', '"'), expected: JSON.parse(text) } : undefined),
  'long string cut off': (text, value, random) => {
    const keys = Object.keys(value);
    const last = keys[keys.length - 1] as string;
    const rest = Object.fromEntries(keys.slice(0, -1).map((key) => [key, value[key]]));
    const long = JSON.stringify('line {a}, [b], "c" \\ done\n'.repeat(20 + Math.floor(random() * 20)));
    const head = JSON.stringify({ ...rest, [last]: 0 });
    const cut = long.slice(0, 10 + Math.floor(random() * (long.length - 12)));
    return { text: head.slice(0, head.lastIndexOf('0')) + cut, expected: rest };
  },
};

describe('repair ladder on random valid objects damaged by one mutation (fixed seeds)', () => {
  it('gives back the original object for at least 98% of each mutation kind (per-kind report)', () => {
    const stats = new Map<string, { matched: number; total: number; misses: string[] }>();
    for (const seed of [7, 11, 23]) {
      const random = mulberry32(seed);
      for (let round = 0; round < 120; round++) {
        const value = randomObject(random, 0);
        const text = random() < 0.5 ? JSON.stringify(value) : JSON.stringify(value, null, 2);
        for (const [name, mutate] of Object.entries(MUTATIONS)) {
          const mutated = mutate(text, value, random);
          if (mutated === undefined) continue;
          const result = validateToolArguments(permissive, mutated.text);
          const stat = stats.get(name) ?? { matched: 0, total: 0, misses: [] };
          stat.total++;
          if (result.ok && isDeepStrictEqual(result.params, mutated.expected)) stat.matched++;
          else if (stat.misses.length < 3)
            stat.misses.push(`${JSON.stringify(mutated.text).slice(0, 160)} → ${result.ok ? JSON.stringify(result.params).slice(0, 120) : 'refused'}`);
          stats.set(name, stat);
        }
      }
    }
    console.log(
      [
        'repair ladder, one mutation of random valid objects:',
        ...[...stats].map(
          ([name, stat]) => `  ${name.padEnd(30)} ${`${stat.matched}/${stat.total}`.padStart(9)}${stat.misses.map((miss) => `\n    miss ${miss}`).join('')}`,
        ),
      ].join('\n'),
    );
    expect(stats.size).toBe(Object.keys(MUTATIONS).length);
    for (const [name, stat] of stats) expect(stat.matched / stat.total, name).toBeGreaterThanOrEqual(0.98);
  });
});

function randomObject(random: Random, depth: number): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  const count = 1 + Math.floor(random() * 4);
  for (let index = 0; index < count; index++) object[pick(random, KEYS) + (random() < 0.3 ? `_${index}` : '')] = randomValue(random, depth);
  return object;
}

function randomValue(random: Random, depth: number): unknown {
  const roll = random();
  if (depth < 3 && roll < 0.15) return randomObject(random, depth + 1);
  if (depth < 3 && roll < 0.3) return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
  if (roll < 0.55) return pick(random, STRINGS);
  if (roll < 0.7) return Math.floor(random() * 5_000_000) * (random() < 0.2 ? -1 : 1);
  if (roll < 0.8) return Math.round(random() * 1000) / 100;
  if (roll < 0.9) return random() < 0.5;
  return null;
}

/** Matches of `pattern` that start outside JSON strings (an opening quote counts as outside). */
function tokensOutsideStrings(text: string, pattern: RegExp): Array<{ index: number; text: string }> {
  const outside: boolean[] = [];
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const c = text[index];
    if (inString) {
      outside.push(false);
      if (c === '\\') {
        outside.push(false);
        index++;
      } else if (c === '"') inString = false;
    } else {
      outside.push(true);
      if (c === '"') inString = true;
    }
  }
  return [...text.matchAll(pattern)].filter((match) => outside[match.index]).map((match) => ({ index: match.index, text: match[0] }));
}

function matchingBracket(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const c = text[index];
    if (inString) {
      if (c === '\\') index++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if ((c === ']' || c === '}') && --depth === 0) return index;
  }
  return text.length - 1;
}

function replaceAt(text: string, index: number, length: number, insert: string): { text: string; expected: unknown } {
  return { text: text.slice(0, index) + insert + text.slice(index + length), expected: JSON.parse(text) };
}

function pick<T>(random: Random, values: readonly T[]): T {
  return values[Math.floor(random() * values.length)] as T;
}

/** A small seeded PRNG, so the test is reproducible. */
function mulberry32(seed: number): Random {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
