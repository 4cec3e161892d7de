import type { ControlPlaneClient, JsonValue, WorkflowDetails, WorkflowRecord } from '@core/control-plane-client';
import { activityLabel, defineWorkerTool, refusalToolResult, type AnyWorkerAgentTool } from '@core/runtime';
import { z } from 'zod';
import { formatWorkflow, formatWorkflowDetails } from './format-workflow.js';
import { WORKFLOW_SCRIPT_GUIDE } from './workflow-script-guide.js';

/** What the workflow tools are built from. */
export interface WorkflowToolsContext {
  /** The control plane (in process or remote); only `workflows` is used. */
  client: Pick<ControlPlaneClient, 'workflows'>;
  /** The agent whose workflows these are; every call carries it. */
  agentId: string;
}

/** The workflow record(s) of a call, in `details` (never sent to the model). */
export interface WorkflowToolDetails {
  workflow?: WorkflowRecord | WorkflowDetails;
  workflows?: WorkflowRecord[];
  code?: string;
}

const startSchema = z.object({
  title: z.string().min(1).describe('A short name for the workflow.'),
  script: z.string().min(1).describe('The JavaScript body of the workflow (see the tool description for the API).'),
  input: z.unknown().optional().describe('Any JSON value (object, list, string, ...): the script reads it as `input`. Default null.'),
  notifyOnFinish: z
    .boolean()
    .optional()
    .describe('When true, you get a new turn with the outcome once the workflow finishes, so you need not poll (default false).'),
});
const workflowRefSchema = z.object({ workflowId: z.string().describe('The id from workflow or list_workflows.') });
const listSchema = z.object({
  status: z
    .array(z.enum(['running', 'succeeded', 'failed', 'cancelled']))
    .optional()
    .describe('Only workflows with these statuses (default: all).'),
  limit: z.number().int().min(1).max(100).optional().describe('Most workflows to list, newest first (default 20).'),
});

/**
 * Creates `workflow`, `show_workflow`, `list_workflows` and `cancel_workflow` for one agent. A workflow is a
 * sandboxed script that runs sub-agent tasks through the control plane's queue and is made durable by deterministic
 * replay; workers run its advances and task turns. A refusal of the control plane (a script that does not compile,
 * too many running workflows, an unknown id) becomes an error output (`isError`, `details.code`) the model can act
 * on; a database failure is thrown for the loop to report.
 */
export function createWorkflowTools(context: WorkflowToolsContext): AnyWorkerAgentTool[] {
  const { client, agentId } = context;
  return [
    defineWorkerTool<typeof startSchema, WorkflowToolDetails>({
      name: 'workflow',
      description: WORKFLOW_SCRIPT_GUIDE,
      schema: startSchema,
      executionMode: 'sequential',
      describeActivity: (params) => `Starting workflow "${activityLabel(params.title)}"`,
      describeCompletedActivity: (params, result) =>
        result.isError === true ? `Could not start workflow "${activityLabel(params.title)}"` : `Started workflow "${activityLabel(params.title)}"`,
      async execute(params) {
        try {
          const workflow = await client.workflows.start({
            agentId,
            title: params.title,
            script: params.script,
            input: (params.input ?? null) as JsonValue,
            notifyOnFinish: params.notifyOnFinish ?? false,
          });
          const next = workflow.notifyOnFinish
            ? 'you get a turn with the outcome when it finishes; show_workflow shows its progress'
            : 'check it with show_workflow';
          return { content: `Workflow started (it runs in the background; ${next}):\n${formatWorkflow(workflow)}`, details: { workflow } };
        } catch (error) {
          return refusalToolResult(error, 'start the workflow');
        }
      },
    }),
    defineWorkerTool<typeof workflowRefSchema, WorkflowToolDetails>({
      name: 'show_workflow',
      description:
        'Show one of your workflows: its status (running, succeeded, failed, cancelled), how many times the script was replayed, ' +
        'each task with its status, timing and result or error, the log, and the result or error once it finished.',
      schema: workflowRefSchema,
      executionMode: 'parallel',
      isReadOnly: true,
      describeActivity: (params) => `Checking workflow ${params.workflowId}`,
      describeCompletedActivity: (params, result) =>
        result.isError === true ? `No workflow ${params.workflowId}` : `Workflow "${activityLabel(result.details?.workflow?.title ?? params.workflowId)}" is ${result.details?.workflow?.status}`,
      async execute(params) {
        try {
          const workflow = await client.workflows.get({ agentId, workflowId: params.workflowId });
          return { content: formatWorkflowDetails(workflow), details: { workflow } };
        } catch (error) {
          return refusalToolResult(error, 'show the workflow');
        }
      },
    }),
    defineWorkerTool<typeof listSchema, WorkflowToolDetails>({
      name: 'list_workflows',
      description: 'List your workflows, newest first, with their status, task count and outcome.',
      schema: listSchema,
      executionMode: 'parallel',
      isReadOnly: true,
      describeActivity: () => 'Listing workflows',
      describeCompletedActivity: (_params, result) => `Listed ${result.details?.workflows?.length ?? 0} workflow(s)`,
      async execute(params) {
        try {
          const workflows = await client.workflows.list({ agentId, status: params.status, limit: params.limit ?? 20 });
          const content = workflows.length === 0 ? 'No workflows.' : `${workflows.length} workflow(s):\n${workflows.map((workflow) => formatWorkflow(workflow)).join('\n')}`;
          return { content, details: { workflows } };
        } catch (error) {
          return refusalToolResult(error, 'list the workflows');
        }
      },
    }),
    defineWorkerTool<typeof workflowRefSchema, WorkflowToolDetails>({
      name: 'cancel_workflow',
      description:
        'Cancel one of your running workflows: its queued tasks never run, running tasks are stopped within seconds, and its script does not run again.',
      schema: workflowRefSchema,
      executionMode: 'sequential',
      isDestructive: true,
      describeActivity: (params) => `Cancelling workflow ${params.workflowId}`,
      describeCompletedActivity: (params, result) =>
        result.isError === true ? `Could not cancel workflow ${params.workflowId}` : `Cancelled "${activityLabel(result.details?.workflow?.title ?? params.workflowId)}"`,
      async execute(params) {
        try {
          const before = await client.workflows.get({ agentId, workflowId: params.workflowId });
          if (before.status !== 'running') {
            return { content: `The workflow already finished (${before.status}); nothing changed:\n${formatWorkflow(before)}`, details: { workflow: before } };
          }
          const workflow = await client.workflows.cancel({ agentId, workflowId: params.workflowId });
          return { content: `Workflow cancelled:\n${formatWorkflow(workflow)}`, details: { workflow } };
        } catch (error) {
          return refusalToolResult(error, 'cancel the workflow');
        }
      },
    }),
  ];
}
