import type { ControlPlaneClient, JobRecord, JobStatus } from '@core/control-plane-client';
import { alreadyFinished } from '../already-finished.js';
import { followUntilFinished } from '../follow-until-finished.js';
import { resolveIdPrefix } from '../id-prefix.js';
import { countOf } from '../../render/plural.js';
import { describeTime } from '../../render/relative-time.js';
import type { CliCommand } from '../cli-command.js';
import { CliError, EXIT_CODES } from '../cli-error.js';
import { parseCommandLine, positiveInteger, stringValue, stringValues } from '../parse-command-line.js';
import { agentOption, CONTROL_PLANE_OPTIONS, CONTROL_PLANE_OPTIONS_HELP, controlPlaneChoiceFromOptions, formatTable, openFromOptions } from '../../control-plane/control-plane-options.js';
import { queuedWorkHome } from '../turn-home.js';

const OPTIONS = {
  ...CONTROL_PLANE_OPTIONS,
  agent: { type: 'string' },
  status: { type: 'string', multiple: true },
  limit: { type: 'string' },
  title: { type: 'string' },
  home: { type: 'string' },
  transcript: { type: 'boolean' },
  wait: { type: 'boolean' },
  follow: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const STATUSES: readonly JobStatus[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'awaiting_approval'];

const HELP = [
  'Usage: ankole jobs [list]                 list the agent\'s background jobs, newest first',
  '       ankole jobs show <id>              one job, with its prompt and final answer or error',
  '       ankole jobs show <id> --transcript its turn drawn as it ran (every tool call; --json: the stored events)',
  '       ankole jobs cancel <id>            cancel a queued or running job (a running turn stops within seconds)',
  '       ankole jobs start "<prompt>"       queue a background job for `ankole worker` to run',
  '       ankole jobs start "<prompt>" --wait  queue it, then wait until it finishes and show it (exit 1: failed or cancelled)',
  '       ankole jobs show <id> --follow     wait until the job finishes, saying each change of status, then show it',
  '',
  'Options:',
  '  --agent NAME       the agent (default: "default")',
  '  --status S         only jobs with this status (queued, running, awaiting_approval, succeeded, failed, cancelled;',
  '                     repeatable)',
  '  --limit N          most jobs to list (default 50)',
  '  --title TEXT       the title of a job to start',
  '  --home DIR         the folder the job runs in (default: the agent config\'s home, else the worker\'s default home)',
  '  --wait             with start: wait until the job finishes (exit 0 when it succeeded, 1 otherwise)',
  '  --follow           with show: the same for a job already started',
  '  --transcript       with show: the turn\'s transcript, each claim of the job (a crash recovery or a resume starts one)',
  '  --json             print JSON',
  ...CONTROL_PLANE_OPTIONS_HELP,
  '  -h, --help         show this help',
  '',
].join('\n');

/** `ankole jobs`: list, show, cancel and start background jobs of an agent. */
export const jobsCommand: CliCommand = {
  name: 'jobs',
  summary: 'list, show, cancel or start background jobs',
  async run(args, io) {
    const { values, positionals } = parseCommandLine('jobs', args, OPTIONS);
    if (values.help === true) {
      io.stdout.write(HELP);
      return EXIT_CODES.ok;
    }
    const [action = 'list', ...rest] = positionals;
    if (!['list', 'show', 'cancel', 'start'].includes(action)) {
      throw new CliError('action_unknown', `Unknown action "${action}" for \`ankole jobs\`: use list, show, cancel or start (see \`ankole jobs --help\`).`);
    }
    const agentId = agentOption(values);
    const statuses = stringValues(values, 'status').flatMap((text) => text.split(',')).map((text) => text.trim());
    const badStatus = statuses.find((status) => !STATUSES.includes(status as JobStatus));
    if (badStatus !== undefined) throw new CliError('option_invalid', `--status "${badStatus}" is not a job status: use ${STATUSES.join(', ')}.`);
    const limit = positiveInteger(values, 'limit', 'jobs');
    const needsId = action === 'show' || action === 'cancel';
    if (needsId && rest.length !== 1) throw new CliError('arguments_invalid', `Give one job id: ankole jobs ${action} <id>.`);
    const prompt = rest.join(' ').trim();
    if (action === 'start' && prompt === '') throw new CliError('prompt_missing', 'Give the prompt of the job: ankole jobs start "<prompt>".');
    if (values.transcript === true && action !== 'show') throw new CliError('option_invalid', '--transcript goes with show: ankole jobs show <id> --transcript.');
    if (values.wait === true && action !== 'start') throw new CliError('option_invalid', '--wait goes with start: ankole jobs start "<prompt>" --wait (to wait for a job already started: ankole jobs show <id> --follow).');
    if (values.follow === true && (action !== 'show' || values.transcript === true)) throw new CliError('option_invalid', '--follow goes with show: ankole jobs show <id> --follow.');

    const home = action === 'start' ? await queuedWorkHome({ given: stringValue(values, 'home'), agent: agentId, cwd: io.cwd, env: io.env, remote: controlPlaneChoiceFromOptions(values, io).kind === 'http' }) : undefined;
    const { controlPlane, changes } = await openFromOptions(values, io, false);
    try {
      const { client } = controlPlane;
      const json = values.json === true;
      if (action === 'list') {
        const jobs = await client.jobs.list({ agentId, ...(statuses.length > 0 ? { status: statuses as JobStatus[] } : {}), ...(limit === undefined ? {} : { limit }) });
        if (json) io.stdout.write(`${JSON.stringify(jobs)}\n`);
        else if (jobs.length === 0) io.stdout.write(`No background jobs for agent ${agentId}.\n`);
        else {
          io.stdout.write(
            `${formatTable(
              ['ID', 'STATUS', 'KIND', 'CREATED', 'TITLE'],
              jobs.map((job) => [job.id, job.status, job.kind, describeTime(job.createdAt), job.title]),
            )}\n`,
          );
        }
        return EXIT_CODES.ok;
      }
      if (action === 'show' && values.transcript === true) {
        const transcript = await client.transcripts.get({ agentId, jobId: await jobId(client, agentId, rest[0]!) });
        if (json) io.stdout.write(`${JSON.stringify(transcript)}\n`);
        else {
          const { drawTranscript } = await import('../../render/draw-transcript.js');
          drawTranscript({ attempts: transcript.attempts, what: `job ${transcript.jobId}`, io });
        }
        return EXIT_CODES.ok;
      }
      const job =
        action === 'show'
          ? await client.jobs.get({ agentId, jobId: await jobId(client, agentId, rest[0]!) })
          : action === 'cancel'
            ? await cancelUnfinished(client, agentId, await jobId(client, agentId, rest[0]!))
            : await client.jobs.start({ agentId, prompt, title: stringValue(values, 'title'), home });
      if (values.wait === true || values.follow === true) {
        if (!json && action === 'start') io.stdout.write(`${describeJob(job, action)}\n`);
        const done = await followUntilFinished({
          read: () => client.jobs.get({ agentId, jobId: job.id }),
          changes,
          about: (change) => change.kind === 'job' && change.id === job.id,
          finished: (status) => status === 'succeeded' || status === 'failed' || status === 'cancelled',
          onStatus: (record) => io.stderr.write(`${STATUS_LINES[record.status](record)}\n`),
        });
        io.stdout.write(json ? `${JSON.stringify(done)}\n` : `${describeJob(done, 'show')}\n`);
        return done.status === 'succeeded' ? EXIT_CODES.ok : EXIT_CODES.failure;
      }
      io.stdout.write(json ? `${JSON.stringify(job)}\n` : `${describeJob(job, action)}\n`);
      return EXIT_CODES.ok;
    } finally {
      await controlPlane.close();
    }
  },
};

/** What `--wait` and `--follow` say on stderr as a job's status changes. */
const STATUS_LINES: Record<JobStatus, (job: JobRecord) => string> = {
  queued: (job) => `· job ${job.id} is queued: waiting for \`ankole worker\` to run it (Ctrl-C stops waiting; the job stays).`,
  running: (job) => `▶ job ${job.id} is running${job.workerId === null ? '' : ` on ${job.workerId}`}.`,
  awaiting_approval: (job) => `⏸ job ${job.id} holds calls for approval: ankole approvals list --agent ${job.agentId}.`,
  succeeded: (job) => `✓ job ${job.id} succeeded.`,
  failed: (job) => `✗ job ${job.id} failed.`,
  cancelled: (job) => `■ job ${job.id} was cancelled.`,
};

/** The job id a user means: the whole id or a unique prefix of one of the agent's latest 500 jobs. */
function jobId(client: ControlPlaneClient, agentId: string, given: string): Promise<string> {
  return resolveIdPrefix({ given, kind: 'job', agentId, candidates: async () => (await client.jobs.list({ agentId, limit: 500 })).map((job) => job.id) });
}

/**
 * Cancels a job that is still queued or running.
 * @throws CliError (exit code 1, `job_finished`) when it had already finished: there was nothing to cancel.
 */
async function cancelUnfinished(client: ControlPlaneClient, agentId: string, jobId: string): Promise<JobRecord> {
  const current = await client.jobs.get({ agentId, jobId });
  if (current.status !== 'queued' && current.status !== 'running' && current.status !== 'awaiting_approval') {
    throw alreadyFinished({ kind: 'Job', id: current.id, status: current.status, action: 'cancel' });
  }
  return client.jobs.cancel({ agentId, jobId });
}

function describeJob(job: JobRecord, action: string): string {
  const lead = action === 'cancel' ? `Job ${job.id} is ${job.status}.` : action === 'start' ? `Queued job ${job.id}.` : `Job ${job.id}`;
  const lines = [lead, `  title:    ${job.title}`, `  status:   ${job.status} (${job.kind}, ${countOf(job.attempts, 'attempt')})`, `  created:  ${describeTime(job.createdAt)}`];
  if (job.home !== null) lines.push(`  home:     ${job.home}`);
  if (job.scheduleId !== null) lines.push(`  schedule: ${job.scheduleId}, its run at ${job.fireAt === null ? '-' : describeTime(job.fireAt)}`);
  if (job.startedAt !== null) lines.push(`  started:  ${describeTime(job.startedAt)}${job.workerId === null ? '' : ` by ${job.workerId}`}`);
  if (job.finishedAt !== null) lines.push(`  finished: ${describeTime(job.finishedAt)}`);
  if (action === 'show') lines.push(`  prompt:   ${job.prompt}`);
  if (job.error !== null) lines.push(`  error:    ${job.error}`);
  if (job.finalAnswer !== null && action === 'show') lines.push('', job.finalAnswer);
  return lines.join('\n');
}
