// Checks the BUILT @core/tools-web (run `npx tsup` first) against public real-world data kept outside the
// repository in ../shared/corpora (see its README): Mozilla Readability's test pages and recorded Brave,
// Tavily and SearXNG responses. Prints figures, asserts nothing; the tests use the package's own fixtures.
// `node bench/corpora.mjs` — skips with one line when ../shared is absent (a user's clone has none).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseHTML } from 'linkedom';

const corpora = fileURLToPath(new URL('../../../../shared/corpora/', import.meta.url));
if (!existsSync(corpora)) {
  console.log(`corpora check skipped: ${corpora} is absent (it is measurement data outside the repository).`);
  process.exit(0);
}
// TOOLS_WEB_BENCH_BUILD=path/to/index.js measures another build (the previous commit's, say), as bench/run.mjs does.
const build = process.env.TOOLS_WEB_BENCH_BUILD;
const { createBraveSearchProvider, createSearxngSearchProvider, createTavilySearchProvider, htmlToMarkdown } = await import(build === undefined ? '@core/tools-web' : new URL(build, `file://${process.cwd()}/`).href);

// --- Pages: tables, code lines, formulas and metadata against Readability's expected extraction.
const pagesDir = `${corpora}readability-pages/`;
const pages = readdirSync(pagesDir).filter((name) => existsSync(`${pagesDir}${name}/source.html`));
const totals = { pages: 0, crashes: 0, dataTables: 0, tablesKept: 0, codeLines: 0, codeLinesVerbatim: 0, formulas: 0, formulasKept: 0, metadata: 0, metadataRight: 0 };
const misses = [];

function preText(pre) {
  let text = '';
  const walk = (node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === 3) text += child.textContent;
      else if (child.nodeType === 1) {
        if (child.nodeName.toUpperCase() === 'BR') text += '\n';
        else walk(child);
      }
    }
  };
  walk(pre);
  return text;
}

/** A data table as Readability's own test expectations keep it: 2+ rows, 2+ columns, no table inside. */
function isDataTable(table) {
  if (table.querySelector('table')) return false;
  const rows = table.querySelectorAll('tr');
  return rows.length >= 2 && [...rows].some((row) => row.querySelectorAll('td, th').length >= 2);
}

for (const name of pages) {
  const source = readFileSync(`${pagesDir}${name}/source.html`, 'utf8');
  const expected = parseHTML(`<html><body>${readFileSync(`${pagesDir}${name}/expected.html`, 'utf8')}</body></html>`).document;
  const metadata = JSON.parse(readFileSync(`${pagesDir}${name}/expected-metadata.json`, 'utf8'));
  totals.pages += 1;
  let result;
  try {
    result = htmlToMarkdown(source, `http://fakehost/test/${name}/`);
  } catch (error) {
    totals.crashes += 1;
    misses.push(`${name}: crashed: ${error.message}`);
    continue;
  }
  // Code in a blockquote carries the quote's `> ` prefix.
  const markdownLines = new Set(result.markdown.split('\n').map((line) => line.replace(/^(> ?)+/, '').trimEnd()));
  const dataTables = [...expected.querySelectorAll('table')].filter(isDataTable).length;
  const gfmTables = result.markdown.split('\n').filter((line) => /^\|( --- \|)+$/.test(line)).length;
  totals.dataTables += dataTables;
  totals.tablesKept += Math.min(dataTables, gfmTables);
  if (gfmTables < dataTables) misses.push(`${name}: ${gfmTables} of ${dataTables} data tables as GFM tables`);
  for (const pre of expected.querySelectorAll('pre')) {
    for (const line of preText(pre).split('\n')) {
      if (line.trim() === '') continue;
      totals.codeLines += 1;
      if (markdownLines.has(line.trimEnd())) totals.codeLinesVerbatim += 1;
      else if (misses.filter((miss) => miss.startsWith(`${name}: code`)).length < 2) misses.push(`${name}: code line not verbatim: ${JSON.stringify(line.trimEnd().slice(0, 80))}`);
    }
  }
  // A formula is kept when its symbols (MathML token text) appear, in order, in the Markdown.
  const compact = result.markdown.replace(/\s+/g, '');
  let from = 0;
  for (const math of expected.querySelectorAll('math')) {
    const symbols = [...math.querySelectorAll('mi, mn, mo')].map((token) => token.textContent.replace(/\s+/g, '')).join('');
    if (symbols === '') continue;
    totals.formulas += 1;
    let position = from;
    for (const symbol of symbols) {
      position = compact.indexOf(symbol, position);
      if (position === -1) break;
      position += symbol.length;
    }
    if (position !== -1) {
      totals.formulasKept += 1;
      from = position;
    } else misses.push(`${name}: formula not kept: ${symbols.slice(0, 60)}`);
  }
  for (const [field, ours] of [['title', result.title], ['byline', result.byline], ['siteName', result.siteName], ['publishedTime', result.publishedTime]]) {
    const want = metadata[field];
    if (want === undefined || want === null || want === '') continue;
    totals.metadata += 1;
    const clean = (value) => String(value ?? '').replace(/\s+/g, ' ').trim();
    if (clean(ours) === clean(want)) totals.metadataRight += 1;
    else misses.push(`${name}: ${field} ${JSON.stringify(ours)} (Readability: ${JSON.stringify(want)})`);
  }
}

// --- The 1 MB Wikipedia page under the default 512 Ki conversion cap: metadata from the whole document.
const wikipedia = htmlToMarkdown(readFileSync(`${pagesDir}wikipedia-2/source.html`, 'utf8'), 'https://en.wikipedia.org/wiki/New_Zealand');

// --- Search payloads replayed by a local server; dates read under two time zones in child processes.
const payloadDir = `${corpora}search-payloads/`;
const payloads = readdirSync(payloadDir).filter((name) => name.endsWith('.json'));
let served = '';
const server = createServer((_request, response) => {
  response.writeHead(200, { 'Content-Type': 'application/json' });
  response.end(served);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
const search = { payloads: 0, results: 0, dated: 0 };
for (const name of payloads) {
  served = readFileSync(`${payloadDir}${name}`, 'utf8');
  const provider = name.startsWith('brave')
    ? createBraveSearchProvider({ apiKey: 'k', baseURL: origin })
    : name.startsWith('tavily')
      ? createTavilySearchProvider({ apiKey: 'k', baseURL: origin })
      : createSearxngSearchProvider({ baseURL: origin });
  const results = await provider.search('q', { count: 20, signal: AbortSignal.timeout(10_000) });
  search.payloads += 1;
  search.results += results.length;
  search.dated += results.filter((result) => result.published !== undefined).length;
}
server.close();
const dateScript = `
  import { readFileSync } from 'node:fs';
  import { createServer } from 'node:http';
  const { createBraveSearchProvider } = await import(${JSON.stringify(build === undefined ? '@core/tools-web' : new URL(build, `file://${process.cwd()}/`).href)});
  const files = ${JSON.stringify(payloads.filter((name) => name.startsWith('brave')).map((name) => `${payloadDir}${name}`))};
  const dates = [];
  for (const file of files) {
    const server = createServer((_q, r) => { r.writeHead(200, { 'Content-Type': 'application/json' }); r.end(readFileSync(file)); });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const provider = createBraveSearchProvider({ apiKey: 'k', baseURL: 'http://127.0.0.1:' + server.address().port });
    dates.push(...(await provider.search('q', { count: 20, signal: AbortSignal.timeout(10_000) })).map((result) => result.published ?? ''));
    server.close();
  }
  console.log(JSON.stringify(dates));`;
const datesIn = (zone) =>
  spawnSync(process.execPath, ['--input-type=module', '-e', dateScript], { cwd: fileURLToPath(new URL('..', import.meta.url)), env: { ...process.env, TZ: zone }, encoding: 'utf8' }).stdout.trim();
const tokyo = datesIn('Asia/Tokyo');
const losAngeles = datesIn('America/Los_Angeles');

const percent = (part, whole) => (whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)} %`);
console.log(`@core/tools-web on ../shared/corpora (node ${process.version}${build === undefined ? '' : `, build ${build}`})`);
console.log(`readability pages: ${totals.pages}, crashes: ${totals.crashes}`);
console.log(`data tables kept as GFM tables: ${totals.tablesKept} of ${totals.dataTables}`);
console.log(`code lines verbatim: ${totals.codeLinesVerbatim} of ${totals.codeLines} (${percent(totals.codeLinesVerbatim, totals.codeLines)})`);
console.log(`MathML formulas kept as text: ${totals.formulasKept} of ${totals.formulas}`);
console.log(`metadata fields equal to Readability's: ${totals.metadataRight} of ${totals.metadata}`);
console.log(`wikipedia-2 (${(wikipedia.htmlLength / 1024).toFixed(0)} Ki characters, cut at ${((wikipedia.convertedLength ?? wikipedia.htmlLength) / 1024).toFixed(0)} Ki): title ${JSON.stringify(wikipedia.title)}, byline ${JSON.stringify(wikipedia.byline)}, site ${JSON.stringify(wikipedia.siteName)}, published ${JSON.stringify(wikipedia.publishedTime)}`);
console.log(`search payloads: ${search.payloads}, results ${search.results}, dated ${search.dated}`);
console.log(`Brave dates under TZ=Asia/Tokyo and TZ=America/Los_Angeles ${tokyo === losAngeles && tokyo !== '' ? 'agree' : 'DIFFER'}: ${tokyo}`);
if (process.argv.includes('--misses')) for (const miss of misses) console.log(`  ${miss}`);
else if (misses.length > 0) console.log(`(${misses.length} differences; --misses lists them)`);
