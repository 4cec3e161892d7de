import { defineWorkerTool, type AgentToolResult, type WorkerAgentTool } from '@core/runtime';
import { z } from 'zod';
import type { ComputerToolContext } from './computer-context.js';
import { openFileInHome } from './open-in-home.js';
import { ComputerToolError } from './errors.js';
import { decodeText } from './file-kind.js';
import { fsErrorToToolError } from './fs-error-message.js';
import { fileChange } from './file-change.js';
import { formatBytes, plural, shortLabel } from './labels.js';
import { toolErrorResult, type ToolErrorDetails } from './tool-error-result.js';

/** The parameters of `edit_file`. */
export interface EditFileParams {
  path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean | undefined;
}

/** Details of an `edit_file` call. */
export type EditFileDetails = { path: string; replacements: number; bytes: number } | ToolErrorDetails;

/** The parameters' schema, built once (the runtime memoises its JSON Schema per schema object, across turns). */
const EDIT_FILE_SCHEMA = z.object({
  path: z.string().min(1).describe('The file, relative to the home folder (or absolute inside it).'),
  old_string: z.string().min(1).describe('The exact text to replace, whitespace included.'),
  new_string: z.string().describe('The text to put in its place.'),
  replace_all: z.boolean().optional().describe('Replace every occurrence instead of exactly one (default false).'),
});

/**
 * The `edit_file` tool: replaces an exact string that must occur exactly once in a text file, or
 * every occurrence with `replace_all`. No match, or several without `replace_all`, is an error that
 * says how many were found. Sequential and destructive.
 */
export function createEditFileTool(context: ComputerToolContext): WorkerAgentTool<EditFileParams, EditFileDetails> {
  const { home, limits } = context;
  return defineWorkerTool({
    name: 'edit_file',
    description:
      'Edit a text file in the home folder by replacing an exact string. old_string must occur exactly once ' +
      '(include enough surrounding lines to make it unique), unless replace_all is true to replace every occurrence.',
    schema: EDIT_FILE_SCHEMA,
    executionMode: 'sequential',
    isDestructive: true,
    describeActivity: (params) => `Editing ${shortLabel(params.path)}`,
    describeCompletedActivity: (params, result) => {
      const details = result.details;
      if (details === undefined || 'error' in details) return `Could not edit ${shortLabel(params.path)}`;
      return `Edited ${shortLabel(params.path)} (${plural(details.replacements, 'replacement')})`;
    },
    execute: async (params): Promise<AgentToolResult<EditFileDetails>> => {
      let shown = params.path;
      try {
        if (params.old_string === params.new_string) {
          throw new ComputerToolError('edit_no_change', 'old_string and new_string are the same; nothing would change.');
        }
        const opened = await openFileInHome(home, params.path, 'edit');
        shown = opened.shown;
        const { handle } = opened;
        try {
          const stats = await handle.stat();
          if (!stats.isFile()) throw new ComputerToolError('not_a_file', `${shown} is not a regular file.`);
          if (stats.size > limits.maxFileBytes) {
            throw new ComputerToolError('file_too_large', `${shown} is ${formatBytes(stats.size)}, more than edit_file loads (${formatBytes(limits.maxFileBytes)}).`);
          }
          const text = decodeText(await handle.readFile());
          if (text === undefined) throw new ComputerToolError('file_binary', `${shown} is a binary file; edit_file only edits text.`);
          const count = countOccurrences(text, params.old_string);
          if (count === 0) {
            throw new ComputerToolError(
              'edit_no_match',
              `old_string was not found in ${shown} (0 occurrences). Read the file again with read_file and copy the text exactly, whitespace included.`,
            );
          }
          if (count > 1 && params.replace_all !== true) {
            throw new ComputerToolError(
              'edit_ambiguous',
              `old_string occurs ${count} times in ${shown}; it must occur exactly once. Include more surrounding text to make it unique, or set replace_all to true to replace all ${count}.`,
            );
          }
          const updated = params.replace_all === true ? text.split(params.old_string).join(params.new_string) : replaceOnce(text, params.old_string, params.new_string);
          const bytes = Buffer.from(updated, 'utf8');
          await handle.truncate(0);
          await handle.write(bytes, 0, bytes.length, 0);
          return {
            content: `Edited ${shown}: replaced ${plural(count, 'occurrence')}.`,
            details: { path: shown, replacements: count, bytes: bytes.length },
            presentation: [fileChange(shown, 'edited', bytes.length)],
          };
        } finally {
          await handle.close();
        }
      } catch (error) {
        return toolErrorResult(fsErrorToToolError(error, shown));
      }
    },
  });
}

function countOccurrences(text: string, search: string): number {
  let count = 0;
  for (let index = text.indexOf(search); index !== -1; index = text.indexOf(search, index + search.length)) count += 1;
  return count;
}

function replaceOnce(text: string, search: string, replacement: string): string {
  const index = text.indexOf(search);
  return text.slice(0, index) + replacement + text.slice(index + search.length);
}
