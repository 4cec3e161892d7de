import { z } from 'zod';
import type { BrainPage, BrainPageSlice, BrainPageSummary, ImportPagesResult, RecallResult } from './brain-client.js';
import type { ApprovalRecord, ClaimedJob, HeartbeatResult, JobRecord, ScheduleRecord } from './control-plane-client.js';
import type { SameShape } from './same-shape.js';
import type { AdvanceReport, ClaimedTask, SubmitTaskResultOutcome, TaskRecord, WorkflowDetails, WorkflowRecord } from './workflow-client.js';

/**
 * The wire form of times: an ISO 8601 UTC date-time string as `Date.prototype.toISOString()` writes it
 * (`2026-12-01T08:00:00.000Z`). Records never carry a `Date` or a `bigint`: the record builders turn driver
 * timestamps into these strings (`isoTime`) and counts into numbers (`Number(...)`), so a result is plain JSON data
 * in process and over HTTP alike.
 */
const time = z.iso.datetime();
/** A count or a position: a safe integer, never a `bigint` (PostgreSQL's `bigint` arrives as a string and is converted). */
const count = z.number().int().min(0);

/** Any JSON value (a workflow's input and result, a task's result). */
export const jsonValueSchema = z.json();
/** A JSON object. */
export const jsonObjectSchema = z.record(z.string(), jsonValueSchema);

const jobStatus = z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled', 'awaiting_approval']);

export const scheduleRecordSchema = z.object({
  id: z.string(),
  agentId: z.string(),
  title: z.string(),
  prompt: z.string(),
  home: z.string().nullable().default(null),
  kind: z.enum(['cron', 'once']),
  cron: z.string().nullable(),
  timeZone: z.string().nullable(),
  runAt: time.nullable(),
  status: z.enum(['active', 'cancelled', 'completed']),
  description: z.string(),
  nextRunTimes: z.array(time),
  lastFiredAt: time.nullable(),
  fireCount: count,
  createdAt: time,
  updatedAt: time,
});

export const jobRecordSchema = z.object({
  id: z.string(),
  agentId: z.string(),
  kind: z.enum(['background', 'scheduled']),
  scheduleId: z.string().nullable(),
  fireAt: time.nullable(),
  title: z.string(),
  prompt: z.string(),
  home: z.string().nullable().default(null),
  allowJobs: z.boolean(),
  status: jobStatus,
  finalAnswer: z.string().nullable(),
  error: z.string().nullable(),
  attempts: count,
  workerId: z.string().nullable(),
  createdAt: time,
  startedAt: time.nullable(),
  finishedAt: time.nullable(),
  updatedAt: time,
});

export const approvedCallOutputSchema = z.object({ content: z.unknown(), isError: z.boolean().optional(), terminateTurn: z.boolean().optional() });

export const approvalDecisionSchema = z.union([
  z.object({ approved: z.literal(true), started: z.boolean().optional(), output: approvedCallOutputSchema.optional() }),
  z.object({ approved: z.literal(false), reason: z.string().optional() }),
]);

export const approvedCallStartSchema = z.object({ run: z.boolean() });

export const approvedCallRecordedSchema = z.object({ recorded: z.boolean() });

export const claimedJobSchema = jobRecordSchema.extend({
  leaseToken: z.string(),
  resume: z.object({ runState: z.unknown(), decisions: z.record(z.string(), approvalDecisionSchema) }).optional(),
});

export const approvalRecordSchema = z.object({
  id: z.string(),
  jobId: z.string().nullable(),
  taskId: z.string().nullable(),
  workflowId: z.string().nullable(),
  agentId: z.string(),
  callId: z.string(),
  toolName: z.string(),
  label: z.string(),
  params: z.unknown(),
  isDestructive: z.boolean(),
  status: z.enum(['pending', 'approved', 'denied', 'cancelled']),
  reason: z.string().nullable(),
  jobTitle: z.string(),
  createdAt: time,
  decidedAt: time.nullable(),
});

export const heartbeatResultSchema = z.object({ keepRunning: z.boolean(), status: jobStatus, finishedByThisLease: z.boolean().optional() });

const workflowStatus = z.enum(['running', 'succeeded', 'failed', 'cancelled']);

export const workflowRecordSchema = z.object({
  id: z.string(),
  agentId: z.string(),
  title: z.string(),
  status: workflowStatus,
  input: jsonValueSchema,
  result: jsonValueSchema.nullable(),
  error: z.string().nullable(),
  notifyOnFinish: z.boolean(),
  replays: count,
  taskCount: count,
  createdAt: time,
  updatedAt: time,
  finishedAt: time.nullable(),
});

export const taskRecordSchema = z.object({
  id: z.string(),
  workflowId: z.string(),
  agentId: z.string(),
  sequence: count,
  title: z.string(),
  prompt: z.string(),
  resultSchema: jsonObjectSchema,
  status: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled', 'awaiting_approval']),
  result: jsonObjectSchema.nullable(),
  error: z.string().nullable(),
  attempts: count,
  workerId: z.string().nullable(),
  createdAt: time,
  startedAt: time.nullable(),
  finishedAt: time.nullable(),
});

export const workflowDetailsSchema = workflowRecordSchema.extend({
  script: z.string(),
  log: z.array(z.object({ at: time, text: z.string() })),
  tasks: z.array(taskRecordSchema),
});

export const claimedTaskSchema = taskRecordSchema.extend({
  leaseToken: z.string(),
  workflowTitle: z.string(),
  resume: z.object({ runState: z.unknown(), decisions: z.record(z.string(), approvalDecisionSchema) }).optional(),
});

export const submitTaskResultOutcomeSchema = z.union([
  z.object({ accepted: z.literal(true), task: taskRecordSchema }),
  z.object({ accepted: z.literal(false), errors: z.array(z.object({ path: z.string(), message: z.string() })) }),
]);

export const advanceReportSchema = z.object({
  workflowId: z.string(),
  agentId: z.string(),
  status: workflowStatus,
  newTasks: count,
  durationMs: z.number().min(0),
});

export const brainPageSummarySchema = z.object({ id: z.string(), title: z.string(), size: count, createdAt: time, updatedAt: time });

export const brainPageSchema = z.object({
  id: z.string(),
  agentId: z.string(),
  title: z.string(),
  body: z.string(),
  size: count,
  createdAt: time,
  updatedAt: time,
});

export const brainPageSliceSchema = brainPageSummarySchema.extend({ text: z.string(), offset: count, nextOffset: count.nullable() });

export const brainPageListSchema = z.object({ pages: z.array(brainPageSummarySchema), total: count });

export const recallResultSchema = z.object({
  query: z.string(),
  mode: z.enum(['all-words', 'any-word', 'prefix', 'substring']),
  hits: z.array(z.object({ id: z.string(), title: z.string(), snippet: z.string(), rank: z.number(), size: count, updatedAt: time })),
});

export const importPagesResultSchema = z.object({ created: count, updated: count, unchanged: count });

/**
 * The results' schemas by the name the OpenAPI document gives them (`#/components/schemas/<name>`); every
 * `RPC_METHODS` output is built from these.
 */
export const RECORD_SCHEMAS = {
  JsonValue: jsonValueSchema,
  ScheduleRecord: scheduleRecordSchema,
  JobRecord: jobRecordSchema,
  ClaimedJob: claimedJobSchema,
  ApprovalRecord: approvalRecordSchema,
  HeartbeatResult: heartbeatResultSchema,
  WorkflowRecord: workflowRecordSchema,
  WorkflowDetails: workflowDetailsSchema,
  TaskRecord: taskRecordSchema,
  ClaimedTask: claimedTaskSchema,
  SubmitTaskResultOutcome: submitTaskResultOutcomeSchema,
  AdvanceReport: advanceReportSchema,
  BrainPage: brainPageSchema,
  BrainPageSummary: brainPageSummarySchema,
  BrainPageSlice: brainPageSliceSchema,
  RecallResult: recallResultSchema,
  ImportPagesResult: importPagesResultSchema,
} as const satisfies Record<string, z.ZodType>;

/** The TypeScript type each record schema stands for. */
interface RecordTypes {
  ScheduleRecord: ScheduleRecord;
  JobRecord: JobRecord;
  ClaimedJob: ClaimedJob;
  ApprovalRecord: ApprovalRecord;
  HeartbeatResult: HeartbeatResult;
  WorkflowRecord: WorkflowRecord;
  WorkflowDetails: WorkflowDetails;
  TaskRecord: TaskRecord;
  ClaimedTask: ClaimedTask;
  SubmitTaskResultOutcome: SubmitTaskResultOutcome;
  AdvanceReport: AdvanceReport;
  BrainPage: BrainPage;
  BrainPageSummary: BrainPageSummary;
  BrainPageSlice: BrainPageSlice;
  RecallResult: RecallResult;
  ImportPagesResult: ImportPagesResult;
}
/** The records whose schema and TypeScript type differ (`never` when they all agree). */
type RecordMismatch = {
  [K in keyof RecordTypes]: SameShape<z.output<(typeof RECORD_SCHEMAS)[K]>, RecordTypes[K]> extends true ? never : K;
}[keyof RecordTypes];
/** Does not compile when a record schema and its interface differ: the error says "property '<record>' is missing". */
const RECORD_SCHEMAS_MATCH_THEIR_TYPES: { [K in RecordMismatch]: 'its schema and its interface differ' } = {};
void RECORD_SCHEMAS_MATCH_THEIR_TYPES;
