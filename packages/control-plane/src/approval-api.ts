import { randomUUID } from 'node:crypto';
import {
  ControlPlaneInputError,
  ControlPlaneNotFoundError,
  inputSchemas,
  isUuid,
  parseInput,
  workflowInputSchemas,
  type ApprovalApi,
  type ApprovalDecisionRecord,
  type ApprovalRecord,
  type ApprovedCallOutput,
  type HeldCall,
  type JobRecord,
  type TaskRecord,
} from '@core/control-plane-client';
import { pauseJob, resumeJob } from './job-transitions.js';
import { leaseConflict } from './lease-conflict.js';
import { isoTime, jobRecord, type JobRow } from './records.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';
import { taskRecord, type TaskRow } from './workflow-records.js';
import { pauseTask, resumeTask } from './workflow-transitions.js';

/** What a held call belongs to: a background job or a workflow task (the `approval` row's `job_id` or `task_id`). */
export interface ApprovalOwner {
  kind: 'job' | 'task';
  id: string;
}

/** The `approval` column that names the owner. */
export function ownerColumn(owner: ApprovalOwner): 'job_id' | 'task_id' {
  return owner.kind === 'job' ? 'job_id' : 'task_id';
}

/** An `approval` row (joined with its job's title) as the database returns it. */
interface ApprovalRow {
  id: string;
  job_id: string | null;
  task_id: string | null;
  workflow_id: string | null;
  agent_id: string;
  call_id: string;
  tool_name: string;
  label: string;
  params: unknown;
  is_destructive: boolean;
  status: ApprovalRecord['status'];
  reason: string | null;
  job_title: string;
  created_at: Date | string;
  decided_at: Date | string | null;
}

function approvalRecord(row: ApprovalRow): ApprovalRecord {
  return {
    id: row.id,
    jobId: row.job_id,
    taskId: row.task_id,
    workflowId: row.workflow_id,
    agentId: row.agent_id,
    callId: row.call_id,
    toolName: row.tool_name,
    label: row.label,
    params: row.params ?? null,
    isDestructive: row.is_destructive,
    status: row.status,
    reason: row.reason,
    jobTitle: row.job_title,
    createdAt: isoTime(row.created_at),
    decidedAt: isoTime(row.decided_at),
  };
}

/** What the approval API needs. */
export interface ApprovalApiOptions {
  driver: SqlDriver;
  schema: string;
}

/**
 * Approvals of held calls. Deciding is one transaction that locks the job (or task) row first (so two decisions of one
 * job are serialised): the approval goes from `pending` to its decision once, and the decision that leaves no pending
 * call queues the job (or task) again, once.
 */
export function createApprovalApi(options: ApprovalApiOptions): ApprovalApi {
  const { driver, schema } = options;
  const select = `SELECT a.*, t.workflow_id, coalesce(j.title, w.title || ': ' || t.title) AS job_title FROM ${schema}.approval a
    LEFT JOIN ${schema}.job j ON j.id = a.job_id LEFT JOIN ${schema}.task t ON t.id = a.task_id LEFT JOIN ${schema}.workflow w ON w.id = t.workflow_id`;

  const get = async (input: { agentId: string; approvalId: string }): Promise<ApprovalRecord> => {
    const { agentId, approvalId } = parseInput(inputSchemas.approvalRef, input, 'approvals.get');
    if (!isUuid(approvalId)) throw new ControlPlaneNotFoundError('approval', approvalId);
    const { rows } = await driver.query<ApprovalRow>(`${select} WHERE a.id = $1 AND a.agent_id = $2`, [approvalId, agentId]);
    if (rows[0] === undefined) throw new ControlPlaneNotFoundError('approval', approvalId);
    return approvalRecord(rows[0]);
  };

  return {
    async list(input) {
      const { agentId, status, limit } = parseInput(inputSchemas.listApprovals, input, 'approvals.list');
      const { rows } = await driver.query<ApprovalRow>(
        `${select} WHERE a.agent_id = $1 AND a.status = ANY($3::text[]) ORDER BY a.created_at DESC, a.id LIMIT $2`,
        [agentId, limit ?? 50, status ?? ['pending']],
      );
      return rows.map(approvalRecord);
    },

    get,

    async decide(input) {
      const parsed = parseInput(inputSchemas.decideApproval, input, 'approvals.decide');
      const current = await get({ agentId: parsed.agentId, approvalId: parsed.approvalId });
      const decision = parsed.approved ? 'approved' : 'denied';
      const reason = parsed.approved || parsed.reason === undefined || parsed.reason === '' ? null : parsed.reason;
      const owner: ApprovalOwner = current.jobId !== null ? { kind: 'job', id: current.jobId } : { kind: 'task', id: current.taskId ?? '' };
      const column = ownerColumn(owner);
      const result = await driver.transaction(async (transaction) => {
        await transaction.query(`SELECT id FROM ${schema}.${owner.kind} WHERE id = $1 FOR UPDATE`, [owner.id]);
        const { rows } = await transaction.query<{ id: string }>(
          `UPDATE ${schema}.approval SET status = $2, reason = $3, decided_at = now() WHERE id = $1 AND status = 'pending' RETURNING id`,
          [current.id, decision, reason],
        );
        if (rows.length === 0) return 'unchanged' as const;
        const { rows: left } = await transaction.query<{ count: number }>(
          `SELECT count(*)::int AS count FROM ${schema}.approval WHERE ${column} = $1 AND status = 'pending'`,
          [owner.id],
        );
        if (Number(left[0]?.count ?? 0) === 0) {
          // awaiting_approval → queued: a job goes back into the turn queue; a task is claimed from its row.
          if (owner.kind === 'job') await resumeJob(transaction, { schema }, owner.id);
          else await resumeTask(transaction, { schema }, owner.id);
        }
        return 'decided' as const;
      });
      const stored = await get({ agentId: parsed.agentId, approvalId: parsed.approvalId });
      if (result === 'unchanged' && stored.status !== decision) {
        throw new ControlPlaneInputError(
          'approval_already_decided',
          stored.status === 'cancelled'
            ? `Approval ${stored.id} can no longer be decided: its ${stored.jobId === null ? 'task' : 'job'} was cancelled.`
            : `Approval ${stored.id} was already ${stored.status}${stored.reason === null ? '' : ` (${stored.reason})`}; a decision is applied once.`,
        );
      }
      return stored;
    },
  };
}

/**
 * Pauses a running job for approval (see `WorkApi.hold`): one transaction that moves the job to
 * `awaiting_approval` with its run state, adds a pending approval per held call, and takes the entry out of the
 * turn queue. Returns the job as stored (its holder asking again: unchanged).
 * @throws ControlPlaneConflictError (`lease_lost`) for any other lease.
 */
export async function holdJob(
  options: ApprovalApiOptions,
  input: { jobId: string; leaseToken: string; runState: unknown; calls: HeldCall[] },
): Promise<JobRecord> {
  const { driver, schema } = options;
  const { jobId, leaseToken, runState, calls } = parseInput(inputSchemas.hold, input, 'work.hold');
  if (!isUuid(jobId)) throw new ControlPlaneNotFoundError('job', jobId);
  return driver.transaction(async (transaction) => {
    if (isUuid(leaseToken)) {
      const paused = await pauseJob(transaction, { schema }, jobId, leaseToken, runState);
      if (paused !== undefined) {
        await addPendingApprovals(transaction, schema, { column: 'job_id', id: jobId }, paused.agent_id, calls);
        return jobRecord(paused);
      }
    }
    const { rows } = await transaction.query<JobRow>(`SELECT * FROM ${schema}.job WHERE id = $1`, [jobId]);
    if (rows[0] === undefined) throw new ControlPlaneNotFoundError('job', jobId);
    const lost = leaseConflict({ kind: 'job', id: jobId, title: rows[0].title }, rows[0], leaseToken);
    if (lost !== undefined) throw lost;
    return jobRecord(rows[0]);
  });
}

/**
 * Pauses a running workflow task for approval (see `TaskWorkApi.hold`): one transaction that moves the task to
 * `awaiting_approval` with its run state and adds a pending approval per held call. Returns the task as stored (its
 * holder asking again: unchanged).
 * @throws ControlPlaneConflictError (`lease_lost`) for any other lease.
 */
export async function holdTask(
  options: Pick<ApprovalApiOptions, 'driver' | 'schema'>,
  input: { taskId: string; leaseToken: string; runState: unknown; calls: HeldCall[] },
): Promise<TaskRecord> {
  const { driver, schema } = options;
  const { taskId, leaseToken, runState, calls } = parseInput(workflowInputSchemas.holdTask, input, 'tasks.hold');
  if (!isUuid(taskId)) throw new ControlPlaneNotFoundError('task', taskId);
  return driver.transaction(async (transaction) => {
    if (isUuid(leaseToken)) {
      const paused = await pauseTask(transaction, { schema }, taskId, leaseToken, runState);
      if (paused !== undefined) {
        await addPendingApprovals(transaction, schema, { column: 'task_id', id: taskId }, paused.agent_id, calls);
        return taskRecord(paused);
      }
    }
    const { rows } = await transaction.query<TaskRow>(`SELECT * FROM ${schema}.task WHERE id = $1`, [taskId]);
    if (rows[0] === undefined) throw new ControlPlaneNotFoundError('task', taskId);
    const lost = leaseConflict({ kind: 'task', id: taskId, title: rows[0].title }, rows[0], leaseToken);
    if (lost !== undefined) throw lost;
    return taskRecord(rows[0]);
  });
}

/**
 * The stored run state and decisions of a job or task resumed after approval (none when it never paused); each
 * approved call with its journal (started, output).
 */
export async function resumeOf(
  executor: SqlExecutor,
  schema: string,
  owner: ApprovalOwner,
): Promise<{ runState: unknown; decisions: Record<string, ApprovalDecisionRecord> } | undefined> {
  const { rows } = await executor.query<{ run_state: unknown }>(`SELECT run_state FROM ${schema}.${owner.kind} WHERE id = $1`, [owner.id]);
  const runState = rows[0]?.run_state;
  if (runState === null || runState === undefined) return undefined;
  const { rows: approvals } = await executor.query<{ call_id: string; status: string; reason: string | null; started_at: unknown; output: unknown }>(
    `SELECT call_id, status, reason, started_at, output FROM ${schema}.approval WHERE ${ownerColumn(owner)} = $1 AND status IN ('approved', 'denied')`,
    [owner.id],
  );
  const decisions: Record<string, ApprovalDecisionRecord> = {};
  for (const approval of approvals) {
    if (approval.status !== 'approved') {
      decisions[approval.call_id] = { approved: false, ...(approval.reason === null ? {} : { reason: approval.reason }) };
      continue;
    }
    const output = typeof approval.output === 'string' ? (JSON.parse(approval.output) as ApprovedCallOutput) : (approval.output as ApprovedCallOutput | null);
    decisions[approval.call_id] = {
      approved: true,
      ...(approval.started_at === null ? {} : { started: true }),
      ...(output === null || output === undefined ? {} : { output }),
    };
  }
  return { runState: typeof runState === 'string' ? (JSON.parse(runState) as unknown) : runState, decisions };
}

/** One pending approval per held call of a job or task (a call already pending is left as it is). */
async function addPendingApprovals(
  transaction: Parameters<Parameters<ApprovalApiOptions['driver']['transaction']>[0]>[0],
  schema: string,
  owner: { column: 'job_id' | 'task_id'; id: string },
  agentId: string,
  calls: HeldCall[],
): Promise<void> {
  for (const call of calls) {
    await transaction.query(
      `INSERT INTO ${schema}.approval (id, ${owner.column}, agent_id, call_id, tool_name, label, params, is_destructive)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8) ON CONFLICT (${owner.column}, call_id) DO NOTHING`,
      [randomUUID(), owner.id, agentId, call.callId, call.toolName, call.label, JSON.stringify(call.params ?? null), call.isDestructive ?? false],
    );
  }
}
