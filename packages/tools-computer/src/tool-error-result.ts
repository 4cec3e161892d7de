import type { AgentToolResult } from '@core/runtime';
import { ComputerToolError } from './errors.js';

/** Details of a failed computer tool call. */
export interface ToolErrorDetails {
  error: { code: string; message: string };
}

/** The error result the model sees for a refused or failed call (`isError: true`). */
export function toolErrorResult(error: unknown): AgentToolResult<ToolErrorDetails> {
  const code = error instanceof ComputerToolError ? error.code : 'tool_failed';
  const message = error instanceof Error ? error.message : String(error);
  return { content: message, isError: true, details: { error: { code, message } } };
}
