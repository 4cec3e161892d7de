import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The recall-quality corpus: Markdown pages (title = first heading) and queries naming the page they should find. */
export interface BrainCorpus {
  pages: Array<{ title: string; body: string }>;
  queries: Array<{ query: string; page: string }>;
}

const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'brain-corpus');

/** Reads `brain-corpus/pages/*.md` and `brain-corpus/queries.json`. */
export function loadBrainCorpus(): BrainCorpus {
  const pages = readdirSync(path.join(folder, 'pages'))
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => {
      const body = readFileSync(path.join(folder, 'pages', file), 'utf8');
      return { title: /^# (.+)$/m.exec(body)![1]!.trim(), body };
    });
  const queries = JSON.parse(readFileSync(path.join(folder, 'queries.json'), 'utf8')) as BrainCorpus['queries'];
  return { pages, queries };
}
