import { corpusCase as c, type CorpusCase } from './corpus-case.js';
import { SOURCES as S } from './sources.js';

/*
 * A second batch, written after the ladder's rules were grown on the first one, to measure them on cases they were
 * not developed on (the figure is in the runtime README). The same kinds, new shapes.
 */
const longPatch = '@@ -1,4 +1,6 @@\n-function old() {}\n+function next(a, b) {\n+  return { a, b };\n+}\n';

export const secondBatchCases: CorpusCase[] = [
  c('b2-python-literals-001', 'python-literals', "{'dry_run': True, 'targets': ['web', 'db'], 'notify': None}", { dry_run: true, targets: ['web', 'db'], notify: null }, S.leakedPythonDict),
  c('b2-python-literals-002', 'python-literals', '{"filters": {"archived": False, "owner": None}, "limit": 20}', { filters: { archived: false, owner: null }, limit: 20 }, S.qwenPythonLiterals),
  c('b2-upper-case-literals-001', 'upper-case-literals', '{"overwrite":TRUE,"backup":FALSE}', { overwrite: true, backup: false }, S.pyJsonRepairBool),
  c('b2-upper-case-literals-002', 'upper-case-literals', '{"items": [{"id": 1, "parent": NULL}, {"id": 2, "parent": 1}]}', { items: [{ id: 1, parent: null }, { id: 2, parent: 1 }] }, S.pyJsonRepairBool),
  c('b2-upper-case-literals-003', 'upper-case-literals', '{\n  "strict": FALSE,\n  "label": "FALSE"\n}', { strict: false, label: 'FALSE' }, S.agnoStringLiterals),
  c('b2-tuples-001', 'tuples', '{"region": (0, 0, 1920, 1080), "format": "png"}', { region: [0, 0, 1920, 1080], format: 'png' }, S.tupleIssue),
  c('b2-tuples-002', 'tuples', "{'steps': [('build', 1), ('test', 2)]}", { steps: [['build', 1], ['test', 2]] }, S.tupleIssue),
  c('b2-tuples-003', 'tuples', '{"exclude": (), "include": ("src",)}', { exclude: [], include: ['src'] }, S.tupleIssue),
  c('b2-digit-separators-001', 'digit-separators', '{"bytes": 10_485_760, "chunks": 4}', { bytes: 10485760, chunks: 4 }, S.digitSeparatorVllm),
  c('b2-digit-separators-002', 'digit-separators', "{'rate': 0.000_1, 'steps': 100_000}", { rate: 0.0001, steps: 100000 }, S.digitSeparatorIssue),
  c('b2-key-quote-001', 'key-quote', '{"file_path: "/tmp/out.txt", "content": "done"}', { file_path: '/tmp/out.txt', content: 'done' }, S.pyJsonRepairObject),
  c('b2-key-quote-002', 'key-quote', '{"query": "rust async", "max_results: 3}', { query: 'rust async', max_results: 3 }, S.pyJsonRepairObject),
  c('b2-key-quote-003', 'key-quote', '{"url": "https://example.com", timeout": 30}', { url: 'https://example.com', timeout: 30 }, S.kimiMissingQuote),
  c('b2-doubled-quote-001', 'doubled-quote', '{"branch": ""main", "force": false}', { branch: 'main', force: false }, S.pyJsonRepairObject),
  c('b2-doubled-quote-002', 'doubled-quote', '{""files"": [""a.txt"", ""b.txt""]}', { files: ['a.txt', 'b.txt'] }, S.pyJsonRepairObject),
  c('b2-unescaped-quotes-001', 'unescaped-quotes', '{"path": "index.html", "content": "<div class="box">Hi</div>"}', { path: 'index.html', content: '<div class="box">Hi</div>' }, S.unescapedQuotesCode),
  c('b2-unescaped-quotes-002', 'unescaped-quotes', '{"message": "fix: handle "null" input", "amend": false}', { message: 'fix: handle "null" input', amend: false }, S.unescapedQuotesScanner),
  c('b2-unescaped-quotes-003', 'unescaped-quotes', '{"cmd": "echo "a, b" > out.txt"}', { cmd: 'echo "a, b" > out.txt' }, S.unescapedQuotesScanner),
  c('b2-duplicated-object-001', 'duplicated-object', '{"todos": [{"content": "write tests", "status": "pending"}]}{"todos": [{"content": "write tests", "status": "pending"}]}', { todos: [{ content: 'write tests', status: 'pending' }] }, S.duplicatedArguments),
  c('b2-duplicated-object-002', 'duplicated-object', '{"path": "a"}\n\n{"path":"a"}\n', { path: 'a' }, S.duplicatedArguments),
  c('b2-concatenated-001', 'concatenated', '{"path": "a.md"}\n{"path": "b.md"}', null, S.concatenatedCalls),
  c('b2-stray-fence-001', 'stray-fence', '{"pattern": "TODO", "glob": "**/*.ts"}\n```\n', { pattern: 'TODO', glob: '**/*.ts' }, S.strayFence),
  c('b2-stray-fence-002', 'stray-fence', '{"a": [1, 2, 3]}```\n\nLet me know if you need more.', { a: [1, 2, 3] }, S.strayFence),
  c('b2-code-fenced-001', 'code-fenced', 'I will call the tool:\n\n```json\n{\n  "city": "Nairobi",\n  "units": "metric"\n}\n```', { city: 'Nairobi', units: 'metric' }, S.fenceAfterProse),
  c('b2-comments-001', 'comments', '{\n  "path": "src", // where to look\n  "depth": 2 /* levels */\n}', { path: 'src', depth: 2 }, S.pyJsonRepairComment),
  c('b2-comments-002', 'comments', '{"ids": [1, 2, /* 3 was removed */ 4]} // ids to fetch', { ids: [1, 2, 4] }, S.pyJsonRepairComment),
  c('b2-comments-003', 'comments', '/* arguments */ {"q": "x"}', { q: 'x' }, S.pyJsonRepairComment),
  c('b2-mismatched-brackets-001', 'mismatched-brackets', '{"matrix": [[1, 0], [0, 1}}', { matrix: [[1, 0], [0, 1]] }, S.pyJsonRepairArray),
  c('b2-mismatched-brackets-002', 'mismatched-brackets', '{"user": {"name": "Ana", "roles": ["admin"}}', { user: { name: 'Ana', roles: ['admin'] } }, S.deepseekDroppedBrace),
  c('b2-mismatched-brackets-003', 'mismatched-brackets', '{"a": {"b": 1}}}\n', { a: { b: 1 } }, S.jsonrepairTests),
  c('b2-truncated-long-string-001', 'truncated-long-string', `{"path": "fix.patch", "patch": ${JSON.stringify(longPatch.repeat(8)).slice(0, 300)}`, { path: 'fix.patch' }, S.truncatedWrite),
  c('b2-truncated-long-string-002', 'truncated-long-string', `{"path": "fix.patch", "patch": ${JSON.stringify(longPatch.repeat(8)).slice(0, JSON.stringify(longPatch.repeat(8)).indexOf('}', 200) + 1)}`, { path: 'fix.patch' }, S.truncatedWrite, 'cut right after a } of the patch'),
  c('b2-truncated-long-string-003', 'truncated-long-string', `{"notes": ["first", ${JSON.stringify('a, b, {c}, [d], '.repeat(40)).slice(0, 500)}`, { notes: ['first'] }, S.truncatedContainers),
  c('b2-truncated-mid-object-001', 'truncated-mid-object', '{"todos": [{"id": "1", "content": "Plan", "status": "done"}, {"id": "2", "content": "Bui', { todos: [{ id: '1', content: 'Plan', status: 'done' }, { id: '2' }] }, S.truncatedContainers),
  c('b2-truncated-mid-object-002', 'truncated-mid-object', '{"recursive": TRUE, "path": "sr', { recursive: true }, S.truncatedDetect),
  c('b2-single-quotes-001', 'single-quotes', "{'command': 'git status', 'cwd': '/repo'}", { command: 'git status', cwd: '/repo' }, S.leakedPythonDict),
  c('b2-trailing-comma-001', 'trailing-comma', '{"tags": ["a", "b",], "pinned": true,}', { tags: ['a', 'b'], pinned: true }, S.jsonrepairTests),
  c('b2-missing-comma-colon-001', 'missing-comma-colon', '{"from": "a.txt"\n "to": "b.txt"}', { from: 'a.txt', to: 'b.txt' }, S.jsonrepairTests),
  c('b2-escaped-newlines-001', 'escaped-newlines', String.raw`{"command": "view",\n"path": "/a.py",\n"view_range": [1, 40]\n}`, { command: 'view', path: '/a.py', view_range: [1, 40] }, S.qwenLiteralNewlines),
  c('b2-double-encoded-001', 'double-encoded', String.raw`"{\"todos\": [{\"id\": \"1\"}]}"`, { todos: [{ id: '1' }] }, S.doubleEncoded),
  c('b2-nan-infinity-001', 'nan-infinity', '{"threshold": NaN, "max": Infinity, "min": 0}', { threshold: null, max: null, min: 0 }, S.nanJson),
  c('b2-valid-control-001', 'valid-control', '{"sql": "SELECT \'TRUE\', NULL, (1, 2) -- comment", "n": 1}', { sql: "SELECT 'TRUE', NULL, (1, 2) -- comment", n: 1 }, S.agnoStringLiterals),
  c('b2-valid-control-002', 'valid-control', String.raw`{"md": "` + '```' + String.raw`json\n{\"a\": 1}\n` + '```' + String.raw`\n// done", "x": "}{"}`, { md: '```json\n{"a": 1}\n```\n// done', x: '}{' }, S.fencedArguments),
  c('b2-valid-control-003', 'valid-control', '{"a": {"__proto__": {"admin": true}}}', JSON.parse('{"a": {"__proto__": {"admin": true}}}') as Record<string, unknown>, S.protoKey),
  c('b2-non-object-root-001', 'non-object-root', '("a", "b")', null, S.tupleIssue),
];
