import { stat } from 'node:fs/promises';
import path from 'node:path';
import { MAX_BRAIN_IMPORT_PAGES, type ControlPlaneClient, type ImportPagesResult } from '@core/control-plane-client';
import { describeTime } from '../../render/relative-time.js';
import type { CliCommand } from '../cli-command.js';
import { CliError, EXIT_CODES } from '../cli-error.js';
import { resolveIdPrefix } from '../id-prefix.js';
import { parseCommandLine, positiveInteger, stringValue } from '../parse-command-line.js';
import { agentOption, CONTROL_PLANE_OPTIONS, CONTROL_PLANE_OPTIONS_HELP, formatTable, openFromOptions } from '../../control-plane/control-plane-options.js';
import { readMarkdownPages, type MarkdownPage } from './read-markdown-pages.js';

const OPTIONS = {
  ...CONTROL_PLANE_OPTIONS,
  agent: { type: 'string' },
  limit: { type: 'string' },
  offset: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const HELP = [
  'Usage: ankole brain [list]                the agent\'s Brain pages, by title',
  '       ankole brain search "<query>"      full-text recall: the best pages, with snippets (matches in bold on a terminal)',
  '       ankole brain show <page>           one page (by id, its first characters, or title), whole',
  '       ankole brain import <dir>          the Markdown files under <dir> (recursive) as pages: the title is the',
  '                                          first heading, else the file name; a page with the same title is replaced',
  '                                          (two files with one title are refused: nothing is imported)',
  '',
  'Brain is an agent\'s own knowledge: Markdown pages in the control plane, which its turns read with recall and',
  'get_page (and write with create_page, update_page, delete_page) when Brain is enabled (`ankole run --brain`).',
  '',
  'Options:',
  '  --agent NAME       the agent (default: "default")',
  '  --limit N          most pages to list (default 100) or to find (default 5)',
  '  --offset N         list from this page on (default 0)',
  '  --json             print JSON',
  ...CONTROL_PLANE_OPTIONS_HELP,
  '  -h, --help         show this help',
  '',
].join('\n');

/** Pages per `importPages` call, and their most characters together (one statement each). */
const BATCH_PAGES = Math.min(500, MAX_BRAIN_IMPORT_PAGES);
const BATCH_CHARACTERS = 4_000_000;

/** `ankole brain`: list, search, show and import an agent's Brain pages. */
export const brainCommand: CliCommand = {
  name: 'brain',
  summary: 'list, search, show or import an agent\'s Brain pages (Markdown knowledge)',
  async run(args, io) {
    const { values, positionals } = parseCommandLine('brain', args, OPTIONS);
    if (values.help === true) {
      io.stdout.write(HELP);
      return EXIT_CODES.ok;
    }
    const [action = 'list', ...rest] = positionals;
    if (!['list', 'search', 'show', 'import'].includes(action)) {
      throw new CliError('action_unknown', `Unknown action "${action}" for \`ankole brain\`: use list, search, show or import (see \`ankole brain --help\`).`);
    }
    const agentId = agentOption(values);
    const limit = positiveInteger(values, 'limit', 'brain');
    const offsetText = stringValue(values, 'offset');
    const offset = offsetText === undefined ? undefined : Number(offsetText);
    if (offset !== undefined && !(Number.isInteger(offset) && offset >= 0)) throw new CliError('option_invalid', `--offset of \`ankole brain\` must be 0 or more, got "${offsetText}".`);
    const argument = rest.join(' ').trim();
    if (action === 'search' && argument === '') throw new CliError('query_missing', 'Give what to search for: ankole brain search "<query>".');
    if (action === 'show' && argument === '') throw new CliError('arguments_invalid', 'Give the page id or title: ankole brain show <page>.');
    if (action === 'import' && rest.length !== 1) throw new CliError('arguments_invalid', 'Give one folder: ankole brain import <dir>.');
    const folder = action === 'import' ? await existingFolder(path.resolve(io.cwd, rest[0]!)) : undefined;

    const { controlPlane } = await openFromOptions(values, io, false);
    try {
      const { client } = controlPlane;
      const json = values.json === true;
      if (action === 'list') {
        const listed = await client.brain.listPages({ agentId, ...(limit === undefined ? {} : { limit }), ...(offset === undefined ? {} : { offset }) });
        if (json) io.stdout.write(`${JSON.stringify(listed)}\n`);
        else if (listed.total === 0) io.stdout.write(`No Brain pages for agent ${agentId}.\n`);
        else {
          const rows = listed.pages.map((page) => [page.id, String(page.size), describeTime(page.updatedAt), page.title]);
          io.stdout.write(`${formatTable(['ID', 'CHARS', 'UPDATED', 'TITLE'], rows)}\n`);
          const first = (offset ?? 0) + 1;
          if (listed.pages.length < listed.total) io.stdout.write(`Pages ${first}–${first + listed.pages.length - 1} of ${listed.total} (--offset, --limit for more).\n`);
        }
      } else if (action === 'search') {
        const result = await client.brain.recall({ agentId, query: argument, ...(limit === undefined ? {} : { limit }) });
        if (json) io.stdout.write(`${JSON.stringify(result)}\n`);
        else if (result.hits.length === 0) io.stdout.write(`No Brain pages of agent ${agentId} match "${argument}".\n`);
        else {
          const bold = io.stdout.isTTY === true && (io.env.NO_COLOR === undefined || io.env.NO_COLOR === '');
          const lines = result.hits.flatMap((hit, index) => [`${index + 1}. ${hit.title}  (${hit.id}, ${hit.size} characters)`, `   ${snippetForPeople(hit.snippet, bold)}`]);
          io.stdout.write(`${lines.join('\n')}\n`);
        }
      } else if (action === 'show') {
        const page = await wholePage(client, agentId, argument);
        if (json) io.stdout.write(`${JSON.stringify(page)}\n`);
        else io.stdout.write(`${page.title}  (${page.id}, ${page.size} characters, updated ${describeTime(page.updatedAt)})\n\n${page.body}${page.body.endsWith('\n') ? '' : '\n'}`);
      } else {
        const read = await readMarkdownPages(folder!);
        refuseSharedTitles(read.pages);
        const totals = await importInBatches(client, agentId, read.pages);
        const summary = { folder, files: read.pages.length, ...totals, skipped: read.skipped };
        if (json) io.stdout.write(`${JSON.stringify(summary)}\n`);
        else {
          const lines = [
            `Imported ${read.pages.length} Markdown file(s) from ${folder} for agent ${agentId}: ${totals.created} created, ${totals.updated} updated, ${totals.unchanged} unchanged.`,
            ...read.skipped.map((skip) => `Skipped ${skip.file}: ${skip.reason}.`),
          ];
          io.stdout.write(`${lines.join('\n')}\n`);
        }
      }
      return EXIT_CODES.ok;
    } finally {
      await controlPlane.close();
    }
  },
};

/**
 * The whole page, read window by window: `page` is its id, its title, or the first 4 characters or more of its id.
 * @throws the control plane's not-found error when no page has that id, title or id prefix.
 */
async function wholePage(client: ControlPlaneClient, agentId: string, page: string) {
  let slice = await client.brain.getPage({ agentId, page, limit: 50_000 }).catch(async (error: unknown) => {
    const notFound = (error as { code?: unknown }).code === 'page_not_found';
    if (!notFound || !/^[0-9a-f-]{4,}$/i.test(page)) throw error;
    const ids = (await client.brain.listPages({ agentId, limit: 1000 })).pages.map((listed) => listed.id);
    const id = await resolveIdPrefix({ given: page, kind: 'Brain page', agentId, candidates: async () => ids });
    return client.brain.getPage({ agentId, page: id, limit: 50_000 });
  });
  let body = slice.text;
  while (slice.nextOffset !== null) {
    slice = await client.brain.getPage({ agentId, page: slice.id, offset: slice.nextOffset, limit: 50_000 });
    body += slice.text;
  }
  return { id: slice.id, title: slice.title, size: slice.size, createdAt: slice.createdAt, updatedAt: slice.updatedAt, body };
}

async function importInBatches(client: ControlPlaneClient, agentId: string, pages: readonly MarkdownPage[]): Promise<ImportPagesResult> {
  const totals: ImportPagesResult = { created: 0, updated: 0, unchanged: 0 };
  let batch: MarkdownPage[] = [];
  let characters = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const done = await client.brain.importPages({ agentId, pages: batch.map(({ title, body }) => ({ title, body })) });
    totals.created += done.created;
    totals.updated += done.updated;
    totals.unchanged += done.unchanged;
    batch = [];
    characters = 0;
  };
  for (const page of pages) {
    if (batch.length >= BATCH_PAGES || characters + page.body.length > BATCH_CHARACTERS) await flush();
    batch.push(page);
    characters += page.body.length;
  }
  await flush();
  return totals;
}

/**
 * A recall snippet for a person: its `**match**` marks drawn in bold on a terminal, left out elsewhere (`--json` keeps
 * them as the model sees them).
 */
function snippetForPeople(snippet: string, bold: boolean): string {
  return snippet.replace(/\*\*(.+?)\*\*/g, (_, text: string) => (bold ? `\u001b[1m${text}\u001b[22m` : text));
}

/**
 * Files that would become one page: a page per title, so the later file would silently replace the earlier one.
 * @throws CliError (exit code 2) naming each shared title and its files; nothing is imported.
 */
function refuseSharedTitles(pages: readonly MarkdownPage[]): void {
  const byTitle = new Map<string, string[]>();
  for (const page of pages) byTitle.set(page.title, [...(byTitle.get(page.title) ?? []), page.file]);
  const shared = [...byTitle].filter(([, files]) => files.length > 1);
  if (shared.length === 0) return;
  const listed = shared.slice(0, 5).map(([title, files]) => `"${title}" (${files.join(', ')})`).join('; ');
  throw new CliError(
    'titles_shared',
    `Files with the same title would become one page: ${listed}${shared.length > 5 ? '; …' : ''}. Give them distinct first headings (or file names); nothing was imported.`,
  );
}

async function existingFolder(folder: string): Promise<string> {
  const info = await stat(folder).catch(() => undefined);
  if (info === undefined) throw new CliError('folder_not_found', `The folder ${folder} does not exist: give \`ankole brain import\` a folder of Markdown files.`);
  if (!info.isDirectory()) throw new CliError('folder_not_folder', `${folder} is not a folder: give \`ankole brain import\` a folder of Markdown files.`);
  return folder;
}
