import { defineWorkerTool, type AgentToolResult, type WorkerAgentTool } from '@core/runtime';
import { z } from 'zod';
import type { ComputerToolContext } from './computer-context.js';
import { openFileInHome } from './open-in-home.js';
import { ComputerToolError } from './errors.js';
import { decodeText, describeBinary, detectImageType } from './file-kind.js';
import { fsErrorToToolError } from './fs-error-message.js';
import { formatBytes, plural, shortLabel } from './labels.js';
import { toolErrorResult, type ToolErrorDetails } from './tool-error-result.js';

/** The parameters of `read_file`. */
export interface ReadFileParams {
  path: string;
  offset?: number | undefined;
  limit?: number | undefined;
}

/** Details of a `read_file` call. */
export type ReadFileDetails =
  | { path: string; kind: 'text'; firstLine: number; lastLine: number; totalLines: number; bytes: number; capped: boolean }
  | { path: string; kind: 'image'; mimeType: string; bytes: number }
  | { path: string; kind: 'binary'; bytes: number; description: string }
  | ToolErrorDetails;

/** The parameters' schema, built once (the runtime memoises its JSON Schema per schema object, across turns). */
const READ_FILE_SCHEMA = z.object({
  path: z.string().min(1).describe('The file, relative to the home folder (or absolute inside it).'),
  offset: z.number().int().positive().optional().describe('The first line to read, 1-based (default 1).'),
  limit: z.number().int().positive().optional().describe('How many lines to read (default: see the tool description).'),
});

/**
 * The `read_file` tool: a text file's lines (1-based, numbered, a range with `offset` / `limit`,
 * capped), an image (PNG, JPEG, GIF, WebP) as an `input_image`, or a short description of a binary
 * file. Read-only and parallel.
 */
export function createReadFileTool(context: ComputerToolContext): WorkerAgentTool<ReadFileParams, ReadFileDetails> {
  const { limits, home } = context;
  return defineWorkerTool({
    name: 'read_file',
    description:
      `Read a file in the home folder. Text comes back with line numbers; use offset and limit to read a range of a long file (limit defaults to ${limits.maxReadLines} lines). ` +
      'Images (PNG, JPEG, GIF, WebP) come back as images; other binary files are described, not shown.',
    schema: READ_FILE_SCHEMA,
    executionMode: 'parallel',
    isReadOnly: true,
    describeActivity: (params) => `Reading ${shortLabel(params.path)}`,
    describeCompletedActivity: (params, result) => {
      const details = result.details;
      if (details === undefined || 'error' in details) return `Could not read ${shortLabel(params.path)}`;
      if (details.kind === 'image') return `Read ${shortLabel(params.path)} (image, ${formatBytes(details.bytes)})`;
      if (details.kind === 'binary') return `Read ${shortLabel(params.path)} (binary, ${formatBytes(details.bytes)})`;
      const shown = details.lastLine - details.firstLine + 1;
      if (details.firstLine === 1 && details.lastLine === details.totalLines) return `Read ${shortLabel(params.path)} (${plural(details.totalLines, 'line')})`;
      return `Read ${shortLabel(params.path)} (lines ${details.firstLine}–${details.lastLine} of ${details.totalLines}${shown === 0 ? ', none shown' : ''})`;
    },
    execute: async (params): Promise<AgentToolResult<ReadFileDetails>> => {
      let shown = params.path;
      try {
        const opened = await openFileInHome(home, params.path, 'read');
        shown = opened.shown;
        const { handle } = opened;
        let bytes: Buffer;
        try {
          const stats = await handle.stat();
          if (stats.isDirectory()) throw new ComputerToolError('path_is_folder', `${shown} is a folder, not a file. Use list_files to see what it holds.`);
          if (!stats.isFile()) throw new ComputerToolError('not_a_file', `${shown} is not a regular file.`);
          if (stats.size > limits.maxFileBytes) {
            throw new ComputerToolError(
              'file_too_large',
              `${shown} is ${formatBytes(stats.size)}, more than read_file loads (${formatBytes(limits.maxFileBytes)}). Use command with head, tail, sed -n or grep to look at parts of it.`,
            );
          }
          bytes = await handle.readFile();
        } finally {
          await handle.close();
        }
        return readBytes(shown, bytes, params, context);
      } catch (error) {
        return toolErrorResult(fsErrorToToolError(error, shown));
      }
    },
  });
}

function readBytes(shown: string, bytes: Buffer, params: ReadFileParams, context: ComputerToolContext): AgentToolResult<ReadFileDetails> {
  const { limits } = context;
  const head = bytes.subarray(0, 64);
  const imageType = detectImageType(head);
  if (imageType !== undefined) {
    if (bytes.length > limits.maxImageBytes) {
      throw new ComputerToolError(
        'image_too_large',
        `${shown} is a ${imageType} image of ${formatBytes(bytes.length)}, more than read_file returns (${formatBytes(limits.maxImageBytes)}). Make a smaller copy with command first.`,
      );
    }
    return {
      content: [
        { type: 'input_text', text: `${shown}: ${imageType} image, ${formatBytes(bytes.length)}.` },
        { type: 'input_image', image_url: `data:${imageType};base64,${bytes.toString('base64')}`, detail: 'auto' },
      ],
      details: { path: shown, kind: 'image', mimeType: imageType, bytes: bytes.length },
    };
  }
  const text = decodeText(bytes);
  if (text === undefined) {
    const description = describeBinary(head);
    return {
      content: `${shown} is a binary file (${description}, ${formatBytes(bytes.length)}); its bytes are not shown. Use command (file, xxd, unzip -l, …) to inspect it.`,
      details: { path: shown, kind: 'binary', bytes: bytes.length, description },
    };
  }
  const lines = text.split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  const totalLines = text === '' ? 0 : lines.length;
  const firstLine = params.offset ?? 1;
  const wanted = params.limit ?? limits.maxReadLines;
  if (totalLines === 0) {
    return { content: `${shown} is empty.`, details: { path: shown, kind: 'text', firstLine: 1, lastLine: 0, totalLines: 0, bytes: 0, capped: false } };
  }
  if (firstLine > totalLines) {
    throw new ComputerToolError('offset_past_end', `${shown} has ${plural(totalLines, 'line')}; offset ${firstLine} is past its end.`);
  }
  const width = String(Math.min(totalLines, firstLine + wanted - 1)).length;
  const out: string[] = [];
  let used = 0;
  let lastLine = firstLine - 1;
  let capped = false;
  for (let number = firstLine; number <= totalLines && number < firstLine + wanted; number += 1) {
    let line = lines[number - 1] ?? '';
    if (line.length > limits.maxLineLength) line = `${line.slice(0, limits.maxLineLength)}… [line cut: ${line.length} characters]`;
    const rendered = `${String(number).padStart(width)}\t${line}`;
    const size = Buffer.byteLength(rendered) + 1;
    if (used + size > limits.maxReadBytes && out.length > 0) {
      capped = true;
      break;
    }
    out.push(rendered);
    used += size;
    lastLine = number;
  }
  if (lastLine < totalLines) {
    const why = capped ? `output capped at ${formatBytes(limits.maxReadBytes)}` : `limit of ${plural(wanted, 'line')}`;
    out.push(`[Showing lines ${firstLine}–${lastLine} of ${totalLines} (${why}). Continue with offset=${lastLine + 1}.]`);
  }
  return {
    content: out.join('\n'),
    details: { path: shown, kind: 'text', firstLine, lastLine, totalLines, bytes: bytes.length, capped },
  };
}
