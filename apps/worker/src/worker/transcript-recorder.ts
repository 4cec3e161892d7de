import type { TranscriptApi, TranscriptEntry } from '@core/control-plane-client';
import { boundEvent, type AgentEvent } from '@core/runtime';

/** Options of `createTranscriptRecorder`. */
export interface TranscriptRecorderOptions {
  /** Where the transcript goes (`client.transcripts`). */
  transcripts: Pick<TranscriptApi, 'append'>;
  /** The claim it belongs to: a job's or a workflow task's id, with the claim's lease token. */
  owner: { jobId: string } | { taskId: string };
  leaseToken: string;
  /** How long events wait before they are sent together (default 1000 ms). */
  flushIntervalMs?: number;
  /** Most events sent in one call (default 200); more pending events are sent at once. */
  maxBatch?: number;
  /** A batch that could not be stored (it is left out; the job or task goes on). */
  onError: (error: Error) => void;
}

/** Records a turn's events into the control plane while the turn runs. */
export interface TranscriptRecorder {
  /** Queues one event (streamed text deltas are left out: the whole message follows as `message.completed`). */
  record(event: AgentEvent): void;
  /** Sends what is queued and stops; resolves once every batch was sent or failed (never rejects). */
  close(): Promise<void>;
}

/**
 * A recorder for one claim's turn: it opens the transcript at once (while the claim is held), then sends the events in
 * batches, in order, every `flushIntervalMs` or once `maxBatch` are waiting. Long strings are cut before sending
 * (`boundEvent`; the control plane bounds them again). A batch that fails is reported to `onError` and left out (the
 * control plane counts it as dropped): recording never fails or slows the turn. Call `close` before settling the claim.
 */
export function createTranscriptRecorder(options: TranscriptRecorderOptions): TranscriptRecorder {
  const flushIntervalMs = options.flushIntervalMs ?? 1000;
  const maxBatch = options.maxBatch ?? 200;
  let pending: TranscriptEntry[] = [];
  let sent = 0;
  let closed = false;
  let chain: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  const send = (entries: TranscriptEntry[]) => {
    const fromSequence = sent;
    sent += entries.length;
    chain = chain.then(async () => {
      try {
        await options.transcripts.append({ ...options.owner, leaseToken: options.leaseToken, fromSequence, entries });
      } catch (error) {
        const owner = 'jobId' in options.owner ? `job ${options.owner.jobId}` : `task ${options.owner.taskId}`;
        const why = error instanceof Error ? error.message : String(error);
        options.onError(new Error(`Could not store ${entries.length === 0 ? 'the start' : `${entries.length} event${entries.length === 1 ? '' : 's'}`} of the transcript of ${owner}: ${why}`, { cause: error }));
      }
    });
  };
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    while (pending.length > 0) send(pending.splice(0, maxBatch));
  };

  // Opens the transcript while the claim is surely held.
  send([]);

  return {
    record(event) {
      if (closed || event.type === 'text.delta') return;
      pending.push({ time: new Date().toISOString(), event: boundEvent(event).event as unknown as TranscriptEntry['event'] });
      if (pending.length >= maxBatch) flush();
      else if (timer === undefined) {
        timer = setTimeout(flush, flushIntervalMs);
        timer.unref();
      }
    },
    async close() {
      if (!closed) {
        closed = true;
        flush();
        pending = [];
      }
      await chain;
    },
  };
}
