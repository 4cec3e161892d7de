import type { CliIO } from '../cli/cli-io.js';
import { plural } from './format.js';
import { describeTime } from './relative-time.js';
import { replayTranscript, type TranscriptEventEntry } from './replay-transcript.js';
import { createTerminalRenderer } from './terminal-renderer.js';

/** One stored run of a turn (a claim of a job or task, or one `ankole run`). */
export interface DrawnAttempt {
  /** The claim's number (jobs and tasks); left out for a single run. */
  attempt?: number;
  workerId?: string | null;
  entries: readonly TranscriptEventEntry[];
  /** Events the size bound left out. */
  droppedEvents: number;
  /** Events kept with long strings cut. */
  truncatedEvents: number;
  startedAt: string;
}

/** Options of `drawTranscript`. */
export interface DrawTranscriptOptions {
  attempts: readonly DrawnAttempt[];
  /** What it is the transcript of, for the headings (`job 16d5…`). */
  what: string;
  io: Pick<CliIO, 'stdout' | 'env'>;
  /** What to call each part in its heading (default `attempt N`, from `attempt`). */
  label?: (attempt: DrawnAttempt) => string | undefined;
}

/**
 * Draws stored turns for people the way `ankole run` draws a live one (the same renderer: live lines and colours on a
 * terminal, plain lines when piped or with `TERM=dumb`), each under a heading with its claim, worker and start time,
 * and says what the size bound left out or cut.
 */
export function drawTranscript(options: DrawTranscriptOptions): void {
  const { io, attempts } = options;
  if (attempts.length === 0) {
    io.stdout.write(`No transcript for ${options.what} yet: no worker has run its turn since transcripts are kept.\n`);
    return;
  }
  const live = io.stdout.isTTY === true && io.env.TERM !== 'dumb';
  const color = io.env.NO_COLOR === undefined || io.env.NO_COLOR === '';
  attempts.forEach((attempt, index) => {
    if (index > 0) io.stdout.write('\n');
    const parts = [`Transcript of ${options.what}`];
    const label = options.label?.(attempt) ?? (attempt.attempt === undefined ? undefined : `attempt ${attempt.attempt}`);
    if (label !== undefined) parts.push(label);
    if (attempt.workerId !== undefined && attempt.workerId !== null) parts.push(`worker ${attempt.workerId}`);
    parts.push(`started ${describeTime(attempt.startedAt)}`);
    io.stdout.write(`${parts.join(' · ')}\n\n`);
    const notes: string[] = [];
    if (attempt.droppedEvents > 0) notes.push(`${plural(attempt.droppedEvents, 'event')} left out of this transcript: it reached its size bound.`);
    if (attempt.truncatedEvents > 0) notes.push(`${plural(attempt.truncatedEvents, 'event')} kept with long text cut (tool outputs, arguments or messages; --json shows where).`);
    const renderer = createTerminalRenderer({ output: io.stdout, live, color });
    const ended = replayTranscript({ entries: attempt.entries, renderer, notes });
    if (!ended) io.stdout.write('(The transcript ends here: the turn did not finish.)\n');
  });
}
