import { defineWorkerTool, type AgentToolResult, type WorkerAgentTool } from '@core/runtime';
import { z } from 'zod';
import type { ComputerToolContext } from './computer-context.js';
import { openFileInHome } from './open-in-home.js';
import { ComputerToolError } from './errors.js';
import { fsErrorToToolError } from './fs-error-message.js';
import { fileChange } from './file-change.js';
import { formatBytes, plural, shortLabel } from './labels.js';
import { toolErrorResult, type ToolErrorDetails } from './tool-error-result.js';

/** The parameters of `write_file`. */
export interface WriteFileParams {
  path: string;
  content: string;
}

/** Details of a `write_file` call. */
export type WriteFileDetails = { path: string; bytes: number; lines: number; created: boolean } | ToolErrorDetails;

/** The parameters' schema, built once (the runtime memoises its JSON Schema per schema object, across turns). */
const WRITE_FILE_SCHEMA = z.object({
  path: z.string().min(1).describe('The file, relative to the home folder (or absolute inside it).'),
  content: z.string().describe('The whole new content of the file.'),
});

/**
 * The `write_file` tool: writes a whole file in the home, creating missing parent folders (every folder and the
 * file are created relative to their held parent, never through a symlink leading out).
 * Sequential and destructive.
 */
export function createWriteFileTool(context: ComputerToolContext): WorkerAgentTool<WriteFileParams, WriteFileDetails> {
  const { home, limits } = context;
  return defineWorkerTool({
    name: 'write_file',
    description:
      'Write a file in the home folder, replacing it if it exists and creating missing folders. ' +
      'To change part of an existing file, prefer edit_file.',
    schema: WRITE_FILE_SCHEMA,
    executionMode: 'sequential',
    isDestructive: true,
    describeActivity: (params) => `Writing ${shortLabel(params.path)}`,
    describeCompletedActivity: (params, result) => {
      const details = result.details;
      if (details === undefined || 'error' in details) return `Could not write ${shortLabel(params.path)}`;
      return `${details.created ? 'Created' : 'Wrote'} ${shortLabel(params.path)} (${plural(details.lines, 'line')}, ${formatBytes(details.bytes)})`;
    },
    execute: async (params): Promise<AgentToolResult<WriteFileDetails>> => {
      let shown = params.path;
      try {
        const bytes = Buffer.from(params.content, 'utf8');
        if (bytes.length > limits.maxWriteBytes) {
          throw new ComputerToolError('content_too_large', `The content is ${formatBytes(bytes.length)}, more than write_file writes (${formatBytes(limits.maxWriteBytes)}).`);
        }
        const { handle, shown: opened, created } = await openFileInHome(home, params.path, 'write');
        shown = opened;
        try {
          const stats = await handle.stat();
          if (!stats.isFile()) throw new ComputerToolError('not_a_file', `${shown} is not a regular file.`);
          await handle.truncate(0);
          await handle.write(bytes, 0, bytes.length, 0);
        } finally {
          await handle.close();
        }
        const lines = params.content === '' ? 0 : params.content.split('\n').length - (params.content.endsWith('\n') ? 1 : 0);
        return {
          content: `${created ? 'Created' : 'Wrote'} ${shown} (${plural(lines, 'line')}, ${bytes.length} bytes).`,
          details: { path: shown, bytes: bytes.length, lines, created },
          presentation: [fileChange(shown, created ? 'created' : 'updated', bytes.length)],
        };
      } catch (error) {
        return toolErrorResult(fsErrorToToolError(error, shown));
      }
    },
  });
}
