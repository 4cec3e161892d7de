import { defineWorkerTool, type AgentToolResult, type WorkerAgentTool } from '@core/runtime';
import { z } from 'zod';
import type { ComputerToolContext } from './computer-context.js';
import { fsErrorToToolError } from './fs-error-message.js';
import { globInHome, IGNORED_FOLDERS } from './glob-in-home.js';
import { plural, shortLabel } from './labels.js';
import { toolErrorResult, type ToolErrorDetails } from './tool-error-result.js';

/** The parameters of `list_files`. */
export interface ListFilesParams {
  pattern?: string | undefined;
  path?: string | undefined;
  include_ignored?: boolean | undefined;
}

/** Details of a `list_files` call. */
export type ListFilesDetails = { folder: string; pattern: string; found: number; shown: number } | ToolErrorDetails;

/** The parameters' schema, built once (the runtime memoises its JSON Schema per schema object, across turns). */
const LIST_FILES_SCHEMA = z.object({
  pattern: z.string().optional().describe('A glob pattern relative to path, like "*", "**/*.md" or "src/**/*.{ts,tsx}" (default "*").'),
  path: z.string().optional().describe('The folder to list, relative to the home folder (default the home).'),
  include_ignored: z.boolean().optional().describe(`Also look inside ${IGNORED_FOLDERS.join(' and ')} (default false).`),
});

/**
 * The `list_files` tool: files and folders matching a glob under a folder of the home (paths relative
 * to the home, folders ending in `/`), capped. Read-only and parallel.
 */
export function createListFilesTool(context: ComputerToolContext): WorkerAgentTool<ListFilesParams, ListFilesDetails> {
  const { limits } = context;
  return defineWorkerTool({
    name: 'list_files',
    description:
      'List files and folders in the home folder matching a glob pattern (default "*": what a folder holds; "**/*.ts": every .ts file below it). ' +
      `Paths come back relative to the home; folders end with "/". ${IGNORED_FOLDERS.join(' and ')} are skipped unless include_ignored is true.`,
    schema: LIST_FILES_SCHEMA,
    executionMode: 'parallel',
    isReadOnly: true,
    describeActivity: (params) => `Listing ${shortLabel(params.pattern ?? '*')}${params.path === undefined ? '' : ` in ${shortLabel(params.path)}`}`,
    describeCompletedActivity: (params, result) => {
      const details = result.details;
      if (details === undefined || 'error' in details) return `Could not list ${shortLabel(params.pattern ?? '*')}`;
      return `Listed ${shortLabel(details.pattern)} in ${shortLabel(details.folder)} (${plural(details.found, 'entry').replace(/entrys$/, 'entries')})`;
    },
    execute: async (params, call): Promise<AgentToolResult<ListFilesDetails>> => {
      const pattern = params.pattern ?? '*';
      try {
        const entries: string[] = [];
        const { folder: shownFolder } = await globInHome(
          context,
          { folder: params.path, pattern, onlyFiles: false, includeIgnored: params.include_ignored === true, signal: call.signal },
          (found) => {
            for (const entry of found) entries.push(entry.isFolder ? `${entry.shown}/` : entry.shown);
          },
        );
        const shown = entries.slice(0, limits.maxListResults);
        const lines = shown.length === 0 ? [`No entries match "${pattern}" in ${shownFolder}.`] : shown;
        if (entries.length > shown.length) {
          lines.push(`[${entries.length - shown.length} more not shown (${entries.length} in all). Narrow the pattern or the path.]`);
        }
        return { content: lines.join('\n'), details: { folder: shownFolder, pattern, found: entries.length, shown: shown.length } };
      } catch (error) {
        return toolErrorResult(fsErrorToToolError(error, params.path ?? '.'));
      }
    },
  });
}
