import type { AgentLoopOptions, AgentLoopResult, ApprovalPolicy } from '@core/runtime';
import { readApprovalRules, requireListedApprovals, runTextTurn } from '@core/worker';
import { DEMO_PROMPT } from '../../demo/demo-prompt.js';
import { demoPlace } from '../../demo/demo-place.js';
import { createJsonRenderer } from '../../render/json-renderer.js';
import { createTerminalRenderer } from '../../render/terminal-renderer.js';
import type { StopSignal, TurnRenderer } from '../../render/turn-renderer.js';
import { countOf } from '../../render/plural.js';
import type { CliCommand } from '../cli-command.js';
import { configSetting, type LoadedConfig } from '../ankole-config.js';
import { applyAnkoleConfig, baseURLSource } from '../apply-config.js';
import { turnHome } from '../turn-home.js';
import { contextBudgetOf, contextManagementOf } from '../context-config.js';
import { APPROVE_MODES, createCliApprovalPolicy, type ApproveMode } from '../cli-approval-policy.js';
import { CliError, EXIT_CODES } from '../cli-error.js';
import type { CliIO } from '../cli-io.js';
import { openModel } from '../model-setup.js';
import { parseCommandLine, positiveInteger, stringValue } from '../parse-command-line.js';
import { readPipedPrompt } from '../read-piped-prompt.js';
import { createConversationStore, type ConversationStore } from '../conversation-store.js';
import { chooseConversation, isForgottenResponse, planConversationTurn, recordConversationTurn, withWholeHistory, type ConversationTurnPlan } from '../conversation-turn.js';
import { createRunTranscript } from '../run-transcript.js';
import { describeCommands } from '../command-sandbox-setup.js';
import { CONFIG_FILES_HELP, resolveTurnSetup, TURN_OPTIONS, TURN_OPTIONS_HELP, type TurnSetup } from '../turn-setup.js';

const OPTIONS = {
  ...TURN_OPTIONS,
  model: { type: 'string' },
  'max-steps': { type: 'string' },
  json: { type: 'boolean' },
  demo: { type: 'boolean' },
  approve: { type: 'string' },
  continue: { type: 'boolean', short: 'c' },
  resume: { type: 'string' },
  'previous-response-id': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const HELP = [
  'Usage: ankole run [options] "<prompt>"',
  '       ankole run [options] -          the prompt from standard input (as when one is piped in with no argument)',
  '',
  'Runs one text turn: the model and the tools of the turn, until the model answers.',
  'With OPENAI_API_KEY set it talks to a real model (at OPENAI_BASE_URL when set: any Responses-compatible',
  'server); without it, it runs the offline demo model, a scripted local model that drives the real tools.',
  '',
  'Options:',
  ...TURN_OPTIONS_HELP,
  '  --model NAME       the model (default: $ANKOLE_MODEL, else gpt-5-mini)',
  '  --max-steps N      most model calls in the turn (default 20)',
  '  --json             print the typed events, one JSON object a line',
  '  --demo             use the offline demo model even when OPENAI_API_KEY is set',
  '  --approve MODE     calls that need approval (destructive tools): ask (the default on a terminal: allow once,',
  '                     allow the tool for the rest of the turn, or deny with a reason), auto (allow them; the',
  '                     default with the offline demo model) or never (deny them; the default without a terminal).',
  '                     Default: $ANKOLE_APPROVE when set.',
  '                     The agent config $XDG_CONFIG_HOME/ankole/agents/<agent>.json can list tools to always',
  '                     allow or deny: { "approvals": { "allow": ["command"], "deny": ["delete_page"] } }',
  '  -c, --continue     go on with the agent\'s last conversation (the model sees its earlier turns)',
  '  --resume ID        go on with this conversation (its id, or a unique prefix: ankole conversations list)',
  '  --previous-response-id',
  '                     keep the conversation on the server: stored responses, each request sends only the new',
  '                     items after previous_response_id (default: $ANKOLE_PREVIOUS_RESPONSE_ID=1; else every',
  '                     request carries the whole conversation). A response the server forgot: the whole',
  '                     conversation is sent instead.',
  '  -h, --help         show this help',
  '',
  'Every turn is kept as a conversation of the agent (outside its home, in $XDG_DATA_HOME/ankole/agent-data/<agent>)',
  'with its transcript: ankole conversations list | show ID [--transcript].',
  '',
  ...CONFIG_FILES_HELP,
  '',
  'Ctrl-C aborts the turn (running tools are stopped) and exits with code 130; SIGTERM does the same with 143.',
  '',
].join('\n');

/** `ankole run "<prompt>"`: one text turn, rendered live on a terminal, as plain lines when piped, or as JSON lines. */
export const runCommand: CliCommand = {
  name: 'run',
  summary: 'run one text turn (the offline demo model when OPENAI_API_KEY is not set)',
  async run(args, cliIO) {
    const parsed = parseCommandLine('run', args, OPTIONS);
    if (parsed.values.help === true) {
      cliIO.stdout.write(HELP);
      return EXIT_CODES.ok;
    }
    // The config files under the flags and the environment (`ankole config show`).
    const configured = await applyAnkoleConfig(parsed.values, cliIO, { perAgent: true, flags: Object.keys(OPTIONS) });
    let { values } = configured;
    const { positionals } = parsed;
    let io = configured.io;
    const maxSteps = positiveInteger(values, 'max-steps', 'run');
    const approveFromEnv = io.env.ANKOLE_APPROVE === undefined || io.env.ANKOLE_APPROVE === '' ? undefined : io.env.ANKOLE_APPROVE;
    const approve = stringValue(values, 'approve') ?? approveFromEnv;
    if (approve !== undefined && !APPROVE_MODES.includes(approve as ApproveMode)) {
      throw new CliError('approve_invalid', `${stringValue(values, 'approve') === undefined ? 'ANKOLE_APPROVE=' : '--approve '}${approve}: use ask, auto or never.`);
    }
    const controller = new AbortController();
    const chainEnv = io.env.ANKOLE_PREVIOUS_RESPONSE_ID;
    const chained = values['previous-response-id'] === true || chainEnv === '1' || chainEnv === 'true';
    const modelName = stringValue(values, 'model');
    // `-`: the prompt is standard input (`ankole run - < task.md`), which must hold one.
    const fromStdin = positionals.length === 1 && positionals[0] === '-';
    let prompt = fromStdin ? '' : positionals.join(' ').trim();
    // No prompt in the arguments: one piped in (`echo "…" | ankole run`).
    if (prompt === '') prompt = (await readPipedPrompt(io)) ?? '';
    if (fromStdin && prompt === '') {
      throw new CliError('prompt_missing', '`ankole run -` reads the prompt from standard input, which held none: pipe one in (echo "<prompt>" | ankole run -) or give it as an argument.');
    }
    let model = await openModel({ env: io.env, ...(modelName === undefined ? {} : { model: modelName }), forceDemo: values.demo === true, previousResponseId: chained, baseURLFrom: baseURLSource(cliIO.env, configured.loaded), ...management(configured.loaded) });
    // The offline demo touches nothing real: it keeps its conversation and any database in a temporary folder.
    const demo = model.offlineDemo ? await demoPlace({ values, io, prompt, modelName }).catch(async (error: unknown) => {
      await model.close();
      throw error;
    }) : undefined;
    if (demo !== undefined) {
      ({ values, io } = demo);
      model = { ...model, notice: `${model.notice}${demo.notice}` };
    }
    const letGo = async (error: unknown): Promise<never> => {
      await model.close();
      await demo?.remove();
      throw error;
    };
    const agent = stringValue(values, 'agent') ?? 'default';
    const store = createConversationStore({ agent, env: io.env });
    const chosen = await chooseConversation({ store, agent, continueLast: values.continue === true, resume: stringValue(values, 'resume') }).catch(letGo);
    // The home stays with the conversation: its own when going on with one, else --home, else the config's `home`.
    let home: string | undefined;
    try {
      home = turnHome({ conversation: chosen, given: stringValue(values, 'home'), configured: configSetting(configured.loaded, 'home'), cwd: io.cwd });
    } catch (error) {
      await letGo(error);
    }
    const setup = await resolveTurnSetup(home === undefined ? values : { ...values, home }, io, controller.signal).catch(letGo);
    const { context } = setup;
    try {
      await demoCommands(model.offlineDemo, setup);
      if (prompt === '') {
        if (!model.offlineDemo) throw new CliError('prompt_missing', 'Give the prompt to run: ankole run "<prompt>" (or pipe it in: echo "<prompt>" | ankole run).');
        prompt = DEMO_PROMPT;
      }
      const renderer = values.json === true ? createJsonRenderer(io.stdout) : createTerminalRenderer({
        output: io.stdout,
        // A terminal that cannot move the cursor (TERM=dumb, e.g. an editor's shell) gets plain lines.
        live: io.stdout.isTTY === true && io.env.TERM !== 'dumb',
        color: io.env.NO_COLOR === undefined || io.env.NO_COLOR === '',
      });
      const terminal = io.stdinIsTTY === true && io.stdout.isTTY === true && io.readLine !== undefined;
      const mode: ApproveMode = (approve as ApproveMode | undefined) ?? (model.offlineDemo ? 'auto' : terminal ? 'ask' : 'never');
      const rules = await readApprovalRules(context.agent, io.env);
      // `auto` with no lists needs no policy: the turn runs as it always did (the offline demo, untouched).
      const approvalPolicy =
        mode === 'auto' && rules.allow.length === 0 && rules.deny.length === 0
          ? undefined
          : createCliApprovalPolicy({
              mode,
              rules,
              write: (text) => io.stderr.write(text),
              ...(terminal && io.readLine !== undefined ? { readLine: (signal?: AbortSignal) => io.readLine!(signal) } : {}),
              modeChosen: approve !== undefined,
              signal: controller.signal,
            });
      const plan = planConversationTurn(chosen ?? store.create({ home: context.home, prompt }), prompt, chained);
      return await runRendered({ io, controller, renderer, prompt, model, setup, maxSteps, toolTimeoutMs: configured.toolTimeoutMs, approvalPolicy, denied: { deny: rules.deny }, plan, store, chained, contextBudget: contextBudgetOf(configured.loaded, model.gateway) });
    } finally {
      await model.close();
      await setup.close();
      await demo?.remove();
    }
  },
};

/**
 * The offline demo on a machine where commands cannot be sandboxed (no bubblewrap): its scripted commands (`wc`,
 * `ls` in its own new home) run unsandboxed, and a warning says so. A real model's commands are never let through so.
 */
async function demoCommands(offlineDemo: boolean, setup: TurnSetup): Promise<void> {
  const { commands } = setup;
  if (!offlineDemo || commands.sandbox === 'unsandboxed') return;
  const status = await commands.sandbox.status();
  if (status.available) return;
  setup.warnings.splice(0, setup.warnings.length, ...setup.warnings.filter((warning) => warning !== commands.refusal));
  setup.warnings.push(`${status.reason} The offline demo runs its own fixed commands (wc, ls) unsandboxed; a real model's commands are refused until bubblewrap is installed.`);
  await commands.sandbox.close();
  commands.sandbox = 'unsandboxed';
  commands.refusal = undefined;
  commands.unsandboxedBecause = 'the offline demo, no bubblewrap here';
  setup.context.commandSandbox = 'unsandboxed';
}

interface RunRenderedOptions {
  io: CliIO;
  controller: AbortController;
  renderer: TurnRenderer;
  prompt: string;
  model: Awaited<ReturnType<typeof openModel>>;
  setup: TurnSetup;
  maxSteps: number | undefined;
  /** The config's `toolTimeoutSeconds`, in ms. */
  toolTimeoutMs: number | undefined;
  approvalPolicy: ApprovalPolicy | undefined;
  /** The agent config's `deny` list: those tools are put to the policy on every call (see `requireListedApprovals`). */
  denied: { deny: readonly string[] };
  /** The conversation this turn goes on (or starts), and what it sends. */
  plan: ConversationTurnPlan;
  store: ConversationStore;
  /** `previous_response_id` mode. */
  chained: boolean;
  /** The config's `context` settings as the loop's `context` option (`undefined`: the loop's defaults). */
  contextBudget: AgentLoopOptions['context'];
}

async function runRendered(options: RunRenderedOptions): Promise<number> {
  const { io, controller, renderer, model, setup } = options;
  const { context } = setup;
  // Ctrl-C or SIGTERM aborts the turn: its tools stop their processes (which live in their own process
  // groups, so the signal does not reach them). A second signal leaves at once.
  let stoppedBy: StopSignal | undefined;
  const stop = (signal: StopSignal) => {
    if (stoppedBy !== undefined) {
      renderer.release();
      io.exit(exitCodeOf(stoppedBy));
    }
    stoppedBy = signal;
    renderer.interrupted(signal);
    // The reason reaches the aborted calls' outputs: "… was stopped before it finished because the turn was interrupted (Ctrl-C)".
    controller.abort(new DOMException(signal === 'SIGTERM' ? 'The turn was terminated (SIGTERM).' : 'The turn was interrupted (Ctrl-C).', 'AbortError'));
  };
  const removeInterrupt = io.onInterrupt(() => stop('SIGINT'));
  const removeTerminate = io.onTerminate(() => stop('SIGTERM'));
  const started = performance.now();
  const startedAt = new Date().toISOString();
  let plan = options.plan;
  const transcript = createRunTranscript({ conversationId: plan.conversation.id, turn: plan.turn });
  let assembled = false;
  const turn = () =>
    runTextTurn({
      context,
      gateway: model.gateway,
      input: plan.input,
      ...(plan.previousResponseId === undefined ? {} : { previousResponseId: plan.previousResponseId }),
      ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
      ...(options.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: options.toolTimeoutMs }),
      ...(options.contextBudget === undefined ? {} : { contextBudget: options.contextBudget }),
      ...(options.approvalPolicy === undefined ? {} : { approvalPolicy: options.approvalPolicy, prepareTools: (tools) => requireListedApprovals(tools, options.denied) }),
      onAssembled(assembly) {
        if (assembled) return;
        assembled = true;
        renderer.start({
          notice: model.notice,
          offlineDemo: model.offlineDemo,
          model: model.model,
          home: context.home,
          agent: context.agent,
          tools: assembly.tools.length,
          commands: describeCommands(setup.commands),
          ...(setup.controlPlaneWhere === undefined ? {} : { controlPlane: setup.controlPlaneWhere }),
          conversation: { id: plan.conversation.id, turn: plan.turn },
        });
        for (const warning of [...setup.warnings, ...assembly.warnings]) renderer.warning(warning);
      },
      onEvent: (event) => {
        transcript.record(event);
        renderer.event(event);
      },
    });
  try {
    let { outcome } = await turn();
    if (plan.previousResponseId !== undefined && outcome.reason === 'error' && outcome.steps === 1 && isForgottenResponse(model.lastError())) {
      // The server no longer has the conversation's last response: send the whole conversation instead.
      renderer.warning(`The model endpoint no longer has this conversation's last response (${plan.previousResponseId}): sending the whole conversation instead.`);
      plan = withWholeHistory(plan, options.prompt);
      ({ outcome } = await turn());
    }
    await saveConversation({ ...options, plan, outcome, startedAt, transcript: transcript.transcript() });
    const durationMs = performance.now() - started;
    let exitCode: number = EXIT_CODES.ok;
    let failure: string | undefined;
    const interrupted = stoppedBy !== undefined;
    if (interrupted || outcome.reason === 'aborted') exitCode = exitCodeOf(stoppedBy ?? 'SIGINT');
    else if (outcome.reason === 'error') {
      exitCode = EXIT_CODES.failure;
      // The gateway words every endpoint failure (`describeModelFailures`), so this is the turn's own `error`.
      failure = outcome.error ?? 'The model endpoint failed.';
    } else if (outcome.reason === 'max_steps') {
      exitCode = EXIT_CODES.failure;
      failure = `The turn stopped after ${countOf(outcome.steps, 'model call')} (the --max-steps limit) before the model finished.`;
    } else if (outcome.reason === 'incomplete') {
      exitCode = EXIT_CODES.failure;
      failure = `The model's response was cut short${outcome.error === undefined ? '' : ` (${outcome.error})`}, so the turn could not go on.`;
    }
    renderer.finish({
      outcome,
      durationMs,
      interrupted,
      ...(stoppedBy === undefined ? {} : { signal: stoppedBy }),
      exitCode,
      ...(failure === undefined ? {} : { failure }),
    });
    if (failure !== undefined) io.stderr.write(`ankole: ${failure}\n`);
    return exitCode;
  } finally {
    removeInterrupt();
    removeTerminate();
  }
}

/**
 * Keeps the turn in its conversation and its transcript beside it (atomic writes: a crash leaves the last whole
 * version). A failure to write is a warning on stderr: the turn's result stands.
 */
async function saveConversation(
  options: RunRenderedOptions & { outcome: AgentLoopResult; startedAt: string; transcript: ReturnType<ReturnType<typeof createRunTranscript>['transcript']> },
): Promise<void> {
  try {
    const conversation = recordConversationTurn({
      plan: options.plan,
      outcome: options.outcome,
      prompt: options.prompt,
      startedAt: options.startedAt,
      chained: options.chained,
      model: options.model.model,
    });
    await options.store.saveTranscript(options.transcript);
    await options.store.save(conversation);
  } catch (error) {
    options.io.stderr.write(`ankole: the conversation could not be saved in ${options.store.dir}: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

function exitCodeOf(signal: StopSignal): number {
  return signal === 'SIGTERM' ? EXIT_CODES.terminated : EXIT_CODES.interrupted;
}

/** `openModel`'s `contextManagement` from the config, when `context.management` is set. */
function management(loaded: LoadedConfig): { contextManagement?: { compactThreshold: number } } {
  const contextManagement = contextManagementOf(loaded);
  return contextManagement === undefined ? {} : { contextManagement };
}
