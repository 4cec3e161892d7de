import { createDeniedCallCounter } from '@core/runtime';
import type { CliOutput } from '../cli/cli-io.js';
import type { TurnRenderer } from './turn-renderer.js';

/**
 * One JSON object a line: `run.started` (model, offline demo or not, home), the runtime's typed
 * `AgentEvent`s as they happen, `run.warning` / `run.interrupted` when they occur, and `run.completed`
 * (exit code, duration, tool calls, `deniedCalls` by who denied them, failure) last.
 */
export function createJsonRenderer(output: CliOutput): TurnRenderer {
  const line = (value: object) => output.write(`${JSON.stringify(value)}\n`);
  const denials = createDeniedCallCounter();
  return {
    start: (header) => line({ type: 'run.started', ...header }),
    warning: (message) => line({ type: 'run.warning', message }),
    event: (event) => {
      denials.add(event);
      line(event);
    },
    interrupted: (signal = 'SIGINT') => line({ type: 'run.interrupted', signal }),
    release: () => undefined,
    finish: (summary) =>
      line({
        type: 'run.completed',
        reason: summary.outcome.reason,
        exitCode: summary.exitCode,
        durationMs: Math.round(summary.durationMs),
        interrupted: summary.interrupted,
        ...(summary.signal === undefined ? {} : { signal: summary.signal }),
        steps: summary.outcome.steps,
        toolCalls: summary.outcome.toolCalls,
        deniedCalls: denials.counts(),
        usage: summary.outcome.usage,
        ...(summary.failure === undefined ? {} : { failure: summary.failure }),
      }),
  };
}
