import type { RecallHit, RecallMode, RecallResult } from '@core/control-plane-client';
import { isoTime } from './records.js';
import type { SqlExecutor } from './sql-driver.js';

/** What `recallPages` searches. */
export interface RecallPagesInput {
  /** The schema-qualified `brain_page` table. */
  table: string;
  agentId: string;
  query: string;
  limit: number;
}

interface HitRow {
  id: string;
  title: string;
  size: number;
  updated_at: Date | string;
  matched: number;
  rank: number;
  snippet: string | null;
}

/** The words of one search: each a `tsquery` text, and whether each may also be looked up as a title word. */
interface SearchWords {
  words: string[];
  titleWords: string[];
}

/** `ts_headline` options: up to two fragments of about 12 to 30 words, matches in Markdown bold. */
const HEADLINE_OPTIONS = 'StartSel=**, StopSel=**, MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "';
/** Title matches weigh most (A), body matches (B) less; C and D are unused. */
const RANK_WEIGHTS = '{0.1, 0.2, 0.4, 1.0}';
/** Websearch operators: a quoted phrase, `or`, or a `-word` exclusion. */
const OPERATORS = /"|(^|\s)-\S|\sor\s/i;
/** Most query words searched (the rest are ignored). */
const MAX_WORDS = 16;
/** Most word combinations in one relaxed query (see `levels`). */
const MAX_COMBINATIONS = 40;

/**
 * Searches one agent's pages, falling through three ways of reading the query until one finds pages:
 * 1. full text, the 'english' configuration: pages are ordered by how many of the query's words they contain
 *    (a word in the title counts half a word more), then by `ts_rank` (title weighs more than body). A query with
 *    operators ("phrase", `or`, `-word`) is one `websearch_to_tsquery` instead;
 * 2. the query's words as prefixes (`kube` finds "Kubernetes"; also for queries of stop words only);
 * 3. the query as a case-insensitive substring of a title or body (`ILIKE`), titles first.
 * Snippets come from `ts_headline` (matches between `**`), or around the substring.
 *
 * Speed: ranking every page that has any one of the words is slow on large Brains (common words match thousands
 * of pages), so the GIN index is first asked for pages with every word, then with at least about half of them,
 * and only then with any; the first of these with `limit` pages gives the hits. Because pages are ordered by the
 * number of words they contain, this returns the same pages as ranking all of them.
 */
export async function recallPages(executor: SqlExecutor, input: RecallPagesInput): Promise<RecallResult> {
  const { query, limit } = input;
  const { rows } = await executor.query<{ websearch: string; words: string[] }>(
    `SELECT websearch_to_tsquery('english', $1)::text AS websearch, tsvector_to_array(to_tsvector('english', $1)) AS words`,
    [query],
  );
  const websearch = rows[0]?.websearch ?? '';
  const lexemes = (rows[0]?.words ?? []).slice(0, MAX_WORDS);
  if (OPERATORS.test(query) && websearch !== '') {
    const hits = await rankedHits(executor, input, websearch, { words: [websearch], titleWords: [] });
    if (hits.length > 0) return { query, mode: 'all-words', hits: hits.map(hit) };
  } else if (lexemes.length > 0) {
    const words = { words: lexemes.map(quote), titleWords: lexemes.map((word) => `${quote(word)}:A`) };
    const hits = await relaxedHits(executor, input, words);
    if (hits.length > 0) return { query, mode: Number(hits[0]!.matched) === lexemes.length ? 'all-words' : 'any-word', hits: hits.map(hit) };
  }

  // One letter is too short a prefix to mean anything ("it's" would find every word starting with "s").
  const tokens = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [])].slice(0, MAX_WORDS);
  if (tokens.length > 0) {
    const hits = await relaxedHits(executor, input, { words: tokens.map((token) => `${quote(token)}:*`), titleWords: [] });
    if (hits.length > 0) return { query, mode: 'prefix', hits: hits.map(hit) };
  }

  const { table, agentId } = input;
  const substring = await executor.query<HitRow>(
    `SELECT id, title, char_length(body) AS size, updated_at, 0 AS matched,
            CASE WHEN title ILIKE $2 THEN 1.0 ELSE 0.5 END AS rank,
            substr(body, greatest(1, strpos(lower(body), lower($4)) - 80), char_length($4) + 160) AS snippet
     FROM ${table} WHERE agent_id = $1 AND (title ILIKE $2 OR body ILIKE $2)
     ORDER BY (title ILIKE $2) DESC, updated_at DESC, id LIMIT $3`,
    [agentId, `%${query.replace(/[\\%_]/g, (character) => `\\${character}`)}%`, limit, query],
  );
  return { query, mode: 'substring' satisfies RecallMode, hits: substring.rows.map((row) => hit({ ...row, snippet: highlight(row.snippet ?? '', query) })) };
}

/** The best pages with at least `level` of the words, for each level of `levels` until one gives `limit` pages. */
async function relaxedHits(executor: SqlExecutor, input: RecallPagesInput, search: SearchWords): Promise<HitRow[]> {
  const { words } = search;
  let hits: HitRow[] = [];
  for (const level of levels(words.length)) {
    const match = combinations(words, level)
      .map((group) => `(${group.join(' & ')})`)
      .join(' | ');
    hits = await rankedHits(executor, input, match, search);
    if (hits.length >= input.limit) break;
  }
  return hits;
}

/**
 * The word counts to ask the index for, most first: all `count` words, then the smallest number from about half
 * of them up whose combinations stay few, then one word.
 */
function levels(count: number): number[] {
  const result = [count];
  for (let level = Math.ceil(count / 2); level < count; level += 1) {
    if (level > 1 && binomial(count, level) <= MAX_COMBINATIONS) {
      result.push(level);
      break;
    }
  }
  if (count > 1) result.push(1);
  return result;
}

/** The pages matching `match` (a `tsquery` text), ordered by words contained, then rank; with headlines. */
async function rankedHits(executor: SqlExecutor, input: RecallPagesInput, match: string, search: SearchWords): Promise<HitRow[]> {
  const contains = (parameter: number, count: number) =>
    count === 0 ? `0 * cardinality($${parameter}::tsquery[])` : Array.from({ length: count }, (_, index) => `(page.search @@ ($${parameter}::tsquery[])[${index + 1}])::int`).join(' + ');
  const order = 'matched + 0.5 * title_matched DESC, rank DESC, id';
  const { rows } = await executor.query<HitRow>(
    `WITH scored AS (
       SELECT page.id, page.title, page.body, page.updated_at,
              ${contains(5, search.words.length)} AS matched, ${contains(6, search.titleWords.length)} AS title_matched,
              ts_rank('${RANK_WEIGHTS}', page.search, $4::tsquery, 1) AS rank
       FROM ${input.table} AS page
       WHERE page.agent_id = $1 AND page.search @@ $2::tsquery
     ), top AS (SELECT * FROM scored ORDER BY ${order} LIMIT $3)
     SELECT id, title, char_length(body) AS size, updated_at, matched, rank,
            ts_headline('english', body, $4::tsquery, '${HEADLINE_OPTIONS}') AS snippet
     FROM top ORDER BY ${order}`,
    [input.agentId, match, input.limit, search.words.join(' | '), search.words, search.titleWords],
  );
  return rows;
}

/** A lexeme as a quoted `tsquery` operand. */
function quote(word: string): string {
  return `'${word.replaceAll("'", "''")}'`;
}

function combinations<T>(items: readonly T[], size: number): T[][] {
  if (size >= items.length) return [[...items]];
  const result: T[][] = [];
  const walk = (start: number, chosen: T[]) => {
    if (chosen.length === size) {
      result.push(chosen);
      return;
    }
    for (let index = start; index <= items.length - (size - chosen.length); index += 1) walk(index + 1, [...chosen, items[index]!]);
  };
  walk(0, []);
  return result;
}

function binomial(count: number, size: number): number {
  let result = 1;
  for (let index = 1; index <= size; index += 1) result = (result * (count - size + index)) / index;
  return Math.round(result);
}

function hit(row: HitRow): RecallHit {
  return {
    id: row.id,
    title: row.title,
    snippet: (row.snippet ?? '').replace(/\s+/g, ' ').trim(),
    rank: Math.round(Number(row.rank) * 10_000) / 10_000,
    size: Number(row.size),
    updatedAt: isoTime(row.updated_at),
  };
}

/** Marks each case-insensitive occurrence of `needle` in `text` with `**`. */
function highlight(text: string, needle: string): string {
  const lower = text.toLowerCase();
  const target = needle.toLowerCase();
  let result = '';
  let from = 0;
  for (let index = lower.indexOf(target); index !== -1 && target !== ''; index = lower.indexOf(target, from)) {
    result += `${text.slice(from, index)}**${text.slice(index, index + needle.length)}**`;
    from = index + needle.length;
  }
  return result + text.slice(from);
}
