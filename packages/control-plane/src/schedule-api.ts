import { randomUUID } from 'node:crypto';
import {
  ControlPlaneInputError,
  ControlPlaneNotFoundError,
  inputSchemas,
  isUuid,
  parseInput,
  type ScheduleApi,
  type ScheduleRecord,
} from '@core/control-plane-client';
import { scheduleRecord, type ScheduleRow } from './records.js';
import { planCronSchedule, planOneTimeSchedule } from './schedule-timing.js';
import type { SqlDriver } from './sql-driver.js';

/** What the schedule API needs. */
export interface ScheduleApiOptions {
  driver: SqlDriver;
  schema: string;
  minIntervalSeconds: number;
  maxActivePerAgent: number;
}

/** The schedules half of the client, on the control plane's tables. */
export function createScheduleApi(options: ScheduleApiOptions): ScheduleApi {
  const { driver, schema } = options;

  const get = async (input: { agentId: string; scheduleId: string }): Promise<ScheduleRecord> => {
    const { agentId, scheduleId } = parseInput(inputSchemas.scheduleRef, input, 'schedules.get');
    if (!isUuid(scheduleId)) throw new ControlPlaneNotFoundError('schedule', scheduleId);
    const { rows } = await driver.query<ScheduleRow>(`SELECT * FROM ${schema}.schedule WHERE id = $1 AND agent_id = $2`, [scheduleId, agentId]);
    if (rows[0] === undefined) throw new ControlPlaneNotFoundError('schedule', scheduleId);
    return scheduleRecord(rows[0]);
  };

  return {
    async create(input) {
      const parsed = parseInput(inputSchemas.createSchedule, input, 'schedules.create');
      const timing =
        parsed.cron !== undefined
          ? planCronSchedule({ cron: parsed.cron, timeZone: parsed.timeZone, minIntervalSeconds: options.minIntervalSeconds })
          : planOneTimeSchedule({ runAt: parsed.runAt! });
      const id = randomUUID();
      const title = parsed.title ?? parsed.prompt.slice(0, 60);
      const row = await driver.transaction(async (transaction) => {
        const { rows: counted } = await transaction.query<{ count: number }>(
          `SELECT count(*)::int AS count FROM ${schema}.schedule WHERE agent_id = $1 AND status = 'active'`,
          [parsed.agentId],
        );
        if (Number(counted[0]?.count ?? 0) >= options.maxActivePerAgent) {
          throw new ControlPlaneInputError(
            'schedule_limit_reached',
            `This agent already has ${options.maxActivePerAgent} active schedules, the most allowed. Cancel one it no longer needs first.`,
          );
        }
        const { rows } = await transaction.query<ScheduleRow>(
          `INSERT INTO ${schema}.schedule (id, agent_id, title, prompt, kind, cron, time_zone, run_at, next_run_at, home)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
          [
            id,
            parsed.agentId,
            title,
            parsed.prompt,
            parsed.cron !== undefined ? 'cron' : 'once',
            parsed.cron ?? null,
            parsed.cron !== undefined ? (parsed.timeZone ?? 'UTC') : null,
            parsed.runAt !== undefined ? timing.nextRuns[0]!.toISOString() : null,
            timing.nextRuns[0]!.toISOString(),
            parsed.home ?? null,
          ],
        );
        return rows[0]!;
      });
      return scheduleRecord(row);
    },

    async list(input) {
      const { agentId, includeInactive } = parseInput(inputSchemas.listSchedules, input, 'schedules.list');
      const { rows } = await driver.query<ScheduleRow>(
        `SELECT * FROM ${schema}.schedule WHERE agent_id = $1 ${includeInactive === true ? '' : "AND status = 'active'"}
         ORDER BY created_at DESC, id LIMIT 500`,
        [agentId],
      );
      return rows.map((row) => scheduleRecord(row));
    },

    get,

    async cancel(input) {
      const { agentId, scheduleId } = parseInput(inputSchemas.scheduleRef, input, 'schedules.cancel');
      if (!isUuid(scheduleId)) throw new ControlPlaneNotFoundError('schedule', scheduleId);
      const { rows } = await driver.query<ScheduleRow>(
        `UPDATE ${schema}.schedule SET status = 'cancelled', next_run_at = NULL, updated_at = now()
         WHERE id = $1 AND agent_id = $2 AND status = 'active' RETURNING *`,
        [scheduleId, agentId],
      );
      return rows[0] !== undefined ? scheduleRecord(rows[0]) : get({ agentId, scheduleId });
    },
  };
}
