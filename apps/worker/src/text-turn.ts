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
import type { ControlPlaneClient } from '@core/control-plane-client';
import { createComputerTools, loadSkills, projectSkills, type SkillProblem } from '@core/tools-computer';
import { createFileTodoStore, createTodoTool, formatTodoList, todoProgress } from '@core/tools-todo';
import { createWebTools } from '@core/tools-web';
import type { TextTurnContext } from './turn-context.js';
import { startTurnTracing, type TurnTraceSubject } from './turn-tracing.js';

/** The tools and instructions of one text turn. */
export interface TextTurnAssembly {
  /** The tool set, in the seed's order; a fresh array (and fresh tool objects) every call. */
  tools: AnyWorkerAgentTool[];
  /** The turn's instructions: the base prompt, the current plan, the skills' projections. */
  instructions: string;
  /** Things the user should know that did not stop the turn (a malformed skill, an unreadable plan). */
  warnings: string[];
}

/**
 * Builds the tool set of one text turn from its context, explicitly and in order: the todo tool, the
 * computer tools, the web tools (only with a bound profile), the schedule tools (only with a control
 * plane), the background job tools (only when the turn may start jobs), the workflow tools (only with a
 * control plane), the Brain tools (only with a control plane and Brain enabled), then the rest (`extraTools`). A workflow task turn never uses this path (see `task-turn.ts`).
 * Active skills add no tools: their names, descriptions and SKILL.md paths go into the instructions.
 * Nothing is cached or shared between turns.
 * @throws UsageError when a category cannot be built from the context (e.g. the home does not exist).
 */
export async function buildTurnTools(context: TextTurnContext): Promise<TextTurnAssembly> {
  const warnings: string[] = [];
  const agentId = context.agent ?? 'default';
  const { controlPlane } = context;
  const tools: AnyWorkerAgentTool[] = [
    createTodoTool({ home: context.home }),
    ...createComputerTools({
      home: context.home,
      signal: context.signal,
      ...(context.env === undefined ? {} : { env: context.env }),
      ...(context.computerLimits === undefined ? {} : { limits: context.computerLimits }),
      ...(context.commandSandbox === undefined ? {} : { sandbox: context.commandSandbox }),
      ...(context.allowHosts === undefined ? {} : { allowHosts: context.allowHosts }),
    }),
    ...createWebTools(context.webProfile),
    ...(controlPlane === undefined ? [] : await controlPlaneTools(controlPlane, agentId, context)),
    ...(context.extraTools ?? []),
  ];
  const sections = [baseInstructions(context), await currentPlanSection(context.home, warnings), await skillsSection(context, warnings)];
  if (context.instructions !== undefined && context.instructions.trim() !== '') sections.push(context.instructions.trim());
  return { tools, instructions: sections.filter((section) => section !== '').join('\n\n'), warnings };
}

/**
 * The schedule, background job, workflow and (with Brain enabled) Brain tools, in that order. Their packages
 * are loaded here, only for a turn with a control plane, so a turn without one starts without them.
 */
async function controlPlaneTools(client: ControlPlaneClient, agentId: string, context: TextTurnContext): Promise<AnyWorkerAgentTool[]> {
  const [{ createScheduleTools }, { createBackgroundAgentJobTools }, { createWorkflowTools }] = await Promise.all([
    import('@core/tools-schedule'),
    import('@core/tools-jobs'),
    import('@core/tools-workflow'),
  ]);
  const tools: AnyWorkerAgentTool[] = [
    ...createScheduleTools({ client, agentId }),
    ...createBackgroundAgentJobTools({ client, agentId, allowJobs: context.allowJobs === true }),
    ...createWorkflowTools({ client, agentId }),
  ];
  if (context.brain === true) tools.push(...(await import('@core/tools-brain')).createBrainTools({ client, agentId, readOnly: false }));
  return tools;
}

function baseInstructions(context: TextTurnContext): string {
  return [
    `You are ${context.agent === undefined ? 'an Ankole agent' : `the Ankole agent "${context.agent}"`}, working in your home folder ${context.home}.`,
    'Use the tools to do the work rather than describing it. For a task of three or more steps, keep a plan with todo_write.',
    'Read-only tools can run together: call several in one response when they do not depend on each other.',
    'Finish with a short answer that reports what you did and what you found.',
  ].join('\n');
}

async function currentPlanSection(home: string, warnings: string[]): Promise<string> {
  try {
    const items = await createFileTodoStore({ home }).load();
    if (items.length === 0) return '';
    const { done, total } = todoProgress(items);
    return `Your current plan (${done}/${total} done), from earlier turns:\n${formatTodoList(items)}`;
  } catch (error) {
    warnings.push((error as Error).message);
    return '';
  }
}

async function skillsSection(context: TextTurnContext, warnings: string[]): Promise<string> {
  if (context.skillsDir === undefined) return '';
  const loaded = await loadSkills([context.skillsDir]);
  const projection = await projectSkills(loaded.skills, { home: context.home });
  const projected = new Set(projection.skills.map((skill) => skill.name));
  // A skill the loader refused is left out; a projection problem leaves it out only when it was not projected.
  for (const problem of loaded.problems) warnings.push(`Skill ${describeSkill(problem)} skipped: ${problem.message}`);
  for (const problem of projection.problems) {
    const skipped = problem.name !== undefined && !projected.has(problem.name);
    warnings.push(problem.name === undefined ? `Skills: ${problem.message} (${problem.path})` : `Skill ${describeSkill(problem)}${skipped ? ' skipped' : ''}: ${problem.message}`);
  }
  return projection.instructions;
}

function describeSkill(problem: SkillProblem): string {
  return problem.name === undefined ? problem.path : `"${problem.name}" (${problem.path})`;
}

/** Options of `runTextTurn`. */
export interface RunTextTurnOptions {
  context: TextTurnContext;
  gateway: ModelGateway;
  /** The user's message, or the items to start from. */
  input: string | ResponseInputItem[];
  /** Most model calls in the turn (default: the loop's). */
  maxSteps?: number;
  /** Default per-tool timeout in ms. */
  toolTimeoutMs?: number;
  /** Called with each event as it happens (they are also returned). */
  onEvent?: (event: AgentEvent) => void;
  /** Called once the tool set is built, before the first model call. */
  onAssembled?: (assembly: TextTurnAssembly) => void;
  /** Decides the calls that need approval (see `runAgentLoop`); none: every call runs. */
  approvalPolicy?: ApprovalPolicy;
  /** Resumes a turn paused for approval (see `runAgentLoop`); `input` is then ignored. */
  resume?: AgentLoopOptions['resume'];
  /** In `previous_response_id` mode: go on from this stored response (`input` then holds only the new items). */
  previousResponseId?: string;
  /**
   * Changes the assembled tools before the loop runs with them (the worker makes the tools an agent's config lists
   * need approval, and journals approved calls); `assembly.tools` stays what was assembled.
   */
  prepareTools?: (tools: AnyWorkerAgentTool[]) => AnyWorkerAgentTool[];
  /** How the turn stays within the model's context window (`runAgentLoop`'s `context`; default: the loop's). */
  contextBudget?: AgentLoopOptions['context'];
  /** Names the turn in traces (a job or conversation id) when an OpenTelemetry SDK is registered. */
  trace?: Omit<TurnTraceSubject, 'agentId'>;
}

/** What a text turn produced. */
export interface TextTurnResult {
  /** How the turn ended (reason, steps, text, usage, tool calls). */
  outcome: AgentLoopResult;
  /** Every event, in order. */
  events: AgentEvent[];
  /** The tools and instructions the turn ran with. */
  assembly: TextTurnAssembly;
}

/**
 * Runs one text turn: builds its tools, then runs the agent loop with them. Resolves with the outcome
 * and the events; a failing model endpoint or an abort is an outcome, not a rejection.
 * @throws UsageError when the tool set cannot be built from the context.
 */
export async function runTextTurn(options: RunTextTurnOptions): Promise<TextTurnResult> {
  const assembly = await buildTurnTools(options.context);
  options.onAssembled?.(assembly);
  const events: AgentEvent[] = [];
  const tracing = await startTurnTracing(options.gateway, { agentId: options.context.agent ?? 'default', ...options.trace });
  const outcome = await runAgentLoop({
    gateway: options.gateway,
    tools: options.prepareTools === undefined ? assembly.tools : options.prepareTools(assembly.tools),
    input: options.input,
    instructions: assembly.instructions,
    signal: options.context.signal,
    ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
    ...(options.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: options.toolTimeoutMs }),
    ...(options.approvalPolicy === undefined ? {} : { approvalPolicy: options.approvalPolicy }),
    ...(options.resume === undefined ? {} : { resume: options.resume }),
    ...(options.previousResponseId === undefined ? {} : { previousResponseId: options.previousResponseId }),
    ...(options.contextBudget === undefined ? {} : { context: options.contextBudget }),
    onEvent(event) {
      events.push(event);
      tracing?.onEvent(event);
      options.onEvent?.(event);
    },
  }).catch((error: unknown) => {
    tracing?.end(error);
    throw error;
  });
  return { outcome, events, assembly };
}
