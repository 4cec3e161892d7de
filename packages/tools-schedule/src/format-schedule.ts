import type { ScheduleRecord } from '@core/control-plane-client';

/** A schedule as the lines the model reads: id, title, status, when, next runs, prompt. */
export function formatSchedule(schedule: ScheduleRecord): string {
  const lines = [
    `- id: ${schedule.id}`,
    `  title: ${schedule.title}`,
    `  status: ${schedule.status}`,
    `  when: ${schedule.description}${schedule.cron === null ? '' : ` [cron "${schedule.cron}"]`}`,
    `  next runs: ${schedule.nextRunTimes.length === 0 ? 'none' : schedule.nextRunTimes.join(', ')}`,
  ];
  if (schedule.fireCount > 0) lines.push(`  fired: ${schedule.fireCount} time(s), last at ${schedule.lastFiredAt}`);
  lines.push(`  prompt: ${schedule.prompt}`);
  return lines.join('\n');
}
