import { isoTime } from './records.js';
import type { JournaledTask } from './workflow-sandbox.js';
import type {
  JsonObject,
  JsonValue,
  TaskRecord,
  TaskStatus,
  WorkflowDetails,
  WorkflowLogLine,
  WorkflowRecord,
  WorkflowStatus,
} from '@core/control-plane-client';

/** A `workflow` row as the database returns it. */
export interface WorkflowRow {
  id: string;
  agent_id: string;
  title: string;
  script: string;
  input: JsonValue;
  status: WorkflowStatus;
  result: JsonValue | null;
  error: string | null;
  log: WorkflowLogLine[];
  notify_on_finish: boolean;
  seed: number;
  replays: number;
  task_count: number;
  settled_count: number;
  advance_requested: number;
  advance_done: number;
  advance_token: string | null;
  advance_claimed_at: Date | string | null;
  advance_attempts: number;
  created_at: Date | string;
  updated_at: Date | string;
  finished_at: Date | string | null;
}

/** A `task` row as the database returns it. */
export interface TaskRow {
  id: string;
  workflow_id: string;
  agent_id: string;
  sequence: number;
  title: string;
  prompt: string;
  result_schema: JsonObject;
  status: TaskStatus;
  result: JsonObject | null;
  error: string | null;
  attempts: number;
  worker_id: string | null;
  lease_token: string | null;
  /** The lease of the claim that settled it (succeeded or failed by its worker). */
  settled_by?: string | null;
  heartbeat_at: Date | string | null;
  settled_order: number | null;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  updated_at: Date | string;
}

/** A workflow row as the record the API returns. */
export function workflowRecord(row: WorkflowRow): WorkflowRecord {
  return {
    id: row.id,
    agentId: row.agent_id,
    title: row.title,
    status: row.status,
    input: row.input,
    result: row.result ?? null,
    error: row.error,
    notifyOnFinish: row.notify_on_finish,
    replays: Number(row.replays),
    taskCount: Number(row.task_count),
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
    finishedAt: isoTime(row.finished_at),
  };
}

/** A workflow row and its task rows as the details the API returns. */
export function workflowDetails(row: WorkflowRow, tasks: readonly TaskRow[]): WorkflowDetails {
  return { ...workflowRecord(row), script: row.script, log: row.log, tasks: tasks.map(taskRecord) };
}

/** A task row as the record the API returns. */
export function taskRecord(row: TaskRow): TaskRecord {
  return {
    id: row.id,
    workflowId: row.workflow_id,
    agentId: row.agent_id,
    sequence: Number(row.sequence),
    title: row.title,
    prompt: row.prompt,
    resultSchema: row.result_schema,
    status: row.status,
    result: row.result ?? null,
    error: row.error,
    attempts: Number(row.attempts),
    workerId: row.worker_id,
    createdAt: isoTime(row.created_at),
    startedAt: isoTime(row.started_at),
    finishedAt: isoTime(row.finished_at),
  };
}

/** A task row as the journal entry a replay reads. */
export function journaledTask(row: TaskRow): JournaledTask {
  return {
    sequence: Number(row.sequence),
    title: row.title,
    prompt: row.prompt,
    resultSchema: row.result_schema,
    status: row.status,
    result: row.result ?? null,
    error: row.error,
    settledOrder: row.settled_order === null ? null : Number(row.settled_order),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at).getTime(),
  };
}
