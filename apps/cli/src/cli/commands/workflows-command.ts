import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ControlPlaneClient, JsonValue, WorkflowRecord, WorkflowStatus } from '@core/control-plane-client';
import { describeTime } from '../../render/relative-time.js';
import type { CliCommand } from '../cli-command.js';
import type { CliIO } from '../cli-io.js';
import { CliError, EXIT_CODES } from '../cli-error.js';
import { alreadyFinished } from '../already-finished.js';
import { followUntilFinished } from '../follow-until-finished.js';
import { resolveIdPrefix } from '../id-prefix.js';
import { parseCommandLine, positiveInteger, stringValue, stringValues, type ParsedCommandLine } from '../parse-command-line.js';
import { agentOption, CONTROL_PLANE_OPTIONS, CONTROL_PLANE_OPTIONS_HELP, formatTable, openFromOptions } from '../../control-plane/control-plane-options.js';
import { formatWorkflowTree } from './workflow-tree.js';

const OPTIONS = {
  ...CONTROL_PLANE_OPTIONS,
  agent: { type: 'string' },
  script: { type: 'string' },
  input: { type: 'string' },
  title: { type: 'string' },
  notify: { type: 'boolean' },
  wait: { type: 'boolean' },
  follow: { type: 'boolean' },
  transcript: { type: 'boolean' },
  status: { type: 'string', multiple: true },
  limit: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const STATUSES: readonly WorkflowStatus[] = ['running', 'succeeded', 'failed', 'cancelled'];

const HELP = [
  'Usage: ankole workflows [list]            list the agent\'s workflows, newest first',
  '       ankole workflows show <id>         one workflow: its tasks as a tree with statuses and durations, result, log',
  '       ankole workflows cancel <id>       cancel a running workflow (queued tasks never run, running ones stop)',
  '       ankole workflows start --script FILE [--input JSON] [--title TEXT] [--notify]',
  '                                          start a workflow script for `ankole worker` to run',
  '       ankole workflows start ... --wait  then wait until it finishes and show it (exit 1: failed or cancelled)',
  '       ankole workflows show <id> --follow  wait until it finishes, saying each change of status, then show it',
  '       ankole workflows show <id> --transcript  each task\'s turn drawn as it ran (--json: the stored events)',
  '',
  'A workflow script is JavaScript run in a sandbox: `input` is the --input value, `task({ title, prompt, result })`',
  'runs a sub-agent task whose result matches the closed JSON schema `result`, `log(...)` records progress, and the',
  'returned value is the workflow\'s result. Workers replay the script from the start whenever tasks finish.',
  'A task\'s turn gets only submit_result (its arguments are the result), plus the web tools when the worker has a',
  'web profile and Brain\'s read-only recall and get_page when Brain is on: no files, commands, jobs or schedules.',
  '',
  'Options:',
  '  --agent NAME       the agent (default: "default")',
  '  --script FILE      the workflow script to start',
  '  --input JSON       the script\'s `input` (default null)',
  '  --title TEXT       the title of a workflow to start (default: the script\'s file name)',
  '  --notify           when it finishes, queue a turn for the agent with the outcome',
  '  --wait             with start: wait until the workflow finishes (exit 0 when it succeeded, 1 otherwise)',
  '  --follow           with show: the same for a workflow already started',
  '  --transcript       with show: the turns of its tasks as they ran',
  '  --status S         only workflows with this status (running, succeeded, failed, cancelled; repeatable)',
  '  --limit N          most workflows to list (default 50)',
  '  --json             print JSON',
  ...CONTROL_PLANE_OPTIONS_HELP,
  '  -h, --help         show this help',
  '',
].join('\n');

/** `ankole workflows`: start, list, show and cancel an agent's workflows. */
export const workflowsCommand: CliCommand = {
  name: 'workflows',
  summary: 'start, list, show or cancel workflows (scripts that orchestrate sub-agent tasks)',
  async run(args, io) {
    const { values, positionals } = parseCommandLine('workflows', args, OPTIONS);
    if (values.help === true) {
      io.stdout.write(HELP);
      return EXIT_CODES.ok;
    }
    const [action = 'list', ...rest] = positionals;
    if (!['list', 'show', 'cancel', 'start'].includes(action)) {
      throw new CliError('action_unknown', `Unknown action "${action}" for \`ankole workflows\`: use list, show, cancel or start (see \`ankole workflows --help\`).`);
    }
    const agentId = agentOption(values);
    const statuses = stringValues(values, 'status').flatMap((text) => text.split(',')).map((text) => text.trim());
    const badStatus = statuses.find((status) => !STATUSES.includes(status as WorkflowStatus));
    if (badStatus !== undefined) throw new CliError('option_invalid', `--status "${badStatus}" is not a workflow status: use ${STATUSES.join(', ')}.`);
    const limit = positiveInteger(values, 'limit', 'workflows');
    if ((action === 'show' || action === 'cancel') && rest.length !== 1) throw new CliError('arguments_invalid', `Give one workflow id: ankole workflows ${action} <id>.`);
    if (action === 'start' && rest.length > 0) throw new CliError('arguments_invalid', 'ankole workflows start takes the script as --script FILE, not as arguments.');
    const start = action === 'start' ? await startInput(values, io.cwd) : undefined;
    if (values.wait === true && action !== 'start') throw new CliError('option_invalid', '--wait goes with start (to wait for a workflow already started: ankole workflows show <id> --follow).');
    if (values.transcript === true && (action !== 'show' || values.follow === true)) throw new CliError('option_invalid', '--transcript goes with show: ankole workflows show <id> --transcript.');
    if (values.follow === true && action !== 'show') throw new CliError('option_invalid', '--follow goes with show: ankole workflows show <id> --follow.');

    const { controlPlane, changes } = await openFromOptions(values, io, false);
    try {
      const { client } = controlPlane;
      const json = values.json === true;
      if (action === 'list') {
        const workflows = await client.workflows.list({ agentId, ...(statuses.length > 0 ? { status: statuses as WorkflowStatus[] } : {}), limit: limit ?? 50 });
        if (json) io.stdout.write(`${JSON.stringify(workflows)}\n`);
        else if (workflows.length === 0) io.stdout.write(`No workflows for agent ${agentId}.\n`);
        else {
          io.stdout.write(
            `${formatTable(
              ['ID', 'STATUS', 'TASKS', 'REPLAYS', 'CREATED', 'TITLE'],
              workflows.map((workflow) => [
                workflow.id,
                workflow.status,
                String(workflow.taskCount),
                String(workflow.replays),
                describeTime(workflow.createdAt),
                workflow.title,
              ]),
            )}\n`,
          );
        }
        return EXIT_CODES.ok;
      }
      const workflowId =
        action === 'start'
          ? ''
          : await resolveIdPrefix({
              given: rest[0]!,
              kind: 'workflow',
              agentId,
              candidates: async () => (await client.workflows.list({ agentId, limit: 500 })).map((workflow) => workflow.id),
            });
      if (action === 'show' && values.transcript === true) {
        await showTaskTranscripts(client, agentId, workflowId, json, io);
        return EXIT_CODES.ok;
      }
      if (action === 'show' || values.wait === true) {
        const id = action === 'show' ? workflowId : (await client.workflows.start({ agentId, ...start! })).id;
        if (action === 'start') io.stderr.write(`Started workflow ${id}; waiting for \`ankole worker\` to run it (Ctrl-C stops waiting; the workflow goes on).\n`);
        const workflow =
          values.follow === true || values.wait === true
            ? await followUntilFinished({
                read: () => client.workflows.get({ agentId, workflowId: id }),
                changes,
                about: (change) => (change.kind === 'workflow' && change.id === id) || (change.kind === 'task' && change.workflowId === id),
                finished: (status) => status !== 'running',
                onStatus: (record) => io.stderr.write(`${record.status === 'running' ? '▶' : '•'} workflow ${record.id} is ${record.status}.\n`),
              })
            : await client.workflows.get({ agentId, workflowId: id });
        io.stdout.write(json ? `${JSON.stringify(workflow)}\n` : `${formatWorkflowTree(workflow, new Date().toISOString())}\n`);
        const waited = values.follow === true || values.wait === true;
        return !waited || workflow.status === 'succeeded' ? EXIT_CODES.ok : EXIT_CODES.failure;
      }
      const workflow =
        action === 'cancel' ? await cancelRunning(client, agentId, workflowId) : await client.workflows.start({ agentId, ...start! });
      io.stdout.write(json ? `${JSON.stringify(workflow)}\n` : `${describeWorkflow(workflow, action)}\n`);
      return EXIT_CODES.ok;
    } finally {
      await controlPlane.close();
    }
  },
};

/**
 * Cancels a running workflow.
 * @throws CliError (exit code 1, `workflow_finished`) when it had already finished: there was nothing to cancel.
 */
async function cancelRunning(client: ControlPlaneClient, agentId: string, workflowId: string): Promise<WorkflowRecord> {
  const current = await client.workflows.get({ agentId, workflowId });
  if (current.status !== 'running') throw alreadyFinished({ kind: 'Workflow', id: current.id, status: current.status, action: 'cancel' });
  return client.workflows.cancel({ agentId, workflowId });
}

/** `workflows show <id> --transcript`: each task's stored turn, drawn as `ankole run` draws one (or as JSON). */
async function showTaskTranscripts(client: ControlPlaneClient, agentId: string, workflowId: string, json: boolean, io: CliIO): Promise<void> {
  const workflow = await client.workflows.get({ agentId, workflowId });
  const transcripts = [];
  for (const task of workflow.tasks) transcripts.push({ task, transcript: await client.transcripts.get({ agentId, taskId: task.id }) });
  if (json) {
    io.stdout.write(`${JSON.stringify(transcripts.map(({ task, transcript }) => ({ title: task.title, ...transcript })))}\n`);
    return;
  }
  if (transcripts.length === 0) {
    io.stdout.write(`Workflow ${workflow.id} has no tasks yet.\n`);
    return;
  }
  const { drawTranscript } = await import('../../render/draw-transcript.js');
  transcripts.forEach(({ task, transcript }, index) => {
    if (index > 0) io.stdout.write('\n');
    drawTranscript({ attempts: transcript.attempts, what: `task ${task.sequence + 1}. "${task.title}" (${task.id})`, io });
  });
}

interface StartFields {
  title: string;
  script: string;
  input: JsonValue;
  notifyOnFinish: boolean;
}

/**
 * The script, input and title of `workflows start`, read and checked before the database is opened.
 * @throws CliError when --script is missing or unreadable, or --input is not JSON.
 */
async function startInput(values: ParsedCommandLine['values'], cwd: string): Promise<StartFields> {
  const scriptOption = stringValue(values, 'script');
  if (scriptOption === undefined) throw new CliError('script_missing', 'Give the workflow script: ankole workflows start --script FILE.');
  const file = path.resolve(cwd, scriptOption);
  const script = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new CliError('script_unreadable', `--script ${file} cannot be read (${error.code ?? error.message}).`);
  });
  const inputText = stringValue(values, 'input');
  const title = stringValue(values, 'title') ?? path.basename(file).replace(/\.[^.]*$/, '');
  return { title, script, input: inputText === undefined ? null : parseJsonOption(inputText), notifyOnFinish: values.notify === true };
}

/**
 * The `--input` value as JSON.
 * @throws CliError naming the problem when it is not valid JSON.
 */
function parseJsonOption(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw new CliError('option_invalid', `--input of \`ankole workflows start\` must be JSON (e.g. '{"topics":["a","b"]}'): ${(error as Error).message}.`);
  }
}

function describeWorkflow(workflow: WorkflowRecord, action: string): string {
  const lead = action === 'cancel' ? `Workflow ${workflow.id} is ${workflow.status}.` : `Started workflow ${workflow.id}; \`ankole worker\` runs it.`;
  const lines = [lead, `  title:   ${workflow.title}`, `  status:  ${workflow.status}`, `  tasks:   ${workflow.taskCount}`, `  created: ${describeTime(workflow.createdAt)}`];
  if (workflow.notifyOnFinish) lines.push('  notify:  a turn for the agent with the outcome when it finishes');
  if (workflow.error !== null) lines.push(`  error:   ${workflow.error}`);
  return lines.join('\n');
}
