import type { ControlPlaneClient, JobRecord, ScheduleRecord } from '@core/control-plane-client';
import type { CliCommand } from '../cli-command.js';
import { CliError, EXIT_CODES } from '../cli-error.js';
import { alreadyFinished } from '../already-finished.js';
import { resolveIdPrefix } from '../id-prefix.js';
import { inFlagTerms } from '../in-flag-terms.js';
import { describeTime } from '../../render/relative-time.js';
import { parseCommandLine, stringValue } from '../parse-command-line.js';
import { agentOption, CONTROL_PLANE_OPTIONS, CONTROL_PLANE_OPTIONS_HELP, controlPlaneChoiceFromOptions, formatTable, openFromOptions } from '../../control-plane/control-plane-options.js';
import { queuedWorkHome } from '../turn-home.js';

const OPTIONS = {
  ...CONTROL_PLANE_OPTIONS,
  agent: { type: 'string' },
  all: { type: 'boolean' },
  cron: { type: 'string' },
  'time-zone': { type: 'string' },
  at: { type: 'string' },
  title: { type: 'string' },
  home: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const HELP = [
  'Usage: ankole schedules [list]            list the agent\'s active schedules (--all: cancelled and completed too)',
  '       ankole schedules show <id>         a schedule and the jobs it started (newest first)',
  '       ankole schedules cancel <id>       cancel a schedule',
  '       ankole schedules create (--cron EXPR [--time-zone TZ] | --at DATE-TIME) "<prompt>"',
  '                                          start a turn with the prompt at cron times, or once',
  '',
  'Options:',
  '  --agent NAME       the agent (default: "default")',
  '  --cron EXPR        "minute hour day-of-month month day-of-week", e.g. "0 9 * * 1-5"',
  '  --time-zone TZ     the IANA time zone of --cron (default UTC)',
  '  --at DATE-TIME     ISO 8601 with an offset, e.g. 2026-12-01T09:00:00+01:00',
  '  --title TEXT       a short name',
  '  --home DIR         the folder its turns run in (default: the agent config\'s home, else the worker\'s default home)',
  '  --json             print JSON',
  ...CONTROL_PLANE_OPTIONS_HELP,
  '  -h, --help         show this help',
  '',
].join('\n');

/** `ankole schedules`: list, cancel and create an agent's schedules. */
export const schedulesCommand: CliCommand = {
  name: 'schedules',
  summary: 'list, cancel or create schedules that start turns later',
  async run(args, io) {
    const { values, positionals } = parseCommandLine('schedules', args, OPTIONS);
    if (values.help === true) {
      io.stdout.write(HELP);
      return EXIT_CODES.ok;
    }
    const [action = 'list', ...rest] = positionals;
    if (!['list', 'show', 'cancel', 'create'].includes(action)) {
      throw new CliError('action_unknown', `Unknown action "${action}" for \`ankole schedules\`: use list, show, cancel or create (see \`ankole schedules --help\`).`);
    }
    const agentId = agentOption(values);
    if ((action === 'cancel' || action === 'show') && rest.length !== 1) throw new CliError('arguments_invalid', `Give one schedule id: ankole schedules ${action} <id>.`);
    const prompt = rest.join(' ').trim();
    if (action === 'create' && prompt === '') throw new CliError('prompt_missing', 'Give the prompt of the scheduled turn: ankole schedules create --cron "0 9 * * *" "<prompt>".');

    const home = action === 'create' ? await queuedWorkHome({ given: stringValue(values, 'home'), agent: agentId, cwd: io.cwd, env: io.env, remote: controlPlaneChoiceFromOptions(values, io).kind === 'http' }) : undefined;
    const { controlPlane } = await openFromOptions(values, io, false);
    try {
      const { client } = controlPlane;
      const json = values.json === true;
      if (action === 'list') {
        const schedules = await client.schedules.list({ agentId, includeInactive: values.all === true });
        if (json) io.stdout.write(`${JSON.stringify(schedules)}\n`);
        else if (schedules.length === 0) io.stdout.write(`No ${values.all === true ? '' : 'active '}schedules for agent ${agentId}.\n`);
        else {
          io.stdout.write(
            `${formatTable(
              ['ID', 'STATUS', 'NEXT RUN', 'WHEN', 'TITLE'],
              schedules.map((schedule) => [schedule.id, schedule.status, nextRun(schedule, 0), schedule.description, schedule.title]),
            )}\n`,
          );
        }
        return EXIT_CODES.ok;
      }
      if (action === 'show') {
        const scheduleId = await resolveIdPrefix({
          given: rest[0]!,
          kind: 'schedule',
          agentId,
          candidates: async () => (await client.schedules.list({ agentId, includeInactive: true })).map((schedule) => schedule.id),
        });
        const schedule = await client.schedules.get({ agentId, scheduleId });
        const jobs = (await client.jobs.list({ agentId, limit: 500 })).filter((job) => job.scheduleId === schedule.id);
        if (json) io.stdout.write(`${JSON.stringify({ schedule, jobs })}\n`);
        else io.stdout.write(`${describeSchedule(schedule, action)}\n\n${describeScheduleJobs(jobs)}\n`);
        return EXIT_CODES.ok;
      }
      const schedule =
        action === 'cancel'
          ? await cancelActive(client, agentId, await resolveIdPrefix({
              given: rest[0]!,
              kind: 'schedule',
              agentId,
              candidates: async () => (await client.schedules.list({ agentId, includeInactive: true })).map((schedule) => schedule.id),
            }))
          : await client.schedules
              .create({
                agentId,
                prompt,
                title: stringValue(values, 'title'),
                home,
                cron: stringValue(values, 'cron'),
                timeZone: stringValue(values, 'time-zone'),
                runAt: stringValue(values, 'at'),
              })
              .catch((error: unknown) => {
                throw inFlagTerms(error, { command: 'ankole schedules create', operation: 'schedules.create', flags: CREATE_FLAGS });
              });
      io.stdout.write(json ? `${JSON.stringify(schedule)}\n` : `${describeSchedule(schedule, action)}\n`);
      return EXIT_CODES.ok;
    } finally {
      await controlPlane.close();
    }
  },
};

/** A schedule's next run for people: in the schedule's own time zone when it has one (a Paris cron in Paris time). */
function nextRun(schedule: ScheduleRecord, index: number): string {
  const iso = schedule.nextRunTimes[index];
  return iso === undefined ? '-' : describeTime(iso, { timeZone: schedule.timeZone ?? undefined });
}

/** The flags of `ankole schedules create` by the input field they set. */
const CREATE_FLAGS = { runAt: '--at', timeZone: '--time-zone', cron: '--cron', title: '--title', home: '--home' } as const;

/**
 * Cancels a schedule that is still active.
 * @throws CliError (exit code 1, `schedule_inactive`) when it was already cancelled or completed.
 */
async function cancelActive(client: ControlPlaneClient, agentId: string, scheduleId: string): Promise<ScheduleRecord> {
  const current = await client.schedules.get({ agentId, scheduleId });
  if (current.status !== 'active') {
    throw alreadyFinished({ kind: 'Schedule', id: current.id, status: current.status, action: 'cancel' });
  }
  return client.schedules.cancel({ agentId, scheduleId });
}

/** The jobs a schedule started, as a table (or a line saying there are none yet). */
function describeScheduleJobs(jobs: JobRecord[]): string {
  if (jobs.length === 0) return 'It has started no jobs yet.';
  return `Jobs it started (${jobs.length}):\n${formatTable(
    ['ID', 'STATUS', 'RUN AT', 'FINISHED'],
    jobs.map((job) => [job.id, job.status, job.fireAt === null ? '-' : describeTime(job.fireAt), job.finishedAt === null ? '-' : describeTime(job.finishedAt)]),
  )}`;
}

function describeSchedule(schedule: ScheduleRecord, action: string): string {
  return [
    action === 'cancel' ? `Schedule ${schedule.id} is ${schedule.status}.` : action === 'show' ? `Schedule ${schedule.id} (${schedule.status})` : `Created schedule ${schedule.id}.`,
    `  title:     ${schedule.title}`,
    `  when:      ${schedule.description}`,
    ...(schedule.home === null ? [] : [`  home:      ${schedule.home}`]),
    `  next runs: ${schedule.nextRunTimes.length === 0 ? 'none' : schedule.nextRunTimes.map((_, index) => nextRun(schedule, index)).join(', ')}`,
  ].join('\n');
}
