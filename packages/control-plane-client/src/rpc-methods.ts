import { z } from 'zod';
import { brainInputSchemas } from './brain-input-schemas.js';
import type { ControlPlaneClient } from './control-plane-client.js';
import { inputSchemas } from './input-schemas.js';
import { transcriptInputSchemas, transcriptOutputSchemas } from './transcript-input-schemas.js';
import * as R from './record-schemas.js';
import type { SameShape } from './same-shape.js';
import { workflowInputSchemas } from './workflow-input-schemas.js';

/** How one `ControlPlaneClient` call travels over HTTP (`POST /v1/<api>/<method>`). */
export interface RpcMethod {
  /** The input schema both sides parse with (the in-process call parses with the same one). */
  readonly input: z.ZodType;
  /**
   * The result's schema: the server checks every result with it before sending (a mismatch is a `500 internal_error`)
   * and the HTTP client checks what it receives (`ControlPlaneOutputError`). Built from `RECORD_SCHEMAS`.
   */
  readonly output: z.ZodType;
  /**
   * `agent`: the input names an `agentId` and an agent-scoped token may make the call for its own agent;
   * `work`: a worker's call (claims, heartbeats, results), for worker tokens only.
   */
  readonly scope: 'agent' | 'work';
  /**
   * Whether repeating the call after a lost answer is harmless (a read, a cancel, or a call guarded by a
   * lease token), so a client may retry it after a server error or a dropped connection.
   */
  readonly retrySafe: boolean;
}

const agent = <TOutput extends z.ZodType>(input: z.ZodType, output: TOutput, retrySafe: boolean) => ({ input, output, scope: 'agent' as const, retrySafe });
const work = <TOutput extends z.ZodType>(input: z.ZodType, output: TOutput, retrySafe: boolean) => ({ input, output, scope: 'work' as const, retrySafe });

/**
 * Every `ControlPlaneClient` call by its name (`<api>.<method>`, the name its input errors use), with its
 * input schema, scope and whether it may be retried: the one table the HTTP server and client share.
 */
export const RPC_METHODS = {
  'schedules.create': agent(inputSchemas.createSchedule, R.scheduleRecordSchema, false),
  'schedules.list': agent(inputSchemas.listSchedules, z.array(R.scheduleRecordSchema), true),
  'schedules.get': agent(inputSchemas.scheduleRef, R.scheduleRecordSchema, true),
  'schedules.cancel': agent(inputSchemas.scheduleRef, R.scheduleRecordSchema, true),
  'jobs.start': agent(inputSchemas.startJob, R.jobRecordSchema, false),
  'jobs.get': agent(inputSchemas.jobRef, R.jobRecordSchema, true),
  'jobs.list': agent(inputSchemas.listJobs, z.array(R.jobRecordSchema), true),
  'jobs.cancel': agent(inputSchemas.jobRef, R.jobRecordSchema, true),
  'work.claim': work(inputSchemas.claim, R.claimedJobSchema.nullable(), false),
  'work.heartbeat': work(inputSchemas.heartbeat, R.heartbeatResultSchema, true),
  'work.complete': work(inputSchemas.complete, R.jobRecordSchema, true),
  'work.fail': work(inputSchemas.fail, R.jobRecordSchema, true),
  'work.release': work(inputSchemas.lease, R.jobRecordSchema, true),
  'work.hold': work(inputSchemas.hold, R.jobRecordSchema, true),
  'work.startApprovedCall': work(inputSchemas.approvedCall, R.approvedCallStartSchema, true),
  'work.finishApprovedCall': work(inputSchemas.approvedCallOutput, R.approvedCallRecordedSchema, true),
  'approvals.list': agent(inputSchemas.listApprovals, z.array(R.approvalRecordSchema), true),
  'approvals.get': agent(inputSchemas.approvalRef, R.approvalRecordSchema, true),
  'approvals.decide': agent(inputSchemas.decideApproval, R.approvalRecordSchema, true),
  'workflows.start': agent(workflowInputSchemas.startWorkflow, R.workflowRecordSchema, false),
  'workflows.get': agent(workflowInputSchemas.workflowRef, R.workflowDetailsSchema, true),
  'workflows.list': agent(workflowInputSchemas.listWorkflows, z.array(R.workflowRecordSchema), true),
  'workflows.cancel': agent(workflowInputSchemas.workflowRef, R.workflowRecordSchema, true),
  'tasks.claim': work(workflowInputSchemas.claimTask, R.claimedTaskSchema.nullable(), false),
  'tasks.heartbeat': work(workflowInputSchemas.taskHeartbeat, R.heartbeatResultSchema, true),
  'tasks.submit': work(workflowInputSchemas.submitTask, R.submitTaskResultOutcomeSchema, false),
  'tasks.fail': work(workflowInputSchemas.failTask, R.taskRecordSchema, true),
  'tasks.release': work(workflowInputSchemas.taskLease, R.taskRecordSchema, true),
  'tasks.hold': work(workflowInputSchemas.holdTask, R.taskRecordSchema, true),
  'tasks.startApprovedCall': work(workflowInputSchemas.approvedTaskCall, R.approvedCallStartSchema, true),
  'tasks.finishApprovedCall': work(workflowInputSchemas.approvedTaskCallOutput, R.approvedCallRecordedSchema, true),
  'advances.runNext': work(workflowInputSchemas.runAdvance, R.advanceReportSchema.nullable(), false),
  'brain.createPage': agent(brainInputSchemas.createPage, R.brainPageSchema, false),
  'brain.updatePage': agent(brainInputSchemas.updatePage, R.brainPageSchema, false),
  'brain.deletePage': agent(brainInputSchemas.pageRef, R.brainPageSummarySchema, false),
  'brain.getPage': agent(brainInputSchemas.getPage, R.brainPageSliceSchema, true),
  'brain.listPages': agent(brainInputSchemas.listPages, R.brainPageListSchema, true),
  'brain.recall': agent(brainInputSchemas.recall, R.recallResultSchema, true),
  'brain.importPages': agent(brainInputSchemas.importPages, R.importPagesResultSchema, false),
  'transcripts.append': work(transcriptInputSchemas.append, transcriptOutputSchemas.append, true),
  'transcripts.get': agent(transcriptInputSchemas.get, transcriptOutputSchemas.get, true),
} as const satisfies Record<string, RpcMethod>;

/** A call's name, `<api>.<method>`. */
export type RpcMethodName = keyof typeof RPC_METHODS;

/** What `ControlPlaneClient`'s call `name` resolves to. */
type ClientResult<TName extends string> = TName extends `${infer TApi}.${infer TMethod}`
  ? TApi extends keyof ControlPlaneClient
    ? TMethod extends keyof ControlPlaneClient[TApi]
      ? ControlPlaneClient[TApi][TMethod] extends (...args: never[]) => Promise<infer TResult>
        ? TResult
        : never
      : never
    : never
  : never;
/** The calls whose output schema does not describe what the client's method returns (`never` when they all agree). */
type OutputMismatch = { [N in RpcMethodName]: SameShape<z.output<(typeof RPC_METHODS)[N]['output']>, ClientResult<N>> extends true ? never : N }[RpcMethodName];
/** Does not compile when an output schema and the TypeScript result of its call differ: the error says "property '<call>' is missing". */
const OUTPUT_SCHEMAS_MATCH_THE_CLIENT: { [N in OutputMismatch]: 'its output schema and its result type differ' } = {};
void OUTPUT_SCHEMAS_MATCH_THE_CLIENT;

/** The table's entry for `name`, or `undefined` for a name that is not a call. */
export function rpcMethod(name: string): RpcMethod | undefined {
  return Object.hasOwn(RPC_METHODS, name) ? RPC_METHODS[name as RpcMethodName] : undefined;
}
