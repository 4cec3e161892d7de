import { constants } from 'node:fs';
import { defineWorkerTool, type AgentToolResult, type WorkerAgentTool } from '@core/runtime';
import { z } from 'zod';
import type { ComputerToolContext } from './computer-context.js';
import { decodeText } from './file-kind.js';
import { fsErrorToToolError } from './fs-error-message.js';
import { createLineMatcher } from './line-matcher.js';
import { globInHome, IGNORED_FOLDERS, type GlobEntry } from './glob-in-home.js';
import { openFileAt } from './held-folder.js';
import { plural, shortLabel } from './labels.js';
import { toolErrorResult, type ToolErrorDetails } from './tool-error-result.js';

/** The parameters of `search_files`. */
export interface SearchFilesParams {
  regex: string;
  path?: string | undefined;
  glob?: string | undefined;
  case_insensitive?: boolean | undefined;
}

/** Details of a `search_files` call. */
export type SearchFilesDetails =
  | { regex: string; matches: number; filesSearched: number; filesWithMatches: number; skipped: number; capped: boolean }
  | ToolErrorDetails;

const SEARCH_LINE_LENGTH = 300;
/** Files matched per sandboxed call (each call pays for a timeout watchdog). */
const SEARCH_BATCH_FILES = 128;
const SEARCH_BATCH_CHARS = 4 * 1024 * 1024;

/** The parameters' schema, built once (the runtime memoises its JSON Schema per schema object, across turns). */
const SEARCH_FILES_SCHEMA = z.object({
  regex: z.string().min(1).describe('The regular expression to look for, like "TODO|FIXME" or "function \\\\w+Tool".'),
  path: z.string().optional().describe('The folder to search, relative to the home folder (default the home).'),
  glob: z.string().optional().describe('Only search files matching this glob, relative to path (default "**/*").'),
  case_insensitive: z.boolean().optional().describe('Ignore case (default false).'),
});

/**
 * The `search_files` tool: a regular expression over the text files under a folder of the home,
 * answering `file:line: text` lines, capped; binary and oversized files are skipped. Read-only and parallel.
 */
export function createSearchFilesTool(context: ComputerToolContext): WorkerAgentTool<SearchFilesParams, SearchFilesDetails> {
  const { limits } = context;
  return defineWorkerTool({
    name: 'search_files',
    description:
      'Search the text files in the home folder for a regular expression (JavaScript syntax), line by line. ' +
      `Answers "path:line: text" lines, at most ${limits.maxSearchResults}. Binary files, files over ${Math.round(limits.maxSearchFileBytes / 1024 / 1024)} MiB and ${IGNORED_FOLDERS.join(' / ')} are skipped.`,
    schema: SEARCH_FILES_SCHEMA,
    executionMode: 'parallel',
    isReadOnly: true,
    describeActivity: (params) => `Searching for ${shortLabel(params.regex, 40)}`,
    describeCompletedActivity: (params, result) => {
      const details = result.details;
      if (details === undefined || 'error' in details) return `Could not search for ${shortLabel(params.regex, 40)}`;
      return `Searched for ${shortLabel(params.regex, 40)} (${plural(details.matches, 'match').replace(/matchs$/, 'matches')} in ${plural(details.filesWithMatches, 'file')})`;
    },
    execute: async (params, call): Promise<AgentToolResult<SearchFilesDetails>> => {
      try {
        const matcher = createLineMatcher(params.regex, params.case_insensitive === true ? 'i' : '', limits.searchTimeoutMs);
        const lines: string[] = [];
        let filesSearched = 0;
        let filesWithMatches = 0;
        let skipped = 0;
        let capped = false;
        let batch: { shown: string; text: string }[] = [];
        let batchBytes = 0;
        const flush = (): void => {
          if (batch.length === 0 || capped) return;
          // One more than the room left, to know whether the cap cut matches off.
          const hits = matcher.matchLines(
            batch.map((item) => item.text),
            limits.maxSearchResults - lines.length + 1,
          );
          const split = new Map<number, string[]>();
          let lastText = -1;
          for (const hit of hits) {
            if (lines.length >= limits.maxSearchResults) {
              capped = true;
              break;
            }
            const item = batch[hit.text];
            if (item === undefined) continue;
            let fileLines = split.get(hit.text);
            if (fileLines === undefined) {
              fileLines = item.text.split('\n');
              split.set(hit.text, fileLines);
            }
            if (hit.text !== lastText) filesWithMatches += 1;
            lastText = hit.text;
            const line = fileLines[hit.line] ?? '';
            const trimmed = line.length > SEARCH_LINE_LENGTH ? `${line.slice(0, SEARCH_LINE_LENGTH)}…` : line;
            lines.push(`${item.shown}:${hit.line + 1}: ${trimmed}`);
          }
          batch = [];
          batchBytes = 0;
        };
        // The files of a chunk are read in parallel, relative to their folder (held open by the walk).
        await globInHome(context, { folder: params.path, pattern: params.glob ?? '**/*', onlyFiles: true, includeIgnored: false, signal: call.signal }, async (files) => {
          const texts = await Promise.all(files.map((file) => readSearchable(context, file)));
          for (const [index, text] of texts.entries()) {
            if (text === undefined) {
              skipped += 1;
              continue;
            }
            filesSearched += 1;
            batch.push({ shown: files[index]?.shown ?? '', text });
            batchBytes += text.length;
            if (batch.length >= SEARCH_BATCH_FILES || batchBytes >= SEARCH_BATCH_CHARS) flush();
          }
          return !capped && !call.signal.aborted;
        });
        flush();
        const details = { regex: params.regex, matches: lines.length, filesSearched, filesWithMatches, skipped, capped };
        if (lines.length === 0) {
          return { content: `No matches for /${params.regex}/ in ${plural(filesSearched, 'file')}${skipped > 0 ? ` (${skipped} binary or large files skipped)` : ''}.`, details };
        }
        if (capped) lines.push(`[Stopped at ${limits.maxSearchResults} matches. Narrow the regex, the path or the glob.]`);
        return { content: lines.join('\n'), details };
      } catch (error) {
        return toolErrorResult(fsErrorToToolError(error, params.path ?? '.'));
      }
    },
  });
}

/** A file's text, or `undefined` when it is binary, too large, unreadable, or a symlink (never followed). */
async function readSearchable(context: ComputerToolContext, file: GlobEntry): Promise<string | undefined> {
  try {
    const handle = await openFileAt(file.parent, file.name, constants.O_RDONLY);
    try {
      const stats = await handle.stat();
      if (!stats.isFile() || stats.size > context.limits.maxSearchFileBytes) return undefined;
      return decodeText(await handle.readFile());
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
