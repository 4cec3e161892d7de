import type { ControlPlaneClient, ScheduleRecord } from '@core/control-plane-client';
import { activityLabel, defineWorkerTool, refusalToolResult, type AnyWorkerAgentTool } from '@core/runtime';
import { z } from 'zod';
import { formatSchedule } from './format-schedule.js';

/** What the schedule tools are built from: the turn's control-plane client and the agent it acts for. */
export interface ScheduleToolsContext {
  /** The control plane (in process or remote); only `schedules` is used. */
  client: Pick<ControlPlaneClient, 'schedules'>;
  /** The agent whose schedules these are; every call carries it. */
  agentId: string;
}

const createSchema = z.object({
  prompt: z.string().describe('The instruction the scheduled turn starts with, written so it makes sense on its own later.'),
  title: z.string().optional().describe('A short name for the schedule.'),
  cron: z
    .string()
    .optional()
    .describe('For a repeating schedule: a cron expression "minute hour day-of-month month day-of-week", e.g. "0 9 * * 1-5".'),
  timeZone: z.string().optional().describe('The IANA time zone the cron expression is read in, e.g. "Europe/Paris" (default UTC).'),
  runAt: z
    .string()
    .optional()
    .describe('For a one-time schedule instead of cron: an ISO 8601 date-time with offset, e.g. "2026-12-01T09:00:00+01:00".'),
});
const listSchema = z.object({
  includeInactive: z.boolean().optional().describe('Also list cancelled and completed schedules.'),
});
const cancelSchema = z.object({ scheduleId: z.string().describe('The id from schedule_create or schedule_list.') });

/** The schedule's record, in `details`. */
export interface ScheduleToolDetails {
  schedule?: ScheduleRecord;
  schedules?: ScheduleRecord[];
  code?: string;
}

/**
 * Creates `schedule_create`, `schedule_list` and `schedule_cancel` for one agent: schedules start a
 * turn with their prompt later, at cron times (with a time zone) or once at a date-time. Invalid
 * crons, past times, too-frequent crons and unknown ids come back as error outputs the model can
 * act on; results show the schedule in words and its next run times.
 */
export function createScheduleTools(context: ScheduleToolsContext): AnyWorkerAgentTool[] {
  const { client, agentId } = context;
  return [
    defineWorkerTool<typeof createSchema, ScheduleToolDetails>({
      name: 'schedule_create',
      description:
        'Schedule a turn for later: at that time you will be started with the given prompt. Give either cron (+ timeZone) ' +
        'for a repeating schedule, or runAt for a one-time one. Returns the schedule id, when it runs in words and its next run times.',
      schema: createSchema,
      executionMode: 'sequential',
      describeActivity: (params) => `Scheduling "${activityLabel(params.title ?? params.prompt)}"`,
      describeCompletedActivity: (params, result) =>
        result.isError === true
          ? `Could not schedule "${activityLabel(params.title ?? params.prompt)}"`
          : `Scheduled "${activityLabel(params.title ?? params.prompt)}": ${result.details?.schedule?.description ?? ''}`,
      async execute(params) {
        try {
          const schedule = await client.schedules.create({ agentId, ...params });
          return { content: `Schedule created:\n${formatSchedule(schedule)}`, details: { schedule } };
        } catch (error) {
          return refusalToolResult(error, 'create the schedule');
        }
      },
    }),
    defineWorkerTool<typeof listSchema, ScheduleToolDetails>({
      name: 'schedule_list',
      description: 'List your schedules with their ids, when they run and their next run times.',
      schema: listSchema,
      executionMode: 'parallel',
      isReadOnly: true,
      describeActivity: () => 'Listing schedules',
      describeCompletedActivity: (_params, result) => `Listed ${result.details?.schedules?.length ?? 0} schedule(s)`,
      async execute(params) {
        try {
          const schedules = await client.schedules.list({ agentId, includeInactive: params.includeInactive });
          const content =
            schedules.length === 0
              ? `No ${params.includeInactive === true ? '' : 'active '}schedules.`
              : `${schedules.length} schedule(s):\n${schedules.map(formatSchedule).join('\n')}`;
          return { content, details: { schedules } };
        } catch (error) {
          return refusalToolResult(error, 'list the schedules');
        }
      },
    }),
    defineWorkerTool<typeof cancelSchema, ScheduleToolDetails>({
      name: 'schedule_cancel',
      description: 'Cancel one of your schedules so it never runs again.',
      schema: cancelSchema,
      executionMode: 'sequential',
      isDestructive: true,
      describeActivity: (params) => `Cancelling schedule ${params.scheduleId}`,
      describeCompletedActivity: (params, result) =>
        result.isError === true ? `Could not cancel schedule ${params.scheduleId}` : `Cancelled "${activityLabel(result.details?.schedule?.title ?? params.scheduleId)}"`,
      async execute(params) {
        try {
          const before = await client.schedules.get({ agentId, scheduleId: params.scheduleId });
          const schedule = before.status === 'active' ? await client.schedules.cancel({ agentId, scheduleId: params.scheduleId }) : before;
          const content =
            before.status === 'active'
              ? `Schedule cancelled; it will not run again:\n${formatSchedule(schedule)}`
              : `The schedule was already ${before.status}; nothing changed:\n${formatSchedule(schedule)}`;
          return { content, details: { schedule } };
        } catch (error) {
          return refusalToolResult(error, 'cancel the schedule');
        }
      },
    }),
  ];
}
