import { corpusCase as c, type CorpusCase } from './corpus-case.js';
import { SOURCES as S } from './sources.js';

/*
 * Cut-off arguments (max_tokens, a dropped stream). The reading kept is only what was complete: an unterminated
 * string, a number or literal that may go on, a key without its value are dropped; open brackets are closed.
 */

const tsSource = 'export function add(a: number, b: number) {\n  const pair = { a, b, sum: a + b };\n  return [pair.sum, "ok, done"];\n}\n';
const csvRows = Array.from({ length: 60 }, (_, index) => `${index},"Name ${index}","notes, with {braces}, and commas"`).join('\n');
const jsonFixture = JSON.stringify({ users: Array.from({ length: 20 }, (_, index) => ({ id: index, tags: ['a', 'b'], meta: { ok: true } })) }, null, 2);
const markdown = Array.from({ length: 900 }, (_, index) => `- item ${index}: {x: ${index}}, [y], "z", done\n`).join('');

/** The JSON text of the string `value`, cut to end right after the `occurrence`-th `marker` (never after the closing quote). */
function cutAfter(value: string, marker: string, occurrence: number): string {
  const text = JSON.stringify(value);
  let at = -1;
  for (let seen = 0; seen < occurrence; seen++) {
    at = text.indexOf(marker, at + 1);
    if (at < 0) throw new Error(`fixture: marker ${marker} occurs fewer than ${occurrence} times`);
  }
  const end = at + marker.length;
  if (end >= text.length) throw new Error('fixture: the cut must leave the string open');
  return text.slice(0, end);
}

/** The JSON text of the string `value` cut after `length` characters (the string left open). */
function cutAt(value: string, length: number): string {
  const text = JSON.stringify(value);
  return text.slice(0, Math.min(length, text.length - 1));
}

export const truncationCases: CorpusCase[] = [
  c('truncated-mid-object-001', 'truncated-mid-object', '{"path": "a.txt", "mode": "w"', { path: 'a.txt', mode: 'w' }, S.truncatedDetect),
  c('truncated-mid-object-002', 'truncated-mid-object', '{"path": "a.txt", "mode":', { path: 'a.txt' }, S.truncatedDetect),
  c('truncated-mid-object-003', 'truncated-mid-object', '{"path": "a.txt", "mo', { path: 'a.txt' }, S.truncatedDetect),
  c('truncated-mid-object-004', 'truncated-mid-object', '{"a": {"b": 1, "c": 2', { a: { b: 1 } }, S.truncatedContainers, 'the number may go on'),
  c('truncated-mid-object-005', 'truncated-mid-object', '{"a": true, "b": fal', { a: true }, S.truncatedDetect),
  c('truncated-mid-object-006', 'truncated-mid-object', '{"a": null,', { a: null }, S.truncatedDetect),
  c('truncated-mid-object-007', 'truncated-mid-object', '{"n": 12.5, "m": 3', { n: 12.5 }, S.truncatedContainers),
  c('truncated-mid-object-008', 'truncated-mid-object', '{"opts": {"x": true}, "list": [', { opts: { x: true }, list: [] }, S.truncatedDetect),
  c('truncated-mid-object-009', 'truncated-mid-object', '{', {}, S.truncatedDetect),
  c('truncated-mid-object-010', 'truncated-mid-object', '{"a": [{"b": 1}, {"c": 2}', { a: [{ b: 1 }, { c: 2 }] }, S.truncatedDetect),
  c(
    'truncated-mid-object-011',
    'truncated-mid-object',
    '{"user": {"name": "Ana", "roles": ["admin"]}, "notify": tr',
    { user: { name: 'Ana', roles: ['admin'] } },
    S.truncatedDetect,
  ),
  c('truncated-mid-object-012', 'truncated-mid-object', '{\n  "query": "cats",\n  "limit": 10,\n  "', { query: 'cats', limit: 10 }, S.truncatedMaxTokens),

  c(
    'truncated-mid-string-001',
    'truncated-mid-string',
    String.raw`{"path": "notes/a.md", "content": "# Title\n\nSome text`,
    { path: 'notes/a.md' },
    S.truncatedWrite,
  ),
  c('truncated-mid-string-002', 'truncated-mid-string', '{"q": "weather in Par', {}, S.truncatedMaxTokens),
  c('truncated-mid-string-003', 'truncated-mid-string', '{"a": "x", "b": "y\\', { a: 'x' }, S.truncatedMaxTokens),
  c('truncated-mid-string-004', 'truncated-mid-string', '{"a": "x", "b": "\\u00e', { a: 'x' }, S.truncatedMaxTokens),
  c('truncated-mid-string-005', 'truncated-mid-string', String.raw`{"msg": "He said \"hi`, {}, S.truncatedMaxTokens),
  c('truncated-mid-string-006', 'truncated-mid-string', '{"title": "Plan", "steps": ["one", "tw', { title: 'Plan', steps: ['one'] }, S.truncatedContainers),

  c('truncated-mid-array-001', 'truncated-mid-array', '{"ids": [1, 2, 3', { ids: [1, 2] }, S.truncatedContainers),
  c('truncated-mid-array-002', 'truncated-mid-array', '{"ids": [1, 2, 3,', { ids: [1, 2, 3] }, S.truncatedContainers),
  c('truncated-mid-array-003', 'truncated-mid-array', '{"tags": ["a", "b"', { tags: ['a', 'b'] }, S.truncatedContainers),
  c('truncated-mid-array-004', 'truncated-mid-array', '{"m": [[1, 2], [3', { m: [[1, 2], []] }, S.truncatedContainers),
  c('truncated-mid-array-005', 'truncated-mid-array', '{"rows": [{"id": 1}, {"id": 2, "name": "B', { rows: [{ id: 1 }, { id: 2 }] }, S.truncatedContainers),
  c(
    'truncated-mid-array-006',
    'truncated-mid-array',
    '{"commands": ["npm install", "npm test"',
    { commands: ['npm install', 'npm test'] },
    S.truncatedContainers,
  ),

  c(
    'truncated-long-string-001',
    'truncated-long-string',
    `{"path": "src/add.ts", "content": ${cutAt(tsSource.repeat(30), 1500)}`,
    { path: 'src/add.ts' },
    S.truncatedWrite,
  ),
  c(
    'truncated-long-string-002',
    'truncated-long-string',
    `{"path": "src/add.ts", "content": ${cutAfter(tsSource.repeat(30), '}', 12)}`,
    { path: 'src/add.ts' },
    S.truncatedWrite,
    'cut right after a } of the code',
  ),
  c(
    'truncated-long-string-003',
    'truncated-long-string',
    `{"path": "src/add.ts", "content": ${cutAfter(tsSource.repeat(30), ', ', 40)}`,
    { path: 'src/add.ts' },
    S.truncatedWrite,
  ),
  c(
    'truncated-long-string-004',
    'truncated-long-string',
    `{"path": "src/add.ts", "content": ${cutAfter(tsSource.repeat(30), '{ ', 9)}`,
    { path: 'src/add.ts' },
    S.truncatedWrite,
  ),
  c(
    'truncated-long-string-005',
    'truncated-long-string',
    `{"path": "src/add.ts", "content": ${cutAfter(tsSource.repeat(30), ']', 7)}`,
    { path: 'src/add.ts' },
    S.truncatedWrite,
  ),
  c(
    'truncated-long-string-006',
    'truncated-long-string',
    `{"file": "people.csv", "rows": ${cutAfter(csvRows, '\\"', 51)}`,
    { file: 'people.csv' },
    S.truncatedMaxTokens,
    'cut right after an escaped quote',
  ),
  c(
    'truncated-long-string-007',
    'truncated-long-string',
    `{"edits": [{"path": "a.ts", "new_text": ${cutAfter(tsSource.repeat(20), '}', 5)}`,
    { edits: [{ path: 'a.ts' }] },
    S.truncatedWrite,
  ),
  c(
    'truncated-long-string-008',
    'truncated-long-string',
    `{"edits": [{"path": "data.json", "new_text": ${cutAfter(jsonFixture, '}', 9)}`,
    { edits: [{ path: 'data.json' }] },
    S.truncatedWrite,
    'JSON text inside the string, cut after one of its }',
  ),
  c(
    'truncated-long-string-009',
    'truncated-long-string',
    `{"path": "data.json", "content": ${cutAfter(jsonFixture, '}', 14)}`,
    { path: 'data.json' },
    S.truncatedWrite,
  ),
  c(
    'truncated-long-string-010',
    'truncated-long-string',
    `{"title": "List", "body": ${cutAt(markdown, 70_000)}`,
    { title: 'List' },
    S.truncatedMaxTokens,
    'over the 64 KiB syntax-repair limit',
  ),
  c(
    'truncated-long-string-011',
    'truncated-long-string',
    `{"path": "x.ts", "content": "${'function f() {\n  return { a: 1, b: [2, 3] };\n}\n'.repeat(12)}`,
    { path: 'x.ts' },
    S.truncatedWrite,
    'raw newlines in the string, cut after the closing }',
  ),
  c(
    'truncated-long-string-012',
    'truncated-long-string',
    `{"lines": ["a, b", "{c}", ${cutAt(csvRows, 900)}`,
    { lines: ['a, b', '{c}'] },
    S.truncatedContainers,
  ),
  c(
    'truncated-long-string-013',
    'truncated-long-string',
    `{"path": "r.md", "content": ${cutAfter(markdown, '\\', 3)}`,
    { path: 'r.md' },
    S.truncatedMaxTokens,
    'cut inside an escape',
  ),
  c(
    'truncated-long-string-014',
    'truncated-long-string',
    `{"path": "x.ts", "content": ${JSON.stringify(tsSource.repeat(10))}`,
    { path: 'x.ts', content: tsSource.repeat(10) },
    S.truncatedMaxTokens,
    'the string is complete: kept',
  ),
  c(
    'truncated-long-string-015',
    'truncated-long-string',
    `{"path": "x.ts", "content": ${JSON.stringify(tsSource.repeat(10))}, "mode": "app`,
    { path: 'x.ts', content: tsSource.repeat(10) },
    S.truncatedMaxTokens,
  ),
  c(
    'truncated-long-string-016',
    'truncated-long-string',
    `{"path": "cfg.json", "content": ${cutAfter(JSON.stringify({ a: { b: { c: [1, 2] } } }), '}', 2)}`,
    { path: 'cfg.json' },
    S.truncatedWrite,
    'ends with \\"…}} inside the string',
  ),
  c(
    'truncated-long-string-017',
    'truncated-long-string',
    `{"sql": ${cutAfter('SELECT id, name, {fn NOW()} FROM users WHERE a IN (1, 2, 3) AND b = {x} ORDER BY id, name;\n'.repeat(15), '}', 11)}`,
    {},
    S.truncatedMaxTokens,
  ),
  c(
    'truncated-long-string-018',
    'truncated-long-string',
    `{"messages": [{"role": "user", "text": ${cutAfter(markdown.slice(0, 4000), ']', 20)}`,
    { messages: [{ role: 'user' }] },
    S.truncatedMaxTokens,
  ),
];
