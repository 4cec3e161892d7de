/** One event of a turn as kept in a transcript: when it happened and the runtime's event (plain JSON, with a `type`). */
export interface TranscriptEntry {
  /** When the worker saw it, ISO 8601. */
  time: string;
  /** The runtime's `AgentEvent`, its long strings cut (see `TranscriptLimits`). */
  event: { type: string } & Record<string, unknown>;
}

/** The transcript of one claim of a job or task (one attempt): the turn as it ran on one worker. */
export interface TranscriptAttempt {
  /** The claim it belongs to: 1 for the first, more after a crash recovery or a resume after approval. */
  attempt: number;
  /** The worker that ran it. */
  workerId: string | null;
  entries: TranscriptEntry[];
  /** Events the worker sent (kept, cut or left out). */
  received: number;
  /** Events left out because the transcript reached its size bound (the `turn.completed` event is always kept). */
  droppedEvents: number;
  /** Events kept with some of their strings cut (a long tool output, say). */
  truncatedEvents: number;
  /** The kept entries' size, in bytes of JSON. */
  bytes: number;
  startedAt: string;
  updatedAt: string;
}

/** The transcripts of a job or a workflow task, one per claim, oldest first (none before a worker ran it). */
export interface TranscriptRecord {
  agentId: string;
  jobId: string | null;
  taskId: string | null;
  attempts: TranscriptAttempt[];
}

/** What `transcripts.append` did with a batch. */
export interface TranscriptAppendResult {
  /** Whether the batch was taken: false when the lease token is not (and never was) this job's or task's. */
  accepted: boolean;
  /** The attempt it went to. */
  attempt: number | null;
  /** Events kept (cut or not) from this batch. */
  stored: number;
  /** Events of this batch left out by the size bound. */
  dropped: number;
  /** Events of this batch kept with strings cut. */
  truncated: number;
}

/** The size bounds of one transcript (one attempt). */
export interface TranscriptLimits {
  /** Most bytes of JSON kept per transcript (default 1 MiB); later events are left out, `turn.completed` excepted. */
  maxBytes: number;
  /** Longest string kept in an event (a tool output, arguments, a message), in characters (default 8 000). */
  maxStringChars: number;
}

/** The default `TranscriptLimits`. */
export const DEFAULT_TRANSCRIPT_LIMITS: TranscriptLimits = { maxBytes: 1_048_576, maxStringChars: 8_000 };

/** Turn transcripts of jobs (background and scheduled) and workflow tasks. */
export interface TranscriptApi {
  /**
   * A worker adds events to the transcript of the claim it holds (`jobId` or `taskId` with its `leaseToken`), in order:
   * `fromSequence` is the number of events it sent before this batch, so a batch sent twice (a retry after a lost
   * answer) is kept once. The transcript starts with the first call, which must come while the claim is held (send
   * an empty batch when the turn starts); later batches are taken for that claim even after the job or task was
   * settled, so the worker can flush last events. Events past the size bound are counted and left out.
   * @throws ControlPlaneNotFoundError when there is no such job or task.
   */
  append(input: {
    jobId?: string | undefined;
    taskId?: string | undefined;
    leaseToken: string;
    fromSequence: number;
    entries: TranscriptEntry[];
  }): Promise<TranscriptAppendResult>;
  /**
   * The transcripts of one of the agent's jobs or workflow tasks, every claim of it, oldest first.
   * @throws ControlPlaneNotFoundError when the agent has no such job or task.
   */
  get(input: { agentId: string; jobId?: string | undefined; taskId?: string | undefined }): Promise<TranscriptRecord>;
}
