export { createControlPlane } from './create-control-plane.js';
export type { ControlPlane, ControlPlaneOptions } from './create-control-plane.js';
export type {
  BrainApi,
  BrainPage,
  BrainPageSlice,
  BrainPageSummary,
  ImportPageInput,
  ImportPagesResult,
  RecallHit,
  RecallMode,
  RecallResult,
} from './brain-client.js';
export { MAX_BRAIN_IMPORT_PAGES, MAX_BRAIN_PAGE_CHARS, MAX_BRAIN_TITLE_CHARS } from './brain-input-schemas.js';
export type {
  ApprovalApi,
  ApprovalDecisionRecord,
  ApprovedCallOutput,
  ApprovedCallRef,
  ApprovedCallStart,
  ApprovalRecord,
  CallOptions,
  ClaimedJob,
  HeldCall,
  ControlPlaneClient,
  CreateScheduleInput,
  HeartbeatResult,
  JobApi,
  JobRecord,
  JobStatus,
  ScheduleApi,
  ScheduleRecord,
  ScheduleStatus,
  StartJobInput,
  WorkApi,
} from './control-plane-client.js';
export { ControlPlaneConflictError, ControlPlaneFailure, ControlPlaneInputError, ControlPlaneNotFoundError, ControlPlaneOutputError, isLeaseLost } from './errors.js';
export { outputPath, parseOutput } from './parse-output.js';
export { findTooDeep, MAX_INPUT_DEPTH, MAX_OUTPUT_DEPTH } from './json-depth.js';
export { RECORD_SCHEMAS } from './record-schemas.js';
export { createHttpControlPlaneClient } from './http-control-plane-client.js';
export type { HttpControlPlaneClient, HttpControlPlaneClientOptions } from './http-control-plane-client.js';
export { RPC_METHODS, rpcMethod } from './rpc-methods.js';
export type { RpcMethod, RpcMethodName } from './rpc-methods.js';
export { errorFromWire, errorToWire } from './wire-error.js';
export type { WireError } from './wire-error.js';
export { parseInput } from './input-schemas.js';
export { findUnstorableText, replaceUnstorableText } from './unstorable-text.js';
export type { UnstorableText } from './unstorable-text.js';
export type {
  AdvanceApi,
  AdvanceReport,
  ClaimedTask,
  JsonObject,
  JsonValue,
  ResultSchemaProblem,
  StartWorkflowInput,
  SubmitTaskResultOutcome,
  TaskRecord,
  TaskStatus,
  TaskWorkApi,
  WorkflowApi,
  WorkflowDetails,
  WorkflowLogLine,
  WorkflowRecord,
  WorkflowStatus,
} from './workflow-client.js';
export { DEFAULT_WORKFLOW_LIMITS } from './workflow-limits.js';
export { DEFAULT_TRANSCRIPT_LIMITS } from './transcript-client.js';
export type { TranscriptApi, TranscriptAppendResult, TranscriptAttempt, TranscriptEntry, TranscriptLimits, TranscriptRecord } from './transcript-client.js';
export { MAX_TRANSCRIPT_BATCH } from './transcript-input-schemas.js';
export type { WorkflowLimits } from './workflow-limits.js';
export { watchTaskLease } from './watch-task-lease.js';
export type { TaskLease, WatchTaskLeaseOptions } from './watch-task-lease.js';
export { createPostgresDriver } from './postgres-driver.js';
export type { PostgresDriverOptions } from './postgres-driver.js';
export { createPGliteDriver } from './pglite-driver.js';
export type { PGliteDriverOptions } from './pglite-driver.js';
export type { SqlDriver, SqlExecutor, SqlResult } from './sql-driver.js';
export { defaultDataDir } from './default-data-dir.js';
export { migrate, MIGRATIONS } from './migrations.js';
export type { Migration } from './migrations.js';
export { describeCron, planCronSchedule, planOneTimeSchedule } from './schedule-timing.js';
export type { CronPlanOptions, OneTimePlanOptions, ScheduleTiming } from './schedule-timing.js';
export { watchJobLease } from './watch-job-lease.js';
export type { JobLease, WatchJobLeaseOptions } from './watch-job-lease.js';
export { refusalToolResult } from './refusal-tool-result.js';
