import { corpusCase as c, type CorpusCase } from './corpus-case.js';
import { SOURCES as S } from './sources.js';

/*
 * A third batch, written after the second one was measured: harder shapes of the kinds the issue lists (brackets and
 * commas inside comments and strings, literals and tuples in odd places, copies with prose between them), measured
 * before any rule was changed for it (the figure is in the runtime README).
 */
const nestedJson = JSON.stringify({
  rows: [
    { id: 1, tags: ['a', 'b'] },
    { id: 2, tags: [] },
  ],
});
const sqlText = "INSERT INTO t (a, b) VALUES (1, '{x}'), (2, '[y]');\n".repeat(30);

export const thirdBatchCases: CorpusCase[] = [
  c(
    'b3-upper-case-literals-001',
    'upper-case-literals',
    '{"a":TRUE,"b":[FALSE,NULL],"c":{"d":Null}}',
    { a: true, b: [false, null], c: { d: null } },
    S.pyJsonRepairBool,
  ),
  c('b3-upper-case-literals-002', 'upper-case-literals', '{"flag":\n  FALSE\n}', { flag: false }, S.pyJsonRepairBool),
  c('b3-upper-case-literals-003', 'upper-case-literals', '{"a": /* default */ TRUE}', { a: true }, S.pyJsonRepairBool),
  c(
    'b3-python-literals-001',
    'python-literals',
    "{'matrix': [[True, False], [None, True]]}",
    {
      matrix: [
        [true, false],
        [null, true],
      ],
    },
    S.leakedPythonDict,
  ),
  c('b3-tuples-001', 'tuples', '{"labels": ("a, b", "c)")}', { labels: ['a, b', 'c)'] }, S.tupleIssue),
  c('b3-tuples-002', 'tuples', '{"pairs": ({"k": 1}, {"k": 2})}', { pairs: [{ k: 1 }, { k: 2 }] }, S.tupleIssue),
  c(
    'b3-tuples-003',
    'tuples',
    '{"grid": ((0, 1,), (2, 3,),)}',
    {
      grid: [
        [0, 1],
        [2, 3],
      ],
    },
    S.tupleIssue,
  ),
  c('b3-tuples-004', 'tuples', '{"a": ("x", "y"]}', { a: ['x', 'y'] }, S.tupleIssue),
  c('b3-digit-separators-001', 'digit-separators', '{"vals":[1_0,2_0,3_000_000]}', { vals: [10, 20, 3000000] }, S.digitSeparatorIssue),
  c('b3-digit-separators-002', 'digit-separators', '{"delta": -0.000_5, "n": 1_000}', { delta: -0.0005, n: 1000 }, S.digitSeparatorIssue),
  c('b3-key-quote-001', 'key-quote', '{"first name: "Ana", "last name": "Lima"}', { 'first name': 'Ana', 'last name': 'Lima' }, S.pyJsonRepairObject),
  c('b3-key-quote-002', 'key-quote', '{"rows: [{"id": 1}, {"id": 2}], "total": 2}', { rows: [{ id: 1 }, { id: 2 }], total: 2 }, S.pyJsonRepairObject),
  c('b3-key-quote-003', 'key-quote', '{"a": {"b: "c"}, "d": 1}', { a: { b: 'c' }, d: 1 }, S.pyJsonRepairObject),
  c('b3-doubled-quote-001', 'doubled-quote', '{"paths": [""a/b.txt", ""c.txt"]}', { paths: ['a/b.txt', 'c.txt'] }, S.pyJsonRepairObject),
  c('b3-doubled-quote-002', 'doubled-quote', '{"outer": {""inner": 1}}', { outer: { inner: 1 } }, S.pyJsonRepairObject),
  c(
    'b3-unescaped-quotes-001',
    'unescaped-quotes',
    '{"command": "git commit -m "fix: bug""}',
    { command: 'git commit -m "fix: bug"' },
    S.unescapedQuotesScanner,
  ),
  c(
    'b3-unescaped-quotes-002',
    'unescaped-quotes',
    '{"command": "echo "done"", "timeout": 5}',
    { command: 'echo "done"', timeout: 5 },
    S.unescapedQuotesScanner,
  ),
  c('b3-unescaped-quotes-003', 'unescaped-quotes', '{"text": "say "hi", Bob", "to": "bob"}', { text: 'say "hi", Bob', to: 'bob' }, S.unescapedQuotesScanner),
  c('b3-unescaped-quotes-004', 'unescaped-quotes', '{"py": "print(f"{x}")", "run": true}', { py: 'print(f"{x}")', run: true }, S.unescapedQuotesCode),
  c('b3-unescaped-quotes-005', 'unescaped-quotes', '{"css": "a[href="x"] { color: red }"}', { css: 'a[href="x"] { color: red }' }, S.unescapedQuotesCode),
  c('b3-duplicated-object-001', 'duplicated-object', '{"a": 1}\nSorry, again: {"a": 1}', { a: 1 }, S.duplicatedArguments),
  c(
    'b3-duplicated-object-002',
    'duplicated-object',
    '{"q": "x", "n": 2}{"n": 2, "q": "x"}',
    { q: 'x', n: 2 },
    S.duplicatedArguments,
    'the same object, keys in another order',
  ),
  c('b3-duplicated-object-003', 'duplicated-object', '```json\n{"a": 1}\n```\n```json\n{"a": 1}\n```', { a: 1 }, S.duplicatedArguments),
  c('b3-concatenated-001', 'concatenated', '{"a": 1}{"a": 1, "b": 2}', null, S.concatenatedCalls, 'not the same object: never guessed'),
  c('b3-stray-fence-001', 'stray-fence', '{"a": 1}\n```\n```json\n{"a": 1}\n```', { a: 1 }, S.strayFence),
  c('b3-stray-fence-002', 'stray-fence', '{"n": [1, 2]}``` ```', { n: [1, 2] }, S.strayFence),
  c('b3-stray-fence-003', 'stray-fence', '{"a": TRUE}```', { a: true }, S.strayFence),
  c('b3-comments-001', 'comments', '{"a": [1, 2 /* ] */]}', { a: [1, 2] }, S.pyJsonRepairComment),
  c('b3-comments-002', 'comments', '{"a": 1 // }\n}', { a: 1 }, S.pyJsonRepairComment),
  c('b3-comments-003', 'comments', '{\n  // {"old": true}\n  "new": true\n}', { new: true }, S.pyJsonRepairComment),
  c('b3-comments-004', 'comments', '{"a": 1, /* "b": 2, */ "c": 3}', { a: 1, c: 3 }, S.pyJsonRepairComment),
  c('b3-mismatched-brackets-001', 'mismatched-brackets', '{"a": [{"b": 1}]]}', { a: [{ b: 1 }] }, S.jsonrepairTests),
  c('b3-mismatched-brackets-002', 'mismatched-brackets', '{"a": {"b": [1, 2}}}', { a: { b: [1, 2] } }, S.pyJsonRepairArray),
  c('b3-mismatched-brackets-003', 'mismatched-brackets', '{"list": [1, 2, 3}, "n": 3}', { list: [1, 2, 3], n: 3 }, S.pyJsonRepairArray),
  c('b3-mismatched-brackets-004', 'mismatched-brackets', '{"a": 1)', { a: 1 }, S.pyJsonRepairArray),
  c(
    'b3-truncated-long-string-001',
    'truncated-long-string',
    `{"edits": [{"path": "d.json", "new": ${JSON.stringify(nestedJson).slice(0, JSON.stringify(nestedJson).indexOf('}]}') + 3)}`,
    { edits: [{ path: 'd.json' }] },
    S.truncatedWrite,
    'JSON text in the string, cut right after its own }]}',
  ),
  c('b3-truncated-long-string-002', 'truncated-long-string', `{"sql": ${JSON.stringify(sqlText).slice(0, 1200)}`, {}, S.truncatedMaxTokens),
  c(
    'b3-truncated-long-string-003',
    'truncated-long-string',
    `{"file": "q.sql", "sql": ${JSON.stringify(sqlText).slice(0, JSON.stringify(sqlText).indexOf("'),", 600) + 2)}`,
    { file: 'q.sql' },
    S.truncatedMaxTokens,
    'cut after a ) of the SQL',
  ),
  c(
    'b3-truncated-long-string-004',
    'truncated-long-string',
    `{"path": "a.md", "content": "${'Line with a brace } and a comma, '.repeat(40)}`,
    { path: 'a.md' },
    S.truncatedWrite,
  ),
  c('b3-truncated-mid-object-001', 'truncated-mid-object', "{'a': (1, 2), 'b': (3,", { a: [1, 2], b: [3] }, S.tupleIssue),
  c('b3-truncated-mid-object-002', 'truncated-mid-object', '{"a": 1_000, "b": NULL, "c": "d', { a: 1000, b: null }, S.truncatedDetect),
  c('b3-missing-comma-colon-001', 'missing-comma-colon', '{"a": TRUE "b": NULL}', { a: true, b: null }, S.jsonrepairTests),
  c(
    'b3-valid-control-001',
    'valid-control',
    '{"note": "use (1, 2) or TRUE // not code", "v": "82_000", "w": "\\"quoted\\""}',
    { note: 'use (1, 2) or TRUE // not code', v: '82_000', w: '"quoted"' },
    S.agnoStringLiterals,
  ),
  c(
    'b3-valid-control-002',
    'valid-control',
    '{"k": {"toString": "x", "constructor": {"name": "y"}}}',
    JSON.parse('{"k": {"toString": "x", "constructor": {"name": "y"}}}') as Record<string, unknown>,
    S.protoKey,
  ),
  c('b3-non-object-root-001', 'non-object-root', '(TRUE, NULL)', null, S.tupleIssue),
];
