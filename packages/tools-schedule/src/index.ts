export { createScheduleTools } from './create-schedule-tools.js';
export type { ScheduleToolDetails, ScheduleToolsContext } from './create-schedule-tools.js';
export { formatSchedule } from './format-schedule.js';
