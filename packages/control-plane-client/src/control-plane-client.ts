import type { BrainApi } from './brain-client.js';
import type { TranscriptApi } from './transcript-client.js';
import type { AdvanceApi, TaskWorkApi, WorkflowApi } from './workflow-client.js';

/** `active` until cancelled, or `completed` once a one-time schedule has fired. */
export type ScheduleStatus = 'active' | 'cancelled' | 'completed';

/** A schedule: a prompt that starts a turn for its agent at cron times or once at a date-time. */
export interface ScheduleRecord {
  id: string;
  agentId: string;
  title: string;
  prompt: string;
  /** The folder its jobs run in (absolute), or `null`: the worker's default home for the agent. */
  home: string | null;
  kind: 'cron' | 'once';
  /** The cron expression (`kind: 'cron'`). */
  cron: string | null;
  /** The IANA time zone the cron expression is read in (`kind: 'cron'`). */
  timeZone: string | null;
  /** The one-time date-time, ISO 8601 (`kind: 'once'`). */
  runAt: string | null;
  status: ScheduleStatus;
  /** When it runs in words ("At 09:00, Monday through Friday (Europe/Paris)"). */
  description: string;
  /** The next run times, ISO 8601, soonest first; empty when it will not run again. */
  nextRunTimes: string[];
  lastFiredAt: string | null;
  fireCount: number;
  createdAt: string;
  updatedAt: string;
}

/**
 * A job's life: `queued` → `running` → `succeeded` | `failed`; `cancelled` from `queued`, `running` or
 * `awaiting_approval`; `running` → `awaiting_approval` (a call is held for a person, `work.hold`) → `queued` once
 * every held call is decided (`approvals.decide`).
 */
export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'awaiting_approval';

/** A background agent job (or a turn started by a schedule): a turn some worker runs later. */
export interface JobRecord {
  id: string;
  agentId: string;
  /** `background` (started by a tool or a person) or `scheduled` (started by a schedule firing). */
  kind: 'background' | 'scheduled';
  /** The schedule that started it (`kind: 'scheduled'`). */
  scheduleId: string | null;
  /** The schedule's run time this job is for, ISO 8601 (`kind: 'scheduled'`): it was queued at or after this time. */
  fireAt: string | null;
  title: string;
  prompt: string;
  /** The folder its turn runs in (absolute), or `null`: the worker's default home for the agent. */
  home: string | null;
  /** Whether the job's turn may start background jobs itself (never for background jobs). */
  allowJobs: boolean;
  status: JobStatus;
  /** The turn's final answer once it succeeded. */
  finalAnswer: string | null;
  /** What went wrong once it failed. */
  error: string | null;
  /** How many times a worker claimed it. */
  attempts: number;
  workerId: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  updatedAt: string;
}

/** A job a worker claimed: run its turn, heartbeat while running, then complete or fail it with the lease token. */
export interface ClaimedJob extends JobRecord {
  /** Proves the claim: complete, fail, heartbeat and release need it. */
  leaseToken: string;
  /**
   * Set when the job paused for approval and every held call is decided: resume its turn from `runState` (the
   * runtime's `AgentRunState`, as stored) with these decisions by call id, instead of starting from the prompt.
   */
  resume?: { runState: unknown; decisions: Record<string, ApprovalDecisionRecord> };
}

/**
 * A decision on a held call, as the worker resumes with it. An approved call carries its journal: `started` once a
 * worker recorded that it began running it (`work.startApprovedCall`), `output` once that worker recorded what it
 * returned (`work.finishApprovedCall`): a call that started is never run again.
 */
export type ApprovalDecisionRecord = { approved: true; started?: boolean; output?: ApprovedCallOutput } | { approved: false; reason?: string };

/** What an approved call returned, as journaled (the tool result's `content`, and whether it was an error or ended the turn). */
export interface ApprovedCallOutput {
  content: unknown;
  isError?: boolean | undefined;
  terminateTurn?: boolean | undefined;
}

/** Whether a worker may run an approved call now (`work.startApprovedCall`, `tasks.startApprovedCall`). */
export interface ApprovedCallStart {
  /**
   * `true`: the start is journaled, run the call (and record its output). `false`: do not run it: this worker no
   * longer holds the job or task, or the call is not an approved one.
   */
  run: boolean;
}

/** A held call of a paused job or workflow task, waiting for (or given) a person's decision. */
export interface ApprovalRecord {
  id: string;
  /** The job the call belongs to, or `null` for a workflow task's call. */
  jobId: string | null;
  /** The workflow task the call belongs to, or `null` for a job's call. */
  taskId: string | null;
  /** The task's workflow, or `null` for a job's call. */
  workflowId: string | null;
  agentId: string;
  /** The model's call id. */
  callId: string;
  /** `namespace.name` or `name`. */
  toolName: string;
  /** The tool's activity label for the call ("Running `rm -rf build`"). */
  label: string;
  /** The validated params the call runs with if approved. */
  params: unknown;
  isDestructive: boolean;
  status: 'pending' | 'approved' | 'denied' | 'cancelled';
  /** The reason given with a denial (the model sees it). */
  reason: string | null;
  /** What the call is part of: the job's title, or `<workflow title>: <task title>` for a task's call. */
  jobTitle: string;
  createdAt: string;
  decidedAt: string | null;
}

/** One held call, as the worker reports it when it pauses a job (`work.hold`). */
export interface HeldCall {
  callId: string;
  toolName: string;
  label: string;
  params?: unknown;
  isDestructive?: boolean | undefined;
}

/** Approvals of held calls: every call carries the agent id; an agent's approvals are its own. */
export interface ApprovalApi {
  /** The agent's approvals, newest first (default: `pending` only). */
  list(input: { agentId: string; status?: Array<ApprovalRecord['status']> | undefined; limit?: number | undefined }): Promise<ApprovalRecord[]>;
  /** @throws ControlPlaneNotFoundError when the agent has no approval with that id. */
  get(input: { agentId: string; approvalId: string }): Promise<ApprovalRecord>;
  /**
   * Decides a pending approval, exactly once: once the job's last held call is decided, the job is queued again and
   * any worker resumes it. Deciding again the same way returns it unchanged.
   * @throws ControlPlaneNotFoundError; ControlPlaneInputError (`approval_already_decided`) when it was decided
   * otherwise, or its job was cancelled.
   */
  decide(input: { agentId: string; approvalId: string; approved: boolean; reason?: string | undefined }): Promise<ApprovalRecord>;
}

/** The journal of an approved call, under a job's lease: see `WorkApi.startApprovedCall`. */
export interface ApprovedCallRef {
  jobId: string;
  leaseToken: string;
  callId: string;
}

/** Options of a call that may wait (the long polls: claims and heartbeats with `waitMs`). */
export interface CallOptions {
  /** Ends the wait: the call answers at once (a claim `null`, a heartbeat the claim's state). */
  signal?: AbortSignal | undefined;
}

/** What a heartbeat tells the worker. */
export interface HeartbeatResult {
  /** `false` when the worker must stop the turn: the job was cancelled or another worker holds it now, or it finished. */
  keepRunning: boolean;
  status: JobStatus;
  /**
   * `true` when this very lease settled it (the turn's own result was stored: a job completed or failed by its worker, a
   * task's `submit_result` accepted): a clean stop, not a lost claim; nothing to abort.
   */
  finishedByThisLease?: boolean;
}

/** Creates a cron schedule (`cron`, optional `timeZone`) or a one-time one (`runAt`). */
export interface CreateScheduleInput {
  agentId: string;
  prompt: string;
  title?: string | undefined;
  /** The folder its jobs run in: an absolute path on the workers' machine (default: the worker's home for the agent). */
  home?: string | undefined;
  cron?: string | undefined;
  timeZone?: string | undefined;
  runAt?: string | undefined;
}

/** Starts a background job. */
export interface StartJobInput {
  agentId: string;
  prompt: string;
  title?: string | undefined;
  /** The folder its turn runs in: an absolute path on the workers' machine (default: the worker's home for the agent). */
  home?: string | undefined;
}

/** Schedules: every call carries the agent id; an agent sees and cancels only its own. */
export interface ScheduleApi {
  /** @throws ControlPlaneInputError for an invalid cron, time zone, past date, too frequent cron, or too many schedules. */
  create(input: CreateScheduleInput): Promise<ScheduleRecord>;
  /** The agent's schedules, newest first; cancelled and completed ones only with `includeInactive`. */
  list(input: { agentId: string; includeInactive?: boolean | undefined }): Promise<ScheduleRecord[]>;
  /** @throws ControlPlaneNotFoundError when the agent has no schedule with that id. */
  get(input: { agentId: string; scheduleId: string }): Promise<ScheduleRecord>;
  /** Cancels it (no more runs); cancelling an inactive schedule returns it unchanged. @throws ControlPlaneNotFoundError */
  cancel(input: { agentId: string; scheduleId: string }): Promise<ScheduleRecord>;
}

/** Background jobs: every call carries the agent id; an agent sees and cancels only its own. */
export interface JobApi {
  /** Queues a job. @throws ControlPlaneInputError for invalid input or too many unfinished jobs. */
  start(input: StartJobInput): Promise<JobRecord>;
  /** @throws ControlPlaneNotFoundError when the agent has no job with that id. */
  get(input: { agentId: string; jobId: string }): Promise<JobRecord>;
  /** The agent's jobs, newest first, optionally only some statuses. */
  list(input: { agentId: string; status?: JobStatus[] | undefined; limit?: number | undefined }): Promise<JobRecord[]>;
  /**
   * Cancels a queued or running job (a running turn is aborted at its worker's next heartbeat);
   * a finished job is returned unchanged. @throws ControlPlaneNotFoundError
   */
  cancel(input: { agentId: string; jobId: string }): Promise<JobRecord>;
}

/** The calls a worker makes to take and finish work. */
export interface WorkApi {
  /** Claims the next queued job (background or scheduled), or `null` when there is none. */
  /**
   * Claims the next queued job (background or scheduled), or `null` when there is none. Long poll: with `waitMs`, waits
   * up to that long for a job to be queued (and claims it as soon as one is), but answers `null` early when a
   * workflow task or advance is queued meanwhile (so a worker taking several kinds of work looks again), or when
   * `options.signal` aborts.
   */
  claim(input: { workerId: string; waitMs?: number | undefined }, options?: CallOptions): Promise<ClaimedJob | null>;
  /** Extends the claim; says whether to keep running (not when cancelled or claimed by another worker). */
  /**
   * Extends the claim; says whether to keep running (not when cancelled or claimed by another worker). Long poll: with
   * `waitMs`, extends the claim and then waits up to that long (at most a third of the lease) for the job to be
   * cancelled, finished or taken over, answering as soon as it is: a cancel reaches the worker at once.
   */
  heartbeat(input: { jobId: string; leaseToken: string; waitMs?: number | undefined }, options?: CallOptions): Promise<HeartbeatResult>;
  /**
   * Stores the final answer: `succeeded` (unless cancelled meanwhile). Returns the job as stored (as it is when the
   * same lease asks again).
   * @throws ControlPlaneConflictError `lease_lost` when the lease is not the job's (wrong, expired, taken over): nothing changes.
   */
  complete(input: { jobId: string; leaseToken: string; finalAnswer: string }): Promise<JobRecord>;
  /**
   * Stores the failure: `failed` (unless cancelled meanwhile); not retried. Returns the job as stored.
   * @throws ControlPlaneConflictError `lease_lost` as `complete`.
   */
  fail(input: { jobId: string; leaseToken: string; error: string }): Promise<JobRecord>;
  /**
   * Hands a running job back to the queue unfinished (graceful shutdown): another worker runs it.
   * @throws ControlPlaneConflictError `lease_lost` as `complete`.
   */
  release(input: { jobId: string; leaseToken: string }): Promise<JobRecord>;
  /**
   * Pauses a running job whose turn holds calls for approval: stores its run state and one pending approval per
   * held call; the job becomes `awaiting_approval` and leaves the worker. Returns the job as stored (unchanged when
   * the job was cancelled).
   * @throws ControlPlaneConflictError `lease_lost` as `complete`.
   */
  hold(input: { jobId: string; leaseToken: string; runState: unknown; calls: HeldCall[] }): Promise<JobRecord>;
  /**
   * Journals that this worker starts running an approved call of the job it resumed (before running it): `run: true`
   * when it holds the job's lease and the call's approval is `approved` (again for the same lease: the answer of a
   * repeated call). A call whose start was journaled is never run again: a later resume gets its recorded output, or
   * `started` without one (then the worker tells the model the call was interrupted).
   */
  startApprovedCall(input: ApprovedCallRef): Promise<ApprovedCallStart>;
  /**
   * Journals what a started approved call returned, once (`recorded: false` when already recorded, or for a call that
   * is not approved): only under the lease the call was started with (kept even if that lease was lost meanwhile:
   * the call did run).
   * @throws ControlPlaneConflictError `lease_lost` for any other lease: nothing is recorded.
   */
  finishApprovedCall(input: ApprovedCallRef & { output: ApprovedCallOutput }): Promise<{ recorded: boolean }>;
}

/**
 * The RPC surface tools and workers use. In process (`createControlPlane`) or, later, over HTTP:
 * every argument and result is plain JSON data.
 */
export interface ControlPlaneClient {
  readonly schedules: ScheduleApi;
  readonly jobs: JobApi;
  readonly work: WorkApi;
  /** Workflows: start, show, list, cancel (agent-scoped). */
  readonly workflows: WorkflowApi;
  /** The worker side of workflow tasks: claim, heartbeat, submit, fail, release. */
  readonly tasks: TaskWorkApi;
  /** The worker side of workflow advances: run the next due one in this process. */
  readonly advances: AdvanceApi;
  /** Brain: the agent's Markdown pages, with full-text recall (agent-scoped). */
  readonly brain: BrainApi;
  /** Approvals of calls held by paused jobs (agent-scoped). */
  readonly approvals: ApprovalApi;
  /** Turn transcripts of jobs and workflow tasks: workers append, agents read (`get` is agent-scoped). */
  readonly transcripts: TranscriptApi;
}
