import { type AgentEvent, createDeniedCallCounter, type DeniedCallCounts } from '@core/runtime';
import type { CliOutput } from '../cli/cli-io.js';
import { oneLine, printableText } from './display-text.js';
import { describeDeniedCalls, describeDenial } from './describe-denials.js';
import { createFileChanges } from './file-changes.js';
import { formatCount, formatDuration, plural } from './format.js';
import { fileChangeOf, renderFileChange, renderPresentation, type Style } from './render-presentation.js';
import type { TurnRenderer, TurnSummary } from './turn-renderer.js';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FRAME_MS = 80;

/** Options of `createTerminalRenderer`. */
export interface TerminalRendererOptions {
  output: CliOutput;
  /** Live lines with a spinner, redrawn in place, and colours (a terminal). Off: plain lines, no escape codes. */
  live: boolean;
  /** Colours (only when `live`). */
  color: boolean;
}

const plainStyle: Style = { green: (t) => t, red: (t) => t, dim: (t) => t, bold: (t) => t, cyan: (t) => t };
const ansi = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const colorStyle: Style = { green: ansi(32, 39), red: ansi(31, 39), dim: ansi(2, 22), bold: ansi(1, 22), cyan: ansi(36, 39) };

interface Running {
  label: string;
}

/**
 * Renders a turn for people. On a terminal (`live`): each running tool is a live line with its label and
 * a spinner, replaced by the completed label, ✓ / ✗ and its duration when it ends; text streams as it
 * arrives; presentation events are drawn (the plan checklist and links as they come; the changed files
 * in one list before the summary); a summary closes the turn. Piped: the same as plain lines (a line when
 * a tool starts and one when it ends), no escape codes. Text from the model and tools is printed without
 * its control characters, so it cannot move the cursor or change colours.
 */
export function createTerminalRenderer(options: TerminalRendererOptions): TurnRenderer {
  const { output, live } = options;
  const style = live && options.color ? colorStyle : plainStyle;
  const running = new Map<string, Running>();
  let thinking = false;
  // While a person is asked to approve a call, no live lines are drawn (they would overwrite the question).
  let asking = false;
  let liveLines = 0;
  let atLineStart = true;
  let afterBlankLine = false;
  let frame = 0;
  let timer: NodeJS.Timeout | undefined;
  const fileChanges = createFileChanges();
  const denials = createDeniedCallCounter();

  const width = () => Math.max(20, (output.columns !== undefined && output.columns > 0 ? output.columns : 100) - 1);
  const clip = (text: string) => (text.length > width() ? `${text.slice(0, width() - 1)}…` : text);

  function clearLive(): void {
    if (!live || liveLines === 0) return;
    output.write(liveLines > 1 ? `\r\u001b[${liveLines - 1}A\u001b[J` : '\r\u001b[J');
    liveLines = 0;
  }

  function drawLive(): void {
    if (!live || !atLineStart || asking) return;
    const spinner = style.cyan(SPINNER[frame % SPINNER.length] ?? '*');
    const lines = [...running.values()].map((entry) => `${spinner} ${clip(entry.label)}`);
    if (lines.length === 0 && thinking) lines.push(`${spinner} ${style.dim('Thinking…')}`);
    if (lines.length === 0) return;
    output.write(lines.join('\n'));
    liveLines = lines.length;
  }

  function redraw(): void {
    clearLive();
    drawLive();
    const active = running.size > 0 || thinking;
    if (live && active && timer === undefined) {
      timer = setInterval(() => {
        frame += 1;
        redraw();
      }, FRAME_MS);
      timer.unref();
    } else if (!active && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  }

  /** Prints whole lines above the live region. */
  function print(lines: string[]): void {
    clearLive();
    if (!atLineStart) {
      output.write('\n');
      atLineStart = true;
      afterBlankLine = false;
    }
    // One blank line between blocks, never two (a summary right after the header, say).
    const shown = afterBlankLine && lines[0] === '' ? lines.slice(1) : lines;
    if (shown.length > 0) {
      output.write(`${shown.join('\n')}\n`);
      afterBlankLine = shown.at(-1) === '';
    }
    redraw();
  }

  function stop(): void {
    thinking = false;
    running.clear();
    redraw();
    if (live) output.write('\u001b[?25h');
  }

  function completedLine(event: Extract<AgentEvent, { type: 'activity.completed' }>): string {
    const ok = event.status === 'success';
    const mark = ok ? style.green('✓') : style.red('✗');
    const repaired = event.repairs.length === 0 ? '' : style.dim(` · repaired arguments: ${event.repairs.map((repair) => repair.kind).join(', ')}`);
    // A denied call says who denied it and why, not the output the model got.
    const failure = ok
      ? ''
      : event.denial !== undefined
        ? ` ${style.red(oneLine(describeDenial(event.denial), 300))}`
        : `${style.red(` ${event.status}`)}${event.error === undefined ? '' : `: ${firstLine(event.error)}`}`;
    const label = oneLine(event.label);
    // Labels that already end with a duration ("Ran `ls` (exit 0, 12 ms)") do not get a second one.
    const duration = /\d (ms|s)\)$/.test(label) ? '' : ` ${style.dim(`(${formatDuration(event.durationMs)})`)}`;
    return `${mark} ${label}${duration}${failure}${repaired}`;
  }

  return {
    start(header) {
      if (live) output.write('\u001b[?25l');
      print([style.bold(header.notice), style.dim(`Agent ${header.agent} · home ${header.home} · ${plural(header.tools, 'tool')}${header.commands === undefined ? '' : ` · ${header.commands}`}${header.controlPlane === undefined ? '' : ` · schedules and jobs in ${header.controlPlane}`}${header.conversation === undefined ? '' : ` · conversation ${header.conversation.id.slice(0, 8)}, turn ${header.conversation.turn}`}`), '']);
    },
    warning(message) {
      print([`! ${oneLine(message, 500)}`]);
    },
    event(event) {
      denials.add(event);
      switch (event.type) {
        case 'step.started':
          thinking = true;
          redraw();
          return;
        case 'text.delta': {
          const text = printableText(event.delta);
          if (text === '') return;
          thinking = false;
          clearLive();
          output.write(text);
          atLineStart = text.endsWith('\n');
          afterBlankLine = false;
          redraw();
          return;
        }
        case 'text.completed':
          if (!atLineStart) {
            output.write('\n');
            atLineStart = true;
          }
          redraw();
          return;
        case 'activity.started':
          thinking = false;
          running.set(event.callId, { label: oneLine(event.label) });
          if (!live) print([`… ${oneLine(event.label)}`]);
          else {
            if (!atLineStart) {
              clearLive();
              output.write('\n');
              atLineStart = true;
            }
            redraw();
          }
          return;
        case 'activity.completed':
          running.delete(event.callId);
          print([completedLine(event)]);
          return;
        case 'presentation': {
          const change = fileChangeOf(event.event);
          if (change === undefined) print(renderPresentation(event.event, style));
          else fileChanges.add(change);
          return;
        }
        // The question itself is the approval policy's to write; only keep live lines out of its way.
        case 'approval.requested':
          asking = true;
          clearLive();
          break;
        case 'approval.decided':
          asking = false;
          redraw();
          break;
        case 'context.compacted':
          print([style.dim(`↻ Compacted context: ${formatCount(event.tokensBefore)} → ${formatCount(event.tokensAfter)} tokens of ${formatCount(event.window)}`)]);
          return;
        case 'tool_search.completed':
          print([`⌕ Tool search "${oneLine(event.query, 120)}": ${oneLine(event.toolNames.join(', '), 300) || 'nothing found'}`]);
          return;
        case 'turn.completed':
          stop();
          return;
        default:
          return;
      }
    },
    release() {
      stop();
    },
    interrupted(signal = 'SIGINT') {
      const why = signal === 'SIGTERM' ? 'Terminated (SIGTERM)' : 'Interrupted (Ctrl-C)';
      print([style.red(`${why}: aborting the turn and its running tools… (${signal === 'SIGTERM' ? 'again' : 'Ctrl-C again'} to quit at once)`)]);
    },
    finish(summary) {
      stop();
      const changed = fileChanges.list();
      const files = changed.length === 0 ? [] : ['', style.bold('Files changed'), ...changed.map((change) => renderFileChange(change, style))];
      print([...files, '', summaryLine(summary, style, denials.counts())]);
    },
  };
}

function firstLine(text: string): string {
  return oneLine(text.split('\n')[0] ?? '', 200);
}

const ENDINGS: Record<string, string> = {
  completed: 'Completed',
  terminated: 'Ended by a tool',
  max_steps: 'Stopped at the step limit (--max-steps)',
  aborted: 'Aborted',
  incomplete: 'Stopped: the model response was cut short',
  error: 'Failed',
  awaiting_approval: 'Paused: calls wait for approval',
};

/** The closing line: how it ended, steps, tool calls (and the denied ones, by who denied them), tokens, time. */
export function summaryLine(summary: TurnSummary, style: Style = plainStyle, denied?: DeniedCallCounts): string {
  const { outcome } = summary;
  const by = summary.signal === 'SIGTERM' ? 'SIGTERM' : 'Ctrl-C';
  const ending = summary.interrupted ? `Aborted by ${by}: running tools were stopped` : (ENDINGS[outcome.reason] ?? outcome.reason);
  const usage = outcome.usage;
  const parts = [
    plural(outcome.steps, 'step'),
    plural(outcome.toolCalls, 'tool call'),
    ...(denied === undefined ? [] : [describeDeniedCalls(denied)].filter((part) => part !== undefined)),
    `${formatCount(usage.totalTokens)} tokens (${formatCount(usage.inputTokens)} in, ${formatCount(usage.outputTokens)} out)`,
    formatDuration(summary.durationMs),
  ];
  const head = summary.exitCode === 0 ? style.green(ending) : style.red(ending);
  return `── ${head} · ${parts.join(' · ')}`;
}
