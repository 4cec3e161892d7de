// The engine of the Ankole control plane (PostgreSQL or PGlite, the queue, schedules, workflows). The contract a client
// needs (interfaces, errors, schemas, the HTTP client, lease watchers) is `@core/control-plane-client`.
export { createControlPlane } from './create-control-plane.js';
export type { ControlPlane, ControlPlaneOptions } from './create-control-plane.js';
export { createPostgresDriver } from './postgres-driver.js';
export type { PostgresDriverOptions } from './postgres-driver.js';
export { createPGliteDriver } from './pglite-driver.js';
export type { PGliteDriverOptions } from './pglite-driver.js';
export type { SqlDriver, SqlExecutor, SqlResult } from './sql-driver.js';
export { defaultDataDir } from './default-data-dir.js';
export { migrate, MIGRATIONS } from './migrations.js';
export type { Migration } from './migrations.js';
export { describeCron, planCronSchedule, planOneTimeSchedule } from './schedule-timing.js';
export type { CronPlanOptions, OneTimePlanOptions, ScheduleTiming } from './schedule-timing.js';
