import type { ApprovalDecisionRecord, ApprovedCallOutput, ApprovedCallStart, CallOptions, HeartbeatResult, HeldCall } from './control-plane-client.js';

/** A JSON value: what a workflow's input, result and task results are made of. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object (a task's result and result schema are objects). */
export type JsonObject = { [key: string]: JsonValue };

/** A workflow's life: `running` until its script returns (`succeeded`), throws or hits a limit (`failed`), or it is cancelled. */
export type WorkflowStatus = 'running' | 'succeeded' | 'failed' | 'cancelled';

/**
 * A task's life: `queued` → `running` → `succeeded` | `failed`; `running` → `awaiting_approval` (its turn holds a call
 * for a person, `tasks.hold`) → `queued` once every held call is decided; `cancelled` from any unfinished status.
 */
export type TaskStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'awaiting_approval';

/** A workflow: a sandboxed script that orchestrates tasks, made durable by deterministic replay. */
export interface WorkflowRecord {
  id: string;
  agentId: string;
  title: string;
  status: WorkflowStatus;
  /** The script's `input`. */
  input: JsonValue;
  /** The script's return value once it succeeded. */
  result: JsonValue | null;
  /** Why it failed (the script's uncaught error, a limit, non-determinism) or `null`. */
  error: string | null;
  /** Whether a background job reports the outcome to the owning agent when it finishes. */
  notifyOnFinish: boolean;
  /** How many advances (runs of the script from the start) it took so far. */
  replays: number;
  /** How many tasks the script created so far. */
  taskCount: number;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

/** One line the script logged with `log(...)`. */
export interface WorkflowLogLine {
  /** ISO 8601: when the advance that first logged it ran. */
  at: string;
  text: string;
}

/** A workflow with its script, log and tasks (in the order the script created them). */
export interface WorkflowDetails extends WorkflowRecord {
  script: string;
  log: WorkflowLogLine[];
  tasks: TaskRecord[];
}

/** One `task()` call of a workflow: queue work some worker runs as a task turn. */
export interface TaskRecord {
  id: string;
  workflowId: string;
  agentId: string;
  /** Its position in the workflow's journal: 0 for the script's first `task()` call, then 1, 2, ... */
  sequence: number;
  title: string;
  prompt: string;
  /** The closed (OpenAI strict-mode) JSON schema its result must match; `submit_result` is built from it. */
  resultSchema: JsonObject;
  status: TaskStatus;
  /** The accepted result once it succeeded. */
  result: JsonObject | null;
  /** Why it failed or was cancelled. */
  error: string | null;
  /** How many times a worker claimed it. */
  attempts: number;
  workerId: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** A task a worker claimed: run its task turn, heartbeat while running, then submit or fail it with the lease token. */
export interface ClaimedTask extends TaskRecord {
  /** Proves the claim: submit, fail, heartbeat and release need it. */
  leaseToken: string;
  /** The title of the workflow it belongs to (for the task turn's instructions). */
  workflowTitle: string;
  /** Set when the task paused for approval and every held call is decided: resume its turn from `runState` (see `ClaimedJob.resume`). */
  resume?: { runState: unknown; decisions: Record<string, ApprovalDecisionRecord> };
}

/** One place where a submitted result does not match the task's schema. */
export interface ResultSchemaProblem {
  /** The JSON path in the submitted value (`$` for the root, `$.facts[2]`). */
  path: string;
  message: string;
}

/** What `tasks.submit` answers: accepted (stored), or rejected with each failing path (the task turn goes on). */
export type SubmitTaskResultOutcome = { accepted: true; task: TaskRecord } | { accepted: false; errors: ResultSchemaProblem[] };

/** Starts a workflow. */
export interface StartWorkflowInput {
  agentId: string;
  title: string;
  /** The JavaScript body: top-level `await` and `return` work; `input`, `task()` and `log()` are in scope. */
  script: string;
  /** The script's `input` (default `null`). */
  input?: JsonValue | undefined;
  /** Queue a background job for the agent with the outcome when the workflow finishes (default `false`). */
  notifyOnFinish?: boolean | undefined;
}

/** Workflows: every call carries the agent id; an agent sees and cancels only its own. */
export interface WorkflowApi {
  /**
   * Checks that the script compiles (in the sandbox), stores the workflow and queues its first advance.
   * @throws ControlPlaneInputError `script_invalid` (a syntax error, with line and column), `script_too_large`,
   *   `workflow_limit_reached` (too many running workflows for the agent), `input_invalid`.
   */
  start(input: StartWorkflowInput): Promise<WorkflowRecord>;
  /** @throws ControlPlaneNotFoundError when the agent has no workflow with that id. */
  get(input: { agentId: string; workflowId: string }): Promise<WorkflowDetails>;
  /** The agent's workflows, newest first, optionally only some statuses. */
  list(input: { agentId: string; status?: WorkflowStatus[] | undefined; limit?: number | undefined }): Promise<WorkflowRecord[]>;
  /**
   * Cancels a running workflow: its queued tasks are cancelled, running task turns are told to stop by their next
   * heartbeat, and nothing of it runs again. A finished workflow is returned unchanged. @throws ControlPlaneNotFoundError
   */
  cancel(input: { agentId: string; workflowId: string }): Promise<WorkflowRecord>;
}

/** The worker side of tasks: claim, heartbeat, submit, fail, release. */
export interface TaskWorkApi {
  /** Claims the next queued task (a dead worker's task after its lease), or `null` when there is none. */
  /** Claims the next queued task (a dead worker's task after its lease), or `null`. Long poll with `waitMs`, as `work.claim`. */
  claim(input: { workerId: string; waitMs?: number | undefined }, options?: CallOptions): Promise<ClaimedTask | null>;
  /** Extends the claim; `keepRunning: false` when the task was cancelled or another worker holds it now. */
  /** Long poll with `waitMs`, as `work.heartbeat`: answers as soon as the task is cancelled or taken over. */
  heartbeat(input: { taskId: string; leaseToken: string; waitMs?: number | undefined }, options?: CallOptions): Promise<HeartbeatResult>;
  /**
   * Validates `result` against the task's stored schema; when it matches, stores it, marks the task succeeded and
   * queues the workflow's next advance, in one transaction. A mismatch is `{ accepted: false, errors }`.
   * @throws ControlPlaneConflictError `lease_lost` (no longer this claim), `already_submitted`, `task_not_running`
   *   (cancelled or failed); ControlPlaneNotFoundError for an unknown task.
   */
  submit(input: { taskId: string; leaseToken: string; result: unknown }): Promise<SubmitTaskResultOutcome>;
  /**
   * Fails the task (the script's `task()` promise rejects with `error`) and queues the workflow's next advance.
   * @throws ControlPlaneConflictError `lease_lost` (wrong, expired or taken-over lease); a task this lease already
   *   finished, or that was cancelled, is returned unchanged.
   */
  fail(input: { taskId: string; leaseToken: string; error: string }): Promise<TaskRecord>;
  /**
   * Hands a running task back to the queue unfinished (graceful shutdown): another worker runs it.
   * @throws ControlPlaneConflictError `lease_lost` when the lease is not the task's (wrong, expired, taken over).
   */
  release(input: { taskId: string; leaseToken: string }): Promise<TaskRecord>;
  /**
   * Pauses a running task whose turn holds calls for approval (like `work.hold`): its run state and one pending
   * approval per held call are stored, the task becomes `awaiting_approval` (its workflow waits) and leaves the worker;
   * once every held call is decided (`approvals.decide`) it is queued again and any worker resumes it. Returns the task
   * as stored (unchanged when cancelled meanwhile).
   * @throws ControlPlaneConflictError `lease_lost` when the lease is not the task's (wrong, expired, taken over).
   */
  hold(input: { taskId: string; leaseToken: string; runState: unknown; calls: HeldCall[] }): Promise<TaskRecord>;
  /** Journals the start of an approved call of a resumed task (see `WorkApi.startApprovedCall`). */
  startApprovedCall(input: { taskId: string; leaseToken: string; callId: string }): Promise<ApprovedCallStart>;
  /** Journals what a started approved call of a task returned (see `WorkApi.finishApprovedCall`). */
  finishApprovedCall(input: { taskId: string; leaseToken: string; callId: string; output: ApprovedCallOutput }): Promise<{ recorded: boolean }>;
}

/** What one advance did. */
export interface AdvanceReport {
  workflowId: string;
  agentId: string;
  /** The workflow's status after the advance. */
  status: WorkflowStatus;
  /** Tasks this advance created. */
  newTasks: number;
  durationMs: number;
}

/** The worker side of advances: re-running workflow scripts by deterministic replay. */
export interface AdvanceApi {
  /**
   * Claims the next due advance (at most one at a time per workflow), runs the script in a fresh QuickJS sandbox in
   * this process, and stores the new tasks, log, result or failure in one transaction. `null` when none is due.
   */
  runNext(input: { workerId: string }): Promise<AdvanceReport | null>;
}
