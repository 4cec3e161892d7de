import type { z } from 'zod';
import { brainInputSchemas } from './brain-input-schemas.js';
import { inputSchemas } from './input-schemas.js';
import { transcriptInputSchemas } from './transcript-input-schemas.js';
import { workflowInputSchemas } from './workflow-input-schemas.js';

/** How one `ControlPlaneClient` call travels over HTTP (`POST /v1/<api>/<method>`). */
export interface RpcMethod {
  /** The input schema both sides parse with (the in-process call parses with the same one). */
  readonly input: z.ZodType;
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

const agent = (input: z.ZodType, retrySafe: boolean): RpcMethod => ({ input, scope: 'agent', retrySafe });
const work = (input: z.ZodType, retrySafe: boolean): RpcMethod => ({ input, scope: 'work', retrySafe });

/**
 * Every `ControlPlaneClient` call by its name (`<api>.<method>`, the name its input errors use), with its
 * input schema, scope and whether it may be retried: the one table the HTTP server and client share.
 */
export const RPC_METHODS = {
  'schedules.create': agent(inputSchemas.createSchedule, false),
  'schedules.list': agent(inputSchemas.listSchedules, true),
  'schedules.get': agent(inputSchemas.scheduleRef, true),
  'schedules.cancel': agent(inputSchemas.scheduleRef, true),
  'jobs.start': agent(inputSchemas.startJob, false),
  'jobs.get': agent(inputSchemas.jobRef, true),
  'jobs.list': agent(inputSchemas.listJobs, true),
  'jobs.cancel': agent(inputSchemas.jobRef, true),
  'work.claim': work(inputSchemas.claim, false),
  'work.heartbeat': work(inputSchemas.lease, true),
  'work.complete': work(inputSchemas.complete, true),
  'work.fail': work(inputSchemas.fail, true),
  'work.release': work(inputSchemas.lease, true),
  'work.hold': work(inputSchemas.hold, true),
  'approvals.list': agent(inputSchemas.listApprovals, true),
  'approvals.get': agent(inputSchemas.approvalRef, true),
  'approvals.decide': agent(inputSchemas.decideApproval, true),
  'workflows.start': agent(workflowInputSchemas.startWorkflow, false),
  'workflows.get': agent(workflowInputSchemas.workflowRef, true),
  'workflows.list': agent(workflowInputSchemas.listWorkflows, true),
  'workflows.cancel': agent(workflowInputSchemas.workflowRef, true),
  'tasks.claim': work(workflowInputSchemas.claimTask, false),
  'tasks.heartbeat': work(workflowInputSchemas.taskLease, true),
  'tasks.submit': work(workflowInputSchemas.submitTask, false),
  'tasks.fail': work(workflowInputSchemas.failTask, true),
  'tasks.release': work(workflowInputSchemas.taskLease, true),
  'advances.runNext': work(workflowInputSchemas.runAdvance, false),
  'brain.createPage': agent(brainInputSchemas.createPage, false),
  'brain.updatePage': agent(brainInputSchemas.updatePage, false),
  'brain.deletePage': agent(brainInputSchemas.pageRef, false),
  'brain.getPage': agent(brainInputSchemas.getPage, true),
  'brain.listPages': agent(brainInputSchemas.listPages, true),
  'brain.recall': agent(brainInputSchemas.recall, true),
  'brain.importPages': agent(brainInputSchemas.importPages, false),
  'transcripts.append': work(transcriptInputSchemas.append, true),
  'transcripts.get': agent(transcriptInputSchemas.get, true),
} as const satisfies Record<string, RpcMethod>;

/** A call's name, `<api>.<method>`. */
export type RpcMethodName = keyof typeof RPC_METHODS;

/** The table's entry for `name`, or `undefined` for a name that is not a call. */
export function rpcMethod(name: string): RpcMethod | undefined {
  return Object.hasOwn(RPC_METHODS, name) ? RPC_METHODS[name as RpcMethodName] : undefined;
}
