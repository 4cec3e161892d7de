import type { ResponseInputItem, ResponseOutputItem } from '../gateway/model-gateway.js';
import { errorOutputText } from '../tool/tool-output.js';

/** How the loop deals with one client-executed call it has no tool for. */
export type UnhandledCall =
  /** Answered with an error output of the call's own output type, so the next request is valid. */
  | { kind: 'answered'; callId: string; name: string; itemType: string; output: ResponseInputItem; error: string }
  /** Left out of the history (its output cannot carry an error: a `computer_call` needs a screenshot). */
  | { kind: 'left_out'; callId: string; name: string; itemType: string; error: string };

/**
 * For a client-executed call of a kind the runtime runs no tool for (everything but `function_call` and client
 * `tool_search_call`), what to send back. Every such call is answered with an error output of its own type, except
 * `computer_call`, which is left out of the history:
 * - `custom_tool_call` → `custom_tool_call_output` with `Error: …`;
 * - `apply_patch_call` → `apply_patch_call_output`, `status: 'failed'`, the error as `output`;
 * - `shell_call` in a local environment → `shell_call_output`: the error on stderr, exit code 1 (a hosted shell
 *   runs on the server and is left alone);
 * - `local_shell_call` → `local_shell_call_output` with a JSON `{ "error": … }` output;
 * - `computer_call` → left out (its output must be a screenshot).
 * Returns `undefined` for any other item (messages, reasoning, server-executed tool calls, function calls).
 */
export function unhandledCall(item: ResponseOutputItem): UnhandledCall | undefined {
  const record = item as unknown as Record<string, unknown>;
  const callId = typeof record.call_id === 'string' ? record.call_id : '';
  switch (item.type) {
    case 'custom_tool_call': {
      const error = errorOutputText(`no custom tool "${item.name}" is available in this turn: it offers function tools only. Call one of them instead.`);
      return {
        kind: 'answered',
        callId,
        name: item.name,
        itemType: item.type,
        error,
        output: { type: 'custom_tool_call_output', call_id: callId, output: error },
      };
    }
    case 'apply_patch_call': {
      const error = errorOutputText('no apply_patch tool is available in this turn. Use the function tools instead.');
      return {
        kind: 'answered',
        callId,
        name: 'apply_patch',
        itemType: item.type,
        error,
        output: { type: 'apply_patch_call_output', call_id: callId, status: 'failed', output: error } as ResponseInputItem,
      };
    }
    case 'shell_call': {
      const environment = record.environment as { type?: unknown } | null | undefined;
      if (environment !== null && environment !== undefined && environment.type !== 'local') return undefined;
      const error = errorOutputText('no local shell tool is available in this turn. Use the function tools instead.');
      const output = { type: 'shell_call_output', call_id: callId, output: [{ stdout: '', stderr: error, outcome: { type: 'exit', exit_code: 1 } }] };
      return { kind: 'answered', callId, name: 'shell', itemType: item.type, error, output: output as ResponseInputItem };
    }
    case 'local_shell_call': {
      const error = errorOutputText('no local shell tool is available in this turn. Use the function tools instead.');
      // The OpenAPI description requires `call_id`; the SDK's type links the output by `id` (the call's call_id).
      const output = { type: 'local_shell_call_output', id: callId, call_id: callId, output: JSON.stringify({ error }) };
      return { kind: 'answered', callId, name: 'local_shell', itemType: item.type, error, output: output as ResponseInputItem };
    }
    case 'computer_call': {
      const error = 'no computer tool is available in this turn; the call was left out of the history (its output must be a screenshot).';
      return { kind: 'left_out', callId, name: 'computer', itemType: item.type, error };
    }
    default:
      return undefined;
  }
}
