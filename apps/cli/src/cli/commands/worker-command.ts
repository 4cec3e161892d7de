import { mkdir, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { AnkoleError } from '@core/runtime';
import { webProfileFromEnv } from '@core/tools-web';
import { createWorkerMcpTools, readWorkerApprovalRules, runWorker, type TurnDenials, type WorkerEvent, type WorkerMcpEvent, type WorkerMcpTools, type WorkerTaskEvent } from '@core/worker';
import { AGENT_NAME_PATTERN, defaultAgentHome } from '../agent-home.js';
import { configSetting, loadAnkoleConfig, type LoadedConfig } from '../ankole-config.js';
import { applyAnkoleConfig, baseURLSource } from '../apply-config.js';
import { commandsSetup, describeCommands } from '../command-sandbox-setup.js';
import type { CliCommand } from '../cli-command.js';
import { CliError, EXIT_CODES } from '../cli-error.js';
import { KEYLESS_API_KEY, openModel } from '../model-setup.js';
import { countOf } from '../../render/plural.js';
import { formatDuration } from '../../render/format.js';
import { describeDeniedCalls } from '../../render/describe-denials.js';
import { parseCommandLine, positiveInteger, stringValue } from '../parse-command-line.js';
import { mcpConfigOption } from '../turn-setup.js';
import { checkModelEndpoint } from '../check-model-endpoint.js';
import { startDemoWorkerModel } from '../../demo/demo-worker-model.js';
import { CONTROL_PLANE_OPTIONS, CONTROL_PLANE_OPTIONS_HELP, controlPlaneChoiceFromOptions, openChosenControlPlane, openFromOptions } from '../../control-plane/control-plane-options.js';
import { checkWorkerAccess } from '../../control-plane/check-worker-access.js';
import { demoWorkerDatabase } from '../../demo/demo-worker-control-plane.js';

const OPTIONS = {
  ...CONTROL_PLANE_OPTIONS,
  concurrency: { type: 'string' },
  'worker-id': { type: 'string' },
  homes: { type: 'string' },
  skills: { type: 'string' },
  'mcp-config': { type: 'string' },
  'allow-host': { type: 'string', multiple: true },
  'unsandboxed-commands': { type: 'boolean' },
  brain: { type: 'boolean' },
  model: { type: 'string' },
  'max-steps': { type: 'string' },
  'shutdown-grace-seconds': { type: 'string' },
  'poll-interval-ms': { type: 'string' },
  json: { type: 'boolean' },
  demo: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const HELP = [
  'Usage: ankole worker [options]',
  '',
  'The long-running worker: takes scheduled turns and background jobs from the control plane\'s queue and',
  'runs each as a turn for its agent, and runs workflows: their advances (the script replayed in a sandbox)',
  'and their tasks (each a task turn that ends when submit_result is accepted); tasks and jobs share --concurrency.',
  'Start several (on one PostgreSQL database) to share the work.',
  'It needs a real model: OPENAI_API_KEY (and OPENAI_BASE_URL for any Responses-compatible server).',
  'SIGTERM or Ctrl-C: no new work; running turns get the grace period to finish, then are handed back to the',
  'queue for another worker. A second signal hands them back at once.',
  '',
  'Options:',
  '  --concurrency N    turns at once (default 2)',
  '  --worker-id ID     this worker\'s name in the job records (default: <host>-<pid>)',
  '  --homes DIR        the folder of agent homes, one sub-folder per agent (default: $XDG_DATA_HOME/ankole/agents)',
  '  --skills DIR       a folder of skills active for every turn',
  '  --mcp-config FILE  an mcporter config (mcpServers): each server\'s tools join every turn, namespaced by server;',
  '                     the servers start once and run until the worker stops',
  '  --allow-host H     let every agent\'s commands reach host H (through the sandbox\'s proxy; repeatable); an agent\'s',
  '                     file adds its own commands.allowHosts. Without any, commands have no network.',
  '  --unsandboxed-commands  run commands WITHOUT the OS sandbox (bubblewrap); they reach everything this user can',
  '  --brain            enable Brain for every agent: text turns get recall, get_page, create_page, update_page and',
  '                     delete_page; workflow task turns get the read-only recall and get_page',
  '  --model NAME       the model (default: $ANKOLE_MODEL, else gpt-5-mini)',
  '  --max-steps N      most model calls per turn (default 20)',
  '  --shutdown-grace-seconds N  how long running turns may finish after SIGTERM (default 30; 0: hand back at once)',
  '  --poll-interval-ms N        how often an idle worker looks for work (default 500)',
  '  --json             one JSON line per worker event',
  '  --demo             the offline demo model (no key needed): every turn gets a scripted one-line answer, every',
  '                     workflow task submits the smallest value its schema accepts. It never works a shared queue:',
  '                     only its own embedded database (--data-dir DIR, else a temporary one removed when it stops)',
  ...CONTROL_PLANE_OPTIONS_HELP,
  '  -h, --help         show this help',
  '',
  'Environment: DATABASE_URL, ANKOLE_DATA_DIR, ANKOLE_DB_SCHEMA, ANKOLE_LEASE_SECONDS (how long this worker\'s claim',
  'outlives its last heartbeat, sent every second; a dead worker\'s job goes to another after it, default 10),',
  'ANKOLE_MAINTENANCE_INTERVAL_SECONDS (how often it looks for such jobs, default 1),',
  'ANKOLE_MIN_SCHEDULE_INTERVAL_SECONDS (default 300), web tools as for `ankole run` (WEB_SEARCH_PROVIDER, ...).',
  'Defaults for the model, OPENAI_BASE_URL, --max-steps, the web tools, --mcp-config and --skills can be kept in',
  '$XDG_CONFIG_HOME/ankole/config.json (variables and flags win; `ankole config show`); each agent\'s',
  '$XDG_CONFIG_HOME/ankole/agents/<agent>.json gives its approval lists. A call that needs approval (a destructive',
  'tool\'s) is held for a person (`ankole approvals`) unless that file allows it: { "approvals": { "allow": ["command"] } }',
  'or { "approvals": { "background": "allow" } }.',
  '',
].join('\n');

/** `ankole worker`: the long-running worker. */
export const workerCommand: CliCommand = {
  name: 'worker',
  summary: 'run scheduled turns, background jobs and workflows from the queue until stopped (SIGTERM / Ctrl-C)',
  async run(args, cliIO) {
    const parsed = parseCommandLine('worker', args, OPTIONS);
    if (parsed.values.help === true) {
      cliIO.stdout.write(HELP);
      return EXIT_CODES.ok;
    }
    // The user's config file under the environment and the flags (model, base URL, step limit, web, MCP, skills);
    // each agent's own file gives its approval lists.
    const configured = await applyAnkoleConfig(parsed.values, cliIO, { perAgent: false, flags: Object.keys(OPTIONS) });
    const { values, io } = configured;
    const concurrency = positiveInteger(values, 'concurrency', 'worker') ?? 2;
    const maxSteps = positiveInteger(values, 'max-steps', 'worker');
    const pollIntervalMs = positiveInteger(values, 'poll-interval-ms', 'worker') ?? 500;
    const graceText = stringValue(values, 'shutdown-grace-seconds');
    const graceSeconds = graceText === undefined ? 30 : Number(graceText);
    if (!Number.isFinite(graceSeconds) || graceSeconds < 0) {
      throw new CliError('option_invalid', `--shutdown-grace-seconds of \`ankole worker\` must be 0 or more, got "${graceText}".`);
    }
    const workerId = stringValue(values, 'worker-id') ?? `${hostname()}-${process.pid}`;
    const homesOption = stringValue(values, 'homes');
    const homes = homesOption === undefined ? undefined : path.resolve(io.cwd, homesOption);
    const skillsOption = stringValue(values, 'skills');
    const skillsDir = skillsOption === undefined ? undefined : await existingFolder(path.resolve(io.cwd, skillsOption), '--skills');
    const mcpConfig = await mcpConfigOption(values, io);
    const brain = values.brain === true;
    const demo = values.demo === true;
    const keyless = (io.env.OPENAI_API_KEY ?? '').trim() === '';
    // A base URL alone is a local server that takes no key (Ollama, vLLM): used as it is.
    if (!demo && keyless && (io.env.OPENAI_BASE_URL ?? '').trim() === '') {
      throw new CliError(
        'model_missing',
        'ankole worker needs a real model: set OPENAI_API_KEY (and OPENAI_BASE_URL for any Responses-compatible server; a base URL alone for a local server that takes no key), or try it offline with --demo.',
      );
    }
    const modelName = stringValue(values, 'model');
    const baseURLFrom = baseURLSource(cliIO.env, configured.loaded);
    const model = demo ? await startDemoWorkerModel() : await openModel({ env: io.env, baseURLFrom, ...(modelName === undefined ? {} : { model: modelName }) });
    // Before any claim: a wrong or unreachable endpoint is one clear error (exit 1), not a queue of failed jobs.
    if (!model.offlineDemo) {
      try {
        await checkModelEndpoint({ baseURL: model.baseURL, model: model.model, baseURLFrom, apiKey: keyless ? KEYLESS_API_KEY : (io.env.OPENAI_API_KEY ?? '') });
      } catch (error) {
        await model.close();
        throw error;
      }
    }
    const json = values.json === true;
    // Each line carries its time: the local clock time for people, ISO 8601 (`time`) in --json.
    const log = (event: Record<string, unknown>, line: string) => {
      const now = new Date();
      io.stdout.write(json ? `${JSON.stringify({ time: now.toISOString(), ...event })}\n` : `${clockTime(now)} ${line}\n`);
    };
    const onDutyError = (error: unknown) => io.stderr.write(`ankole worker: background duty failed (retrying): ${(error as Error).message}\n`);
    // The demo never works a shared queue: its own embedded database only.
    const demoDatabase = demo ? await demoWorkerDatabase(values, io.cwd).catch(async (error: unknown) => {
      await model.close();
      throw error;
    }) : undefined;
    const { controlPlane, where } = await (demoDatabase === undefined ? openFromOptions(values, io, true, onDutyError) : openChosenControlPlane(demoDatabase.choice, io, true, onDutyError));
    // A refused token is one sentence now, not a refusal at every poll.
    await checkWorkerAccess(controlPlane.client, demoDatabase === undefined ? controlPlaneChoiceFromOptions(values, io) : demoDatabase.choice).catch(async (error: unknown) => {
      await controlPlane.close();
      await model.close();
      await demoDatabase?.remove();
      throw error;
    });
    const stop = new AbortController();
    const force = new AbortController();
    const onSignal = () => {
      if (!stop.signal.aborted) {
        log({ type: 'worker.stopping' }, `Stopping: no new work; running turns get ${graceSeconds} s to finish, then are handed back.`);
        stop.abort();
      } else force.abort();
    };
    const removeInterrupt = io.onInterrupt(onSignal);
    process.on('SIGTERM', onSignal);
    // One MCP tool source for the whole process: servers start at the first turn and stop with the worker.
    let mcp: WorkerMcpTools | undefined;
    // One command sandbox for the whole process, shared by every agent's turns (each call gets its own namespaces).
    const commands = commandsSetup(values, io);
    try {
      if (commands.sandbox !== 'unsandboxed') {
        const status = await commands.sandbox.status();
        if (!status.available) commands.refusal = status.reason;
      }
      if (commands.refusal !== undefined) log({ type: 'worker.warning', message: commands.refusal }, `! ${commands.refusal} Until then every command call is refused.`);
      if (mcpConfig !== undefined) mcp = createWorkerMcpTools({ configPath: mcpConfig, onEvent: (event) => log(event, mcpEventLine(event)) });
      log(
        { type: 'worker.started', workerId, concurrency, model: model.model, where, commands: describeCommands(commands) },
        `Worker ${workerId} started: ${concurrency} at a time, ${where}, ${describeCommands(commands)}, ${model.notice}${demoDatabase?.note ?? ''}`,
      );
      const webProfile = webProfileFromEnv(io.env);
      const summary = await runWorker({
        client: controlPlane.client,
        workerId,
        concurrency,
        gateway: model.gateway,
        signal: stop.signal,
        forceSignal: force.signal,
        shutdownGraceMs: graceSeconds * 1000,
        pollIntervalMs,
        ...(maxSteps === undefined ? {} : { maxSteps }),
        async turnContext(job) {
          if (!AGENT_NAME_PATTERN.test(job.agentId)) {
            throw new CliError('agent_invalid', `The job's agent "${job.agentId}" is not a valid agent name, so it has no home folder.`);
          }
          const agentConfig = await loadAnkoleConfig({ agent: job.agentId, env: io.env });
          // The job's own home (`jobs start --home`, a schedule's), else the agent config's `home`, else the worker's default.
          const home = await jobHome(job, agentConfig, homes, io.env);
          const extraTools = mcp === undefined ? undefined : await mcp.tools();
          // The agent's own file may allow more hosts than the worker's flags and user file.
          const agentHosts = configSetting(agentConfig, 'commands.allowHosts')?.value as string[] | undefined;
          const allowHosts = [...new Set([...commands.allowHosts, ...(agentHosts ?? [])])];
          return {
            home,
            commandSandbox: commands.sandbox,
            ...(allowHosts.length === 0 ? {} : { allowHosts }),
            ...(skillsDir === undefined ? {} : { skillsDir }),
            ...(webProfile === undefined ? {} : { webProfile }),
            ...(extraTools === undefined ? {} : { extraTools }),
            ...(brain ? { brain } : {}),
          };
        },
        approvals: (agentId) => readWorkerApprovalRules(agentId, io.env),
        taskContext: () => ({ ...(webProfile === undefined ? {} : { webProfile }), ...(brain ? { brain } : {}) }),
        onEvent: (event) => log(eventJson(event), eventLine(event)),
      });
      log(
        { type: 'worker.stopped', ...summary },
        `Worker ${workerId} stopped: ${summary.succeeded} succeeded, ${summary.failed} failed, ${summary.cancelled} cancelled, ${summary.released} handed back; ` +
          `workflow tasks: ${summary.tasks.succeeded} succeeded, ${summary.tasks.failed} failed, ${summary.tasks.cancelled} cancelled, ${summary.tasks.released} handed back, ${summary.tasks.held} held for approval; ${countOf(summary.advances, 'advance')}.`,
      );
      return EXIT_CODES.ok;
    } finally {
      process.off('SIGTERM', onSignal);
      removeInterrupt();
      await mcp?.close();
      await commands.close();
      await controlPlane.close();
      await model.close();
      await demoDatabase?.remove();
    }
  },
};

/**
 * The folder a job's turn runs in: the job's `home` (set by `jobs start --home` or its schedule), else the agent config's
 * `home`, else `--homes/<agent>` or the agent's default home (created).
 * @throws CliError when the job's or the config's home is not an existing folder on this machine.
 */
async function jobHome(job: { home: string | null; agentId: string }, loaded: LoadedConfig, homes: string | undefined, env: Readonly<Record<string, string | undefined>>): Promise<string> {
  const configured = configSetting(loaded, 'home');
  if (job.home !== null) return existingFolder(job.home, 'The job\'s home');
  if (configured !== undefined) return existingFolder(String(configured.value), `The home of ${configured.source}`);
  const home = homes === undefined ? defaultAgentHome(job.agentId, env) : path.join(homes, job.agentId);
  await mkdir(home, { recursive: true });
  return home;
}

async function existingFolder(folder: string, option: string): Promise<string> {
  const info = await stat(folder).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) throw new CliError('folder_not_found', `${option} ${folder} is not an existing folder.`);
  return folder;
}

function eventJson(event: WorkerEvent): Record<string, unknown> {
  if (event.type === 'worker.error') return { type: event.type, error: message(event.error) };
  if (event.type === 'advance.ran') return { type: event.type, ...event.report };
  if (event.type === 'job.retrying') return { ...event, job: { id: event.job.id, agentId: event.job.agentId, kind: event.job.kind, status: event.job.status, title: event.job.title } };
  if ('task' in event) {
    const task = event.task;
    return { ...event, task: { id: task.id, workflowId: task.workflowId, agentId: task.agentId, sequence: task.sequence, status: task.status, title: task.title } };
  }
  return { ...event, job: { id: event.job.id, agentId: event.job.agentId, kind: event.job.kind, status: event.job.status, title: event.job.title } };
}

function eventLine(event: WorkerEvent): string {
  if (event.type === 'worker.error') return `! ${message(event.error)}`;
  if (event.type === 'advance.ran') {
    const report = event.report;
    return `⟳ workflow ${report.workflowId} (agent ${report.agentId}): advanced in ${formatDuration(report.durationMs)}, ${countOf(report.newTasks, 'new task')}, ${report.status}`;
  }
  if (event.type === 'job.retrying' || event.type === 'task.retrying') {
    const what = event.type === 'job.retrying' ? `job ${event.job.id} (agent ${event.job.agentId})` : `task ${event.task.id} (workflow ${event.task.workflowId})`;
    return `… ${what}: model call ${event.attempt} of ${event.attempts} failed, trying again in ${formatDuration(event.delayMs)}: ${event.error}`;
  }
  if ('task' in event) return taskEventLine(event);
  const job = event.job;
  const name = `job ${job.id} (${job.kind}, agent ${job.agentId}) "${job.title}"`;
  switch (event.type) {
    case 'job.claimed':
      return `▶ ${name}: running (attempt ${event.job.attempts})`;
    case 'job.succeeded':
      return `✓ ${name}: succeeded in ${formatDuration(event.durationMs)}${deniedPart(event)}`;
    case 'job.failed':
      return `✗ ${name}: failed in ${formatDuration(event.durationMs)}${deniedPart(event)}: ${event.error}`;
    case 'job.cancelled':
      return `■ ${name}: cancelled, turn stopped after ${formatDuration(event.durationMs)}${deniedPart(event)}`;
    case 'job.released':
      return `↩ ${name}: handed back to the queue`;
    case 'job.lost':
      return `↷ ${name}: taken over by another worker (this worker's claim expired)`;
    case 'job.awaiting_approval':
      return `⏸ ${name}: ${countOf(event.calls, 'call')} held for approval${deniedPart(event)} (ankole approvals list --agent ${job.agentId})`;
  }
}

function taskEventLine(event: WorkerTaskEvent): string {
  const task = event.task;
  const name = `task ${task.id} (workflow ${task.workflowId}, agent ${task.agentId}) "${task.title}"`;
  switch (event.type) {
    case 'task.claimed':
      return `▶ ${name}: running (attempt ${event.task.attempts})`;
    case 'task.succeeded':
      return `✓ ${name}: result stored in ${formatDuration(event.durationMs)}${deniedPart(event)}`;
    case 'task.failed':
      return `✗ ${name}: failed in ${formatDuration(event.durationMs)}${deniedPart(event)}: ${event.error}`;
    case 'task.cancelled':
      return `■ ${name}: cancelled, turn stopped after ${formatDuration(event.durationMs)}${deniedPart(event)}`;
    case 'task.released':
      return `↩ ${name}: handed back to the queue`;
    case 'task.lost':
      return `↷ ${name}: taken over by another worker (or its result refused); nothing stored by this worker`;
    case 'task.awaiting_approval':
      return `⏸ ${name}: ${countOf(event.calls, 'call')} held for approval${deniedPart(event)}, its workflow waits (ankole approvals list --agent ${task.agentId})`;
  }
}

/** `, 1 call denied by the config` after a turn's outcome, when its turn had denied calls. */
function deniedPart(event: TurnDenials): string {
  const words = event.deniedCalls === undefined ? undefined : describeDeniedCalls(event.deniedCalls);
  return words === undefined ? '' : `, ${words}`;
}

function mcpEventLine(event: WorkerMcpEvent): string {
  return event.type === 'mcp.unavailable' ? `! ${event.reason}` : `MCP server "${event.server}" answers again: its tools are back in the turns.`;
}

/** `09:03:12`: the local clock time a worker log line starts with. */
function clockTime(date: Date): string {
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
}

function message(error: unknown): string {
  return error instanceof AnkoleError || error instanceof Error ? error.message : String(error);
}

