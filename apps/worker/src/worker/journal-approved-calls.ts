import type { ApprovalDecisionRecord, ApprovedCallOutput } from '@core/control-plane-client';
import type { AgentToolResult, AnyWorkerAgentTool, ToolExecutionContext } from '@core/runtime';

/** Where a resumed turn journals its approved calls (`work.startApprovedCall` / `tasks.startApprovedCall` and the finish pair). */
export interface ApprovedCallJournal {
  /** Journals the start before the call runs; `false`: do not run it (the job or task is no longer this worker's). */
  start(callId: string): Promise<boolean>;
  /** Journals what the call returned. */
  finish(callId: string, output: ApprovedCallOutput): Promise<unknown>;
}

/** Options of `journalApprovedCalls`. */
export interface JournalApprovedCallsOptions {
  /** The decisions the job or task was resumed with, by call id, with their journal (`ClaimedJob.resume.decisions`). */
  decisions: Readonly<Record<string, ApprovalDecisionRecord>>;
  journal: ApprovedCallJournal;
  /** Told when journaling an output failed (the call ran; a later resume would call it interrupted). */
  onError?: (error: unknown) => void;
}

/** What the model is told about an approved call that started on a worker that stopped before its output was recorded. */
export const INTERRUPTED_CALL_OUTPUT =
  'Error: not known whether this approved call took effect: the worker running it stopped before its result was recorded, ' +
  'and an approved call is never run a second time. Check what it did (with a read-only tool) before deciding to call it again.';

/**
 * Makes a person's approval apply exactly once in a resumed turn: the tools' `execute` is wrapped so that an approved
 * call (by call id, from `decisions`) journals its start in the control plane before it runs and its output after.
 * A call the journal shows already ran is not run again: a recorded output is handed back as it was; a start without
 * an output (the worker died mid-call) gets an error output saying it may or may not have taken effect
 * (`INTERRUPTED_CALL_OUTPUT`), except a read-only tool's call, which simply runs again. A start the control plane
 * refuses (this worker lost the job) is not run. Other calls run untouched. Returns `tools` itself when no decision
 * approves a call.
 */
export function journalApprovedCalls(tools: readonly AnyWorkerAgentTool[], options: JournalApprovedCallsOptions): AnyWorkerAgentTool[] {
  const { decisions, journal } = options;
  if (!Object.values(decisions).some((decision) => decision.approved)) return [...tools];
  return tools.map((tool) => ({
    ...tool,
    execute: async (params: unknown, context: ToolExecutionContext): Promise<AgentToolResult> => {
      const decision = decisions[context.callId];
      if (decision === undefined || !decision.approved) return tool.execute(params, context);
      if (decision.output !== undefined) return recordedResult(decision.output);
      if (tool.isReadOnly) return tool.execute(params, context);
      if (decision.started === true) return { content: INTERRUPTED_CALL_OUTPUT, isError: true };
      if (!(await journal.start(context.callId))) {
        return { content: 'Error: not run: this worker no longer holds the turn (another worker took it over or it was cancelled).', isError: true };
      }
      let result: AgentToolResult;
      try {
        result = await tool.execute(params, context);
      } catch (error) {
        // Aborted mid-call: it may have taken effect, so nothing is recorded (a resume calls it interrupted).
        if (!context.signal.aborted) await record(context.callId, { content: `Error: ${error instanceof Error ? error.message : String(error)}`, isError: true });
        throw error;
      }
      await record(context.callId, {
        content: result.content,
        ...(result.isError === undefined ? {} : { isError: result.isError }),
        ...(result.terminateTurn === undefined ? {} : { terminateTurn: result.terminateTurn }),
      });
      return result;
    },
  }));

  async function record(callId: string, output: ApprovedCallOutput): Promise<void> {
    try {
      await journal.finish(callId, output);
    } catch (error) {
      options.onError?.(error);
    }
  }
}

function recordedResult(output: ApprovedCallOutput): AgentToolResult {
  return {
    content: output.content as AgentToolResult['content'],
    ...(output.isError === undefined ? {} : { isError: output.isError }),
    ...(output.terminateTurn === undefined ? {} : { terminateTurn: output.terminateTurn }),
  };
}
