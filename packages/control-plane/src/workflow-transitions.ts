/*
 * Every state change of workflows and tasks, each written once: one SQL statement (or one transaction the caller
 * holds) per transition. Lock order, everywhere: the workflow row first, then its task rows.
 *
 *   workflow: running → succeeded | failed (an advance finishes it) | cancelled (cancelWorkflow)
 *             advance: due (advance_requested > advance_done) → claimed (advance_token) → done | re-claimable after the lease
 *   task:     queued → running (claimTask) → succeeded | failed (settleTask: `settled_by` = the settling lease);
 *             running → queued (releaseTask);
 *             (a task keeps the lease token of the claim that settled, released or paused it: see lease-conflict.ts;
 *             a heartbeat of the lease in `settled_by` answers "finished by this lease": endedLease in job-transitions.ts)
 *             running past its lease → running again for another worker (claimTask) or failed (expireTask);
 *             running → awaiting_approval (pauseTask) → queued once every held call is decided (resumeTask);
 *             queued | running | awaiting_approval → cancelled (cancelUnfinishedTasks), its pending approvals too
 */
import { randomUUID } from 'node:crypto';
import { insertJob } from './job-transitions.js';
import type { SqlExecutor } from './sql-driver.js';
import type { JsonValue, WorkflowLogLine } from '@core/control-plane-client';
import type { TaskRow, WorkflowRow } from './workflow-records.js';
import type { TaskRequest } from './workflow-sandbox.js';

/** Where the tables live. */
export interface Tables {
  schema: string;
}

/** running: a new workflow with its first advance due. */
export async function insertWorkflow(
  executor: SqlExecutor,
  { schema }: Tables,
  workflow: { id: string; agentId: string; title: string; script: string; input: JsonValue; notifyOnFinish: boolean; seed: number },
): Promise<WorkflowRow> {
  const { rows } = await executor.query<WorkflowRow>(
    `INSERT INTO ${schema}.workflow (id, agent_id, title, script, input, notify_on_finish, seed) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7) RETURNING *`,
    [workflow.id, workflow.agentId, workflow.title, workflow.script, JSON.stringify(workflow.input), workflow.notifyOnFinish, workflow.seed],
  );
  return rows[0]!;
}

/** How many workflows the agent has running. */
export async function countRunningWorkflows(executor: SqlExecutor, { schema }: Tables, agentId: string): Promise<number> {
  const { rows } = await executor.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${schema}.workflow WHERE agent_id = $1 AND status = 'running'`, [
    agentId,
  ]);
  return Number(rows[0]?.count ?? 0);
}

/**
 * advance due → claimed: takes the oldest due advance whose workflow no other worker is advancing (or whose advance
 * claim expired: that worker died), skipping rows another transaction holds.
 */
export async function claimAdvance(executor: SqlExecutor, { schema }: Tables, leaseSeconds: number): Promise<WorkflowRow | undefined> {
  const { rows } = await executor.query<WorkflowRow>(
    `UPDATE ${schema}.workflow SET advance_token = $1, advance_claimed_at = now(), advance_attempts = advance_attempts + 1
     WHERE id = (
       SELECT id FROM ${schema}.workflow
       WHERE status = 'running' AND advance_requested > advance_done
         AND (advance_token IS NULL OR advance_claimed_at < now() - make_interval(secs => $2))
       ORDER BY updated_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
     ) RETURNING *`,
    [randomUUID(), leaseSeconds],
  );
  return rows[0];
}

/**
 * claimed → due again: gives up this advance's claim (its run could not finish: a busy machine), keeping its attempt
 * counted. Returns whether this advance still held the claim.
 */
export async function releaseAdvance(executor: SqlExecutor, { schema }: Tables, workflowId: string, token: string): Promise<boolean> {
  const { rows } = await executor.query(
    `UPDATE ${schema}.workflow SET advance_token = NULL, advance_claimed_at = NULL, updated_at = now()
     WHERE id = $1 AND advance_token = $2 AND status = 'running' RETURNING id`,
    [workflowId, token],
  );
  return rows.length > 0;
}

/** What an advance stores. */
export interface AdvanceResult {
  status: 'running' | 'succeeded' | 'failed';
  result: JsonValue | null;
  error: string | null;
  log: WorkflowLogLine[];
  /** The `advance_requested` the advance saw when claimed: later requests stay due. */
  requestedSeen: number;
  newTaskCount: number;
}

/**
 * claimed → done: stores what the advance did, if this advance still holds the claim and the workflow is still
 * running (not cancelled meanwhile); `undefined` otherwise (then the caller rolls its transaction back).
 */
export async function finishAdvance(executor: SqlExecutor, { schema }: Tables, workflowId: string, token: string, outcome: AdvanceResult): Promise<WorkflowRow | undefined> {
  const finished = outcome.status !== 'running';
  const { rows } = await executor.query<WorkflowRow>(
    `UPDATE ${schema}.workflow SET advance_token = NULL, advance_claimed_at = NULL, advance_attempts = 0, advance_done = $3,
       replays = replays + 1, task_count = task_count + $4, log = $5::jsonb, status = $6, result = $7::jsonb, error = $8,
       finished_at = ${finished ? 'now()' : 'NULL'}, updated_at = now()
     WHERE id = $1 AND advance_token = $2 AND status = 'running' RETURNING *`,
    [
      workflowId,
      token,
      outcome.requestedSeen,
      outcome.newTaskCount,
      JSON.stringify(outcome.log),
      outcome.status,
      outcome.result === null ? null : JSON.stringify(outcome.result),
      outcome.error,
    ],
  );
  return rows[0];
}

/** → failed: a workflow whose advances were abandoned too often, or that hit a limit outside a run. */
export async function failWorkflow(executor: SqlExecutor, { schema }: Tables, workflowId: string, error: string): Promise<WorkflowRow | undefined> {
  const { rows } = await executor.query<WorkflowRow>(
    `UPDATE ${schema}.workflow SET status = 'failed', error = $2, advance_token = NULL, advance_claimed_at = NULL, finished_at = now(), updated_at = now()
     WHERE id = $1 AND status = 'running' RETURNING *`,
    [workflowId, error],
  );
  return rows[0];
}

/** running → cancelled. */
export async function cancelWorkflow(executor: SqlExecutor, { schema }: Tables, workflowId: string, agentId: string): Promise<WorkflowRow | undefined> {
  const { rows } = await executor.query<WorkflowRow>(
    `UPDATE ${schema}.workflow SET status = 'cancelled', error = 'The workflow was cancelled.', advance_token = NULL, advance_claimed_at = NULL,
       finished_at = now(), updated_at = now()
     WHERE id = $1 AND agent_id = $2 AND status = 'running' RETURNING *`,
    [workflowId, agentId],
  );
  return rows[0];
}

/** new tasks, queued: the `task()` calls an advance found past the journal. */
export async function insertTasks(executor: SqlExecutor, { schema }: Tables, workflow: { id: string; agentId: string }, tasks: readonly TaskRequest[]): Promise<void> {
  if (tasks.length === 0) return;
  await executor.query(
    `INSERT INTO ${schema}.task (id, workflow_id, agent_id, sequence, title, prompt, result_schema)
     SELECT item.id, $1, $2, item.sequence, item.title, item.prompt, item.result_schema
     FROM json_to_recordset($3::json) AS item (id uuid, sequence integer, title text, prompt text, result_schema json)`,
    [
      workflow.id,
      workflow.agentId,
      JSON.stringify(tasks.map((task) => ({ id: randomUUID(), sequence: task.sequence, title: task.title, prompt: task.prompt, result_schema: task.resultSchema }))),
    ],
  );
}

/**
 * queued | running | awaiting_approval → cancelled: every unfinished task of a finished workflow (running turns stop at
 * their next heartbeat); the held calls of paused ones can no longer be decided.
 */
export async function cancelUnfinishedTasks(executor: SqlExecutor, { schema }: Tables, workflowId: string, reason: string): Promise<number> {
  const { rows } = await executor.query<{ id: string }>(
    `UPDATE ${schema}.task SET status = 'cancelled', error = $2, finished_at = now(), updated_at = now()
     WHERE workflow_id = $1 AND status IN ('queued', 'running', 'awaiting_approval') RETURNING id`,
    [workflowId, reason],
  );
  if (rows.length > 0) {
    await executor.query(`UPDATE ${schema}.approval SET status = 'cancelled', decided_at = now() WHERE task_id = ANY($1::uuid[]) AND status = 'pending'`, [
      rows.map((row) => row.id),
    ]);
  }
  return rows.length;
}

/** The running tasks whose worker stopped heartbeating and that have no attempts left. */
export async function findAbandonedTasks(executor: SqlExecutor, { schema }: Tables, leaseSeconds: number, maxAttempts: number): Promise<string[]> {
  const { rows } = await executor.query<{ id: string }>(
    `SELECT id FROM ${schema}.task WHERE status = 'running' AND attempts >= $2 AND heartbeat_at < now() - make_interval(secs => $1) ORDER BY heartbeat_at LIMIT 100`,
    [leaseSeconds, maxAttempts],
  );
  return rows.map((row) => row.id);
}

/**
 * running past its lease, out of attempts → failed, with the workflow's next advance requested (the workflow row
 * first: lock order). `undefined` when the task is no longer abandoned (the caller rolls back).
 */
export async function expireTask(executor: SqlExecutor, { schema }: Tables, taskId: string, leaseSeconds: number, maxAttempts: number): Promise<TaskRow | undefined> {
  const { rows: bumped } = await executor.query<{ settled_count: number }>(
    `UPDATE ${schema}.workflow SET advance_requested = advance_requested + 1, settled_count = settled_count + 1, updated_at = now()
     WHERE id = (SELECT workflow_id FROM ${schema}.task WHERE id = $1) AND status = 'running' RETURNING settled_count`,
    [taskId],
  );
  if (bumped[0] === undefined) return undefined;
  const { rows } = await executor.query<TaskRow>(
    `UPDATE ${schema}.task SET status = 'failed', lease_token = NULL, settled_order = $4, finished_at = now(), updated_at = now(),
       error = 'The worker running this task stopped responding ' || attempts || ' times; it is not retried again.'
     WHERE id = $1 AND status = 'running' AND attempts >= $3 AND heartbeat_at < now() - make_interval(secs => $2) RETURNING *`,
    [taskId, leaseSeconds, maxAttempts, bumped[0].settled_count],
  );
  return rows[0];
}

/**
 * queued (or running past its lease, attempts left) → running for this worker: the oldest such task, skipping rows
 * another transaction holds.
 */
export async function claimTask(
  executor: SqlExecutor,
  { schema }: Tables,
  claim: { workerId: string; leaseToken: string; leaseSeconds: number; maxAttempts: number },
): Promise<(TaskRow & { workflow_title: string }) | undefined> {
  const { rows } = await executor.query<TaskRow & { workflow_title: string }>(
    `WITH claimed AS (
       UPDATE ${schema}.task SET status = 'running', attempts = attempts + 1, worker_id = $1, lease_token = $2, heartbeat_at = now(),
         started_at = coalesce(started_at, now()), updated_at = now()
       WHERE id = (
         SELECT id FROM ${schema}.task
         WHERE status = 'queued' OR (status = 'running' AND attempts < $4 AND heartbeat_at < now() - make_interval(secs => $3))
         ORDER BY created_at, sequence, id LIMIT 1 FOR UPDATE SKIP LOCKED
       ) RETURNING *
     )
     SELECT claimed.*, workflow.title AS workflow_title FROM claimed JOIN ${schema}.workflow ON workflow.id = claimed.workflow_id`,
    [claim.workerId, claim.leaseToken, claim.leaseSeconds, claim.maxAttempts],
  );
  return rows[0];
}

/** running → running, lease extended (only by the claim's holder). */
export async function heartbeatTask(executor: SqlExecutor, { schema }: Tables, taskId: string, leaseToken: string): Promise<boolean> {
  const { rows } = await executor.query(
    `UPDATE ${schema}.task SET heartbeat_at = now(), updated_at = now() WHERE id = $1 AND lease_token = $2 AND status = 'running' RETURNING id`,
    [taskId, leaseToken],
  );
  return rows.length === 1;
}

/**
 * running → succeeded | failed, by the claim's holder, with the workflow's next advance requested: the workflow row
 * is updated first (lock order) and gives the task its place in the order of finishes. `undefined` when the task is
 * not running under that lease or its workflow is not running (the caller rolls back and explains).
 */
export async function settleTask(
  executor: SqlExecutor,
  { schema }: Tables,
  settle: { taskId: string; leaseToken: string; status: 'succeeded' | 'failed'; result: JsonValue | null; error: string | null },
): Promise<TaskRow | undefined> {
  const { rows: bumped } = await executor.query<{ settled_count: number }>(
    `UPDATE ${schema}.workflow SET advance_requested = advance_requested + 1, settled_count = settled_count + 1, updated_at = now()
     WHERE id = (SELECT workflow_id FROM ${schema}.task WHERE id = $1) AND status = 'running' RETURNING settled_count`,
    [settle.taskId],
  );
  if (bumped[0] === undefined) return undefined;
  const { rows } = await executor.query<TaskRow>(
    `UPDATE ${schema}.task SET status = $3, result = $4::json, error = $5, settled_order = $6, settled_by = $2, finished_at = now(), updated_at = now()
     WHERE id = $1 AND lease_token = $2 AND status = 'running' RETURNING *`,
    [settle.taskId, settle.leaseToken, settle.status, settle.result === null ? null : JSON.stringify(settle.result), settle.error, bumped[0].settled_count],
  );
  return rows[0];
}

/** running → queued, by the claim's holder (graceful hand-back). */
export async function releaseTask(executor: SqlExecutor, { schema }: Tables, taskId: string, leaseToken: string): Promise<TaskRow | undefined> {
  const { rows } = await executor.query<TaskRow>(
    `UPDATE ${schema}.task SET status = 'queued', worker_id = NULL, heartbeat_at = NULL, updated_at = now()
     WHERE id = $1 AND lease_token = $2 AND status = 'running' RETURNING *`,
    [taskId, leaseToken],
  );
  return rows[0];
}

/** running → awaiting_approval, by the claim's holder, with its run state (approval-api.ts adds the held calls). */
export async function pauseTask(executor: SqlExecutor, { schema }: Tables, taskId: string, leaseToken: string, runState: unknown): Promise<TaskRow | undefined> {
  const { rows } = await executor.query<TaskRow>(
    `UPDATE ${schema}.task SET status = 'awaiting_approval', run_state = $3::jsonb, worker_id = NULL, heartbeat_at = NULL, updated_at = now()
     WHERE id = $1 AND lease_token = $2 AND status = 'running' RETURNING *`,
    [taskId, leaseToken, JSON.stringify(runState)],
  );
  return rows[0];
}

/** awaiting_approval → queued, once every held call is decided (claimed again from its row). Returns whether it moved. */
export async function resumeTask(executor: SqlExecutor, { schema }: Tables, taskId: string): Promise<boolean> {
  const { rows } = await executor.query(`UPDATE ${schema}.task SET status = 'queued', updated_at = now() WHERE id = $1 AND status = 'awaiting_approval' RETURNING id`, [
    taskId,
  ]);
  return rows.length === 1;
}

/**
 * Queues a background job that tells the owning agent how a workflow finished (in the caller's transaction, the one
 * that finished the workflow).
 */
export async function queueFinishNotice(executor: SqlExecutor, { schema }: Tables, workflow: WorkflowRow): Promise<void> {
  const id = randomUUID();
  const result = workflow.result === null ? '' : JSON.stringify(workflow.result, null, 2);
  const shown = result.length > 8000 ? `${result.slice(0, 8000)}\n… (${result.length - 8000} more characters; show_workflow has all of it)` : result;
  const outcome =
    workflow.status === 'succeeded'
      ? `succeeded. Its result:\n\n\`\`\`json\n${shown}\n\`\`\``
      : workflow.status === 'failed'
        ? `failed: ${workflow.error ?? 'no reason given'}`
        : 'was cancelled.';
  const prompt = `Your workflow "${workflow.title}" (id ${workflow.id}) ${outcome}\n\nReport this outcome to the user.`;
  const title = `Workflow ${workflow.status}: ${workflow.title}`.slice(0, 200);
  await insertJob(executor, { schema }, { id, agentId: workflow.agent_id, kind: 'background', title, prompt, allowJobs: false });
}
