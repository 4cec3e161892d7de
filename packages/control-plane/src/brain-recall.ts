import type { RecallHit, RecallMode, RecallResult } from './brain-client.js';
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
  all_matched: boolean;
  rank: number;
  snippet: string | null;
}

/** `ts_headline` options: up to two fragments of about 12 to 30 words, matches in Markdown bold. */
const HEADLINE_OPTIONS = 'StartSel=**, StopSel=**, MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "';
/** Title matches weigh most (A), body matches (B) less; C and D are unused. */
const RANK_WEIGHTS = '{0.1, 0.2, 0.4, 1.0}';
/** Websearch operators: a quoted phrase, `or`, or a `-word` exclusion. */
const OPERATORS = /"|(^|\s)-\S|\sor\s/i;

/**
 * Searches one agent's pages, falling through three ways of reading the query until one finds pages:
 * 1. full-text (`websearch_to_tsquery('english', query)`): pages matching every word rank first, then — for a
 *    query without operators — pages matching any of its words, by `ts_rank_cd` (title weighs more than body);
 * 2. the query's words as prefixes (`kube` finds "Kubernetes"; also for queries of stop words only);
 * 3. the query as a case-insensitive substring of a title or body (`ILIKE`), titles first.
 * Snippets come from `ts_headline` (matches between `**`), or around the substring.
 */
export async function recallPages(executor: SqlExecutor, input: RecallPagesInput): Promise<RecallResult> {
  const { table, agentId, query, limit } = input;
  const fullText = await executor.query<HitRow>(
    `WITH words AS (SELECT unnest(tsvector_to_array(to_tsvector('english', $2))) AS word),
     input AS MATERIALIZED (
       SELECT websearch_to_tsquery('english', $2) AS all_words,
              CASE WHEN $4::boolean THEN websearch_to_tsquery('english', $2)
                   ELSE (SELECT coalesce(string_agg(quote_literal(word), ' | '), '')::tsquery FROM words) END AS any_word,
              CASE WHEN $4::boolean THEN ARRAY[websearch_to_tsquery('english', $2)]
                   ELSE ARRAY(SELECT quote_literal(word)::tsquery FROM words) END AS words
     )
     ${rankedHits(table)}`,
    [agentId, query, limit, OPERATORS.test(query)],
  );
  if (fullText.rows.length > 0) {
    return { query, mode: fullText.rows[0]!.all_matched ? 'all-words' : 'any-word', hits: fullText.rows.map(hit) };
  }

  const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 16);
  if (words.length > 0) {
    const prefixes = words.map((word) => `'${word}':*`);
    const prefix = await executor.query<HitRow>(
      `WITH input AS MATERIALIZED (SELECT $2::tsquery AS all_words, $4::tsquery AS any_word, $5::tsquery[] AS words)
       ${rankedHits(table)}`,
      [agentId, prefixes.join(' & '), limit, prefixes.join(' | '), prefixes],
    );
    if (prefix.rows.length > 0) return { query, mode: 'prefix', hits: prefix.rows.map(hit) };
  }

  const substring = await executor.query<HitRow>(
    `SELECT id, title, char_length(body) AS size, updated_at, false AS all_matched,
            CASE WHEN title ILIKE $2 THEN 1.0 ELSE 0.5 END AS rank,
            substr(body, greatest(1, strpos(lower(body), lower($4)) - 80), char_length($4) + 160) AS snippet
     FROM ${table} WHERE agent_id = $1 AND (title ILIKE $2 OR body ILIKE $2)
     ORDER BY (title ILIKE $2) DESC, updated_at DESC, id LIMIT $3`,
    [agentId, `%${query.replace(/[\\%_]/g, (character) => `\\${character}`)}%`, limit, query],
  );
  return { query, mode: 'substring' satisfies RecallMode, hits: substring.rows.map((row) => hit({ ...row, snippet: highlight(row.snippet ?? '', query) })) };
}

/** The ranked, limited hits for the `input` CTE's `all_words` and `any_word` queries, with headlines. */
function rankedHits(table: string): string {
  return `, top AS (
       SELECT page.id, page.title, page.body, page.updated_at, (page.search @@ input.all_words) AS all_matched,
              (SELECT count(*) FROM unnest(input.words) AS word WHERE page.search @@ word) AS matched_words,
              ts_rank('${RANK_WEIGHTS}', page.search, input.any_word, 1) AS rank, input.any_word
       FROM ${table} AS page, input
       WHERE page.agent_id = $1 AND numnode(input.any_word) > 0 AND page.search @@ input.any_word
       ORDER BY all_matched DESC, matched_words DESC, rank DESC, page.id
       LIMIT $3
     )
     SELECT id, title, char_length(body) AS size, updated_at, all_matched, rank,
            ts_headline('english', body, any_word, '${HEADLINE_OPTIONS}') AS snippet
     FROM top ORDER BY all_matched DESC, matched_words DESC, rank DESC, id`;
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
