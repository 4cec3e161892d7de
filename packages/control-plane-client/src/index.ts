// The contract of the Ankole control plane: what a client (a tool, a worker, a command) needs to call one, whichever
// transport it uses. `@core/control-plane` is the engine (PostgreSQL, queue, workflows) and depends on this package;
// `@core/control-plane-http` serves it over HTTP and `createHttpControlPlaneClient` below calls it there.
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
export { brainInputSchemas, MAX_BRAIN_IMPORT_PAGES, MAX_BRAIN_PAGE_CHARS, MAX_BRAIN_TITLE_CHARS } from './brain-input-schemas.js';
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
export { inputSchemas, isUuid, parseInput } from './input-schemas.js';
export { findUnstorableText, formatPath, replaceUnstorableText } from './unstorable-text.js';
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
export { workflowInputSchemas } from './workflow-input-schemas.js';
export { checkWorkflowLimits, DEFAULT_WORKFLOW_LIMITS } from './workflow-limits.js';
export type { WorkflowLimits } from './workflow-limits.js';
export { DEFAULT_TRANSCRIPT_LIMITS } from './transcript-client.js';
export type { TranscriptApi, TranscriptAppendResult, TranscriptAttempt, TranscriptEntry, TranscriptLimits, TranscriptRecord } from './transcript-client.js';
export { MAX_TRANSCRIPT_BATCH, transcriptInputSchemas } from './transcript-input-schemas.js';
export { watchTaskLease } from './watch-task-lease.js';
export type { TaskLease, WatchTaskLeaseOptions } from './watch-task-lease.js';
export { watchJobLease } from './watch-job-lease.js';
export type { JobLease, WatchJobLeaseOptions } from './watch-job-lease.js';
export { CHANGE_KINDS } from './control-plane-changes.js';
export type { ControlPlaneChange, ControlPlaneChangeEvent, ControlPlaneChanges } from './control-plane-changes.js';
