import { ControlPlaneConflictError, type ClaimedTask, type ControlPlaneClient, type TaskRecord } from '@core/control-plane-client';
import {
  runAgentLoop,
  type AgentEvent,
  type AgentLoopOptions,
  type AgentLoopResult,
  type AnyWorkerAgentTool,
  type ApprovalPolicy,
  type ModelGateway,
  type ResponseInputItem,
} from '@core/runtime';
import { createBrainTools } from '@core/tools-brain';
import { createSubmitResultTool, type SubmitResultToolDetails } from '@core/tools-submit-result';
import { createWebTools, type WebProfile } from '@core/tools-web';
import { startTurnTracing } from './turn-tracing.js';

/**
 * What a workflow task turn is built from. Unlike a text turn it has no home, computer, todo, schedule, job or
 * workflow tools: a task cannot start other workflows or jobs.
 */
export interface TaskTurnContext {
  /** The claimed task: its prompt, result schema and lease. */
  task: ClaimedTask;
  /** The control plane: the task's result goes through `tasks`; Brain reads through it. */
  controlPlane: ControlPlaneClient;
  /** The turn's abort signal (the lease watcher's, a shutdown's): aborting it aborts the model call and the tools. */
  signal: AbortSignal;
  /** The web profile bound to this worker; without one the task has no web tools. */
  webProfile?: WebProfile;
  /** Whether Brain is enabled for the task's agent: then the task gets the read-only `recall` and `get_page`. */
  brain?: boolean;
}

/** The tools and instructions of one task turn. */
export interface TaskTurnAssembly {
  /** Exactly: the web tools (with a profile), `recall` and `get_page` (with Brain), then `submit_result`. */
  tools: AnyWorkerAgentTool[];
  /** The workflow's title, the task's title and prompt, and how to finish. */
  instructions: string;
  /** The first user message. */
  input: string;
}

/** Most reminders a task turn gets when the model answers in text without submitting (default of `maxReminders`). */
export const DEFAULT_TASK_REMINDERS = 2;

/**
 * Builds the fixed tool set of one workflow task turn, in the seed's order: the web tools (only with a bound web
 * profile), `recall` and `get_page` (only when Brain is enabled for the agent), and the task's own `submit_result`,
 * whose parameters are the task's stored result schema sent with `strict: true`. Fresh tools every call.
 * @throws ToolDefinitionError when the stored result schema cannot be sent in strict mode (the engine stores only
 *   closed shapes, so this means a corrupted record).
 */
export function buildTaskTurnTools(context: TaskTurnContext): TaskTurnAssembly {
  const { task, controlPlane } = context;
  const tools: AnyWorkerAgentTool[] = [
    ...createWebTools(context.webProfile),
    ...(context.brain === true ? createBrainTools({ client: controlPlane, agentId: task.agentId, readOnly: true }) : []),
    createSubmitResultTool({ task, client: controlPlane }),
  ];
  return { tools, instructions: taskInstructions(task, tools), input: `Do the task "${task.title}" now, then submit its result with submit_result.` };
}

function taskInstructions(task: ClaimedTask, tools: readonly AnyWorkerAgentTool[]): string {
  const helpers = tools.map((tool) => tool.name).filter((name) => name !== 'submit_result');
  return [
    `You are a sub-agent of the Ankole agent "${task.agentId}", doing one task of its workflow "${task.workflowTitle}".`,
    `Your task: ${task.title}`,
    '',
    task.prompt,
    '',
    'How to finish: call submit_result once the work is done. Its arguments ARE the result and must match its schema;',
    'nothing else you write is kept, only the submitted result reaches the workflow. If a submission is rejected, fix the',
    'listed problems and submit again. Your turn ends when a result is accepted.',
    helpers.length === 0 ? 'You have no other tools: work from what you know.' : `Tools to help you: ${helpers.join(', ')}.`,
  ].join('\n');
}

/** Options of `runTaskTurn`. */
export interface RunTaskTurnOptions {
  context: TaskTurnContext;
  gateway: ModelGateway;
  /** Most model calls in the task turn, reminders included (default 20). */
  maxSteps?: number;
  /** How many times a model that answers without submitting is told to submit before the task fails (default 2). */
  maxReminders?: number;
  /** Default per-tool timeout in ms. */
  toolTimeoutMs?: number;
  onEvent?: (event: AgentEvent) => void;
  /** Called once the tool set is built, before the first model call. */
  onAssembled?: (assembly: TaskTurnAssembly) => void;
  /** Decides the calls that need approval (see `runAgentLoop`); `ask` pauses the turn (status `awaiting_approval`). */
  approvalPolicy?: ApprovalPolicy;
  /** Resumes a turn paused for approval (see `runAgentLoop`): the first loop goes on from the stored state. */
  resume?: AgentLoopOptions['resume'];
  /** Changes the assembled tools before the loop runs with them (see `RunTextTurnOptions.prepareTools`). */
  prepareTools?: (tools: AnyWorkerAgentTool[]) => AnyWorkerAgentTool[];
}

/** How a task turn ended. */
export type TaskTurnStatus =
  /** A result was accepted and stored (by `submit_result`); the workflow advances. */
  | 'submitted'
  /** No result: the task was failed (`tasks.fail`) with `error`; the script's `task()` rejects with it. */
  | 'failed'
  /** The signal aborted (cancel, lost lease, shutdown): the task is untouched, the caller settles it. */
  | 'aborted'
  /** The control plane refused the task to this worker (`lease_lost`, `task_not_running`, ...): nothing stored. */
  | 'refused'
  /** The approval policy held calls for a person: `outcome.runState` is the state to store (`tasks.hold`) and resume. */
  | 'awaiting_approval';

/** What a task turn produced. */
export interface TaskTurnResult {
  status: TaskTurnStatus;
  /** The stored task (`submitted`, `failed`). */
  task?: TaskRecord;
  /** Why it failed or was refused. */
  error?: string;
  /** How the last agent loop ended; `outcome.items` is the whole conversation. */
  outcome: AgentLoopResult;
  /** Reminders sent. */
  reminders: number;
  /** Model calls over the whole turn. */
  steps: number;
  events: AgentEvent[];
  assembly: TaskTurnAssembly;
}

/**
 * Runs one workflow task turn and settles the task: builds the fixed tool set, runs the agent loop until
 * `submit_result` is accepted (the tool ends the turn). A model that answers in text without submitting is reminded
 * in the same conversation, at most `maxReminders` times; then, or when the steps run out or the model endpoint
 * fails, the task is failed with a clear error (`client.tasks.fail`) that the workflow script sees as a rejected
 * `task()`. An aborted turn leaves the task as it is (status `aborted`): the caller releases it or knows it was
 * cancelled or taken over. With an `approvalPolicy`, a held call pauses the turn (status `awaiting_approval`, the run
 * state in `outcome.runState`): the caller stores it (`tasks.hold`); a later turn resumes from it (`resume`).
 * @throws ToolDefinitionError when the tool set cannot be built; a control-plane failure (database unreachable) while
 *   failing the task is rethrown (the lease then expires and another worker retries the task).
 */
export async function runTaskTurn(options: RunTaskTurnOptions): Promise<TaskTurnResult> {
  const { context } = options;
  const { task, controlPlane, signal } = context;
  const assembly = buildTaskTurnTools(context);
  options.onAssembled?.(assembly);
  const maxSteps = options.maxSteps ?? 20;
  const maxReminders = options.maxReminders ?? DEFAULT_TASK_REMINDERS;
  const events: AgentEvent[] = [];
  const onEvent = (event: AgentEvent) => {
    events.push(event);
    options.onEvent?.(event);
  };
  // What each submission came to, from the tool's own result: the stored task once accepted, the code of a refusal.
  let accepted: TaskRecord | undefined;
  let refusal: string | undefined;
  const observed = assembly.tools.map((tool) =>
    tool.name !== 'submit_result' || tool.namespace !== undefined
      ? tool
      : {
          ...tool,
          execute: async (params: unknown, call: Parameters<typeof tool.execute>[1]) => {
            const result = await tool.execute(params, call);
            const details = result.details as SubmitResultToolDetails | undefined;
            if (details?.accepted === true && details.task !== undefined) accepted = details.task;
            else if (details?.code !== undefined && details.code !== 'already_submitted') refusal = details.code;
            return result;
          },
        },
  );

  let input: string | ResponseInputItem[] = assembly.input;
  let steps = 0;
  let reminders = 0;
  let resume = options.resume;
  const tools = options.prepareTools === undefined ? observed : options.prepareTools(observed);
  for (;;) {
    const tracing = await startTurnTracing(options.gateway, { agentId: task.agentId, conversationId: task.id, attributes: { 'ankole.workflow.id': task.workflowId } });
    const outcome: AgentLoopResult = await runAgentLoop({
      gateway: options.gateway,
      tools,
      input,
      instructions: assembly.instructions,
      signal,
      maxSteps: maxSteps - steps,
      ...(options.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: options.toolTimeoutMs }),
      ...(options.approvalPolicy === undefined ? {} : { approvalPolicy: options.approvalPolicy }),
      ...(resume === undefined ? {} : { resume }),
      onEvent: tracing === undefined ? onEvent : (event) => (tracing.onEvent(event), onEvent(event)),
    }).catch((error: unknown) => {
      tracing?.end(error);
      throw error;
    });
    // A resumed loop counts the steps of the turn before the pause too.
    steps = resume === undefined ? steps + outcome.steps : outcome.steps;
    resume = undefined;
    const result = { outcome, reminders, steps, events, assembly };
    if (accepted !== undefined) return { ...result, status: 'submitted', task: accepted };
    if (refusal !== undefined) return { ...result, status: 'refused', error: `The control plane refused the result (${refusal}).` };
    if (outcome.reason === 'aborted' || signal.aborted) return { ...result, status: 'aborted' };
    if (outcome.reason === 'awaiting_approval') return { ...result, status: 'awaiting_approval' };
    if (outcome.reason === 'completed' && reminders < maxReminders && steps < maxSteps) {
      reminders += 1;
      input = [...outcome.items, { type: 'message', role: 'user', content: reminder(reminders, maxReminders) }];
      continue;
    }
    const error = failureMessage(outcome, reminders, steps >= maxSteps);
    try {
      const failed = await controlPlane.tasks.fail({ taskId: task.id, leaseToken: task.leaseToken, error });
      return { ...result, status: 'failed', task: failed, error };
    } catch (failure) {
      if (failure instanceof ControlPlaneConflictError) return { ...result, status: 'refused', error: failure.message };
      throw failure;
    }
  }
}

function reminder(count: number, max: number): string {
  return (
    `You answered without submitting a result (reminder ${count} of ${max}). The task is done only when you call ` +
    'submit_result with a value that matches its schema; text answers are not kept. Call submit_result now.'
  );
}

function failureMessage(outcome: AgentLoopResult, reminders: number, outOfSteps: boolean): string {
  if (outcome.reason === 'completed') {
    const said = outcome.text.replace(/\s+/g, ' ').trim();
    const preview = said.length > 300 ? `${said.slice(0, 299)}…` : said;
    return `The task's sub-agent answered without submitting a result, ${reminders === 0 ? 'with no reminder left' : `even after ${reminders} reminder(s)`}${outOfSteps ? ' (its step budget ran out)' : ''}. Its last answer: ${preview === '' ? '(empty)' : preview}`;
  }
  switch (outcome.reason) {
    case 'max_steps':
      return 'The task turn used its whole step budget without submitting a result.';
    case 'incomplete':
      return "The model's response was cut short and the task turn could not go on.";
    case 'terminated':
      return 'The task turn ended without an accepted result.';
    default:
      return `The model endpoint failed during the task turn${outcome.error === undefined ? '' : `: ${outcome.error}`}.`;
  }
}
