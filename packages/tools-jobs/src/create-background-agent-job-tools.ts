import type { ControlPlaneClient, JobRecord } from '@core/control-plane-client';
import { activityLabel, defineWorkerTool, refusalToolResult, type AnyWorkerAgentTool } from '@core/runtime';
import { z } from 'zod';
import { formatJob } from './format-job.js';

/** What the job tools are built from. */
export interface BackgroundAgentJobToolsContext {
  /** The control plane (in process or remote); only `jobs` is used. */
  client: Pick<ControlPlaneClient, 'jobs'>;
  /** The agent whose jobs these are; every call carries it. */
  agentId: string;
  /** Whether this turn may start jobs. A background job's own turn may not (no unbounded fan-out). */
  allowJobs: boolean;
}

/** The job's record, in `details`. */
export interface BackgroundAgentJobToolDetails {
  job?: JobRecord;
  jobs?: JobRecord[];
  code?: string;
}

const startSchema = z.object({
  prompt: z.string().describe('Everything the background turn needs to know: it starts fresh, without this conversation.'),
  title: z.string().optional().describe('A short name for the job.'),
});
const jobRefSchema = z.object({ jobId: z.string().describe('The id from start_background_job or list_background_jobs.') });
const listSchema = z.object({
  status: z
    .array(z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']))
    .optional()
    .describe('Only jobs with these statuses (default: all).'),
  limit: z.number().int().min(1).max(100).optional().describe('Most jobs to list, newest first (default 20).'),
});

/**
 * Creates `start_background_job`, `get_background_job`, `list_background_jobs` and
 * `cancel_background_job` for one agent — or `[]` when the turn does not allow creating jobs. A job
 * is an agent turn some worker runs later; its status and final answer are stored by the control plane.
 */
export function createBackgroundAgentJobTools(context: BackgroundAgentJobToolsContext): AnyWorkerAgentTool[] {
  if (!context.allowJobs) return [];
  const { client, agentId } = context;
  return [
    defineWorkerTool<typeof startSchema, BackgroundAgentJobToolDetails>({
      name: 'start_background_job',
      description:
        'Start a background job: a separate agent turn that a worker runs later with the given prompt, while you go on. ' +
        'Use it for long work whose result you do not need right now. Returns the job id; check it with get_background_job.',
      schema: startSchema,
      executionMode: 'sequential',
      describeActivity: (params) => `Starting background job "${activityLabel(params.title ?? params.prompt)}"`,
      describeCompletedActivity: (params, result) =>
        result.isError === true ? `Could not start "${activityLabel(params.title ?? params.prompt)}"` : `Started background job "${activityLabel(params.title ?? params.prompt)}"`,
      async execute(params) {
        try {
          const job = await client.jobs.start({ agentId, ...params });
          return {
            content: `Background job started (it runs later as a separate turn; check it with get_background_job):\n${formatJob(job)}`,
            details: { job },
          };
        } catch (error) {
          return refusalToolResult(error, 'start the background job');
        }
      },
    }),
    defineWorkerTool<typeof jobRefSchema, BackgroundAgentJobToolDetails>({
      name: 'get_background_job',
      description: "Get one of your background jobs: its status (queued, running, succeeded, failed, cancelled) and, once finished, its final answer or error.",
      schema: jobRefSchema,
      executionMode: 'parallel',
      isReadOnly: true,
      describeActivity: (params) => `Checking background job ${params.jobId}`,
      describeCompletedActivity: (params, result) =>
        result.isError === true ? `No background job ${params.jobId}` : `Background job "${activityLabel(result.details?.job?.title ?? params.jobId)}" is ${result.details?.job?.status}`,
      async execute(params) {
        try {
          const job = await client.jobs.get({ agentId, jobId: params.jobId });
          return { content: formatJob(job, { full: true }), details: { job } };
        } catch (error) {
          return refusalToolResult(error, 'get the background job');
        }
      },
    }),
    defineWorkerTool<typeof listSchema, BackgroundAgentJobToolDetails>({
      name: 'list_background_jobs',
      description: 'List your background jobs, newest first, with their status.',
      schema: listSchema,
      executionMode: 'parallel',
      isReadOnly: true,
      describeActivity: () => 'Listing background jobs',
      describeCompletedActivity: (_params, result) => `Listed ${result.details?.jobs?.length ?? 0} background job(s)`,
      async execute(params) {
        try {
          const jobs = await client.jobs.list({ agentId, status: params.status, limit: params.limit ?? 20 });
          const content = jobs.length === 0 ? 'No background jobs.' : `${jobs.length} background job(s):\n${jobs.map((job) => formatJob(job)).join('\n')}`;
          return { content, details: { jobs } };
        } catch (error) {
          return refusalToolResult(error, 'list the background jobs');
        }
      },
    }),
    defineWorkerTool<typeof jobRefSchema, BackgroundAgentJobToolDetails>({
      name: 'cancel_background_job',
      description: 'Cancel one of your background jobs: a queued one never runs, a running one is stopped within seconds.',
      schema: jobRefSchema,
      executionMode: 'sequential',
      isDestructive: true,
      describeActivity: (params) => `Cancelling background job ${params.jobId}`,
      describeCompletedActivity: (params, result) =>
        result.isError === true ? `Could not cancel background job ${params.jobId}` : `Cancelled "${activityLabel(result.details?.job?.title ?? params.jobId)}"`,
      async execute(params) {
        try {
          const before = await client.jobs.get({ agentId, jobId: params.jobId });
          if (before.status !== 'queued' && before.status !== 'running') {
            return { content: `The job already finished (${before.status}); nothing changed:\n${formatJob(before)}`, details: { job: before } };
          }
          const job = await client.jobs.cancel({ agentId, jobId: params.jobId });
          return { content: `Background job cancelled:\n${formatJob(job)}`, details: { job } };
        } catch (error) {
          return refusalToolResult(error, 'cancel the background job');
        }
      },
    }),
  ];
}
