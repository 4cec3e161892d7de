import { createApprovalApi } from './approval-api.js';
import { changeChannel, createChangeFeed } from './change-feed.js';
import { createBrainApi } from './brain-api.js';
import {
  ControlPlaneFailure,
  ControlPlaneInputError,
  DEFAULT_TRANSCRIPT_LIMITS,
  DEFAULT_WORKFLOW_LIMITS,
  type ControlPlaneChanges,
  type ControlPlaneClient,
  type TranscriptLimits,
  type WorkflowLimits,
} from '@core/control-plane-client';
import { defaultDataDir } from './default-data-dir.js';
import { failAbandonedJobs, fireDueSchedules } from './fire-due-schedules.js';
import { hasExpiredJobClaims } from './job-transitions.js';
import { createJobApi } from './job-api.js';
import { checkSchemaName, migrate } from './migrations.js';
import { createPGliteDriver } from './pglite-driver.js';
import { createPostgresDriver } from './postgres-driver.js';
import { createScheduleApi } from './schedule-api.js';
import type { SqlDriver } from './sql-driver.js';
import { createTranscriptApi } from './transcript-api.js';
import { createWorkApi } from './work-api.js';
import { withLongPolls } from './long-polls.js';
import { createViewChanges } from './view-changes.js';
import { repeatDuty, type RepeatingDuty } from './repeat-duty.js';
import { createWorkflowEngine } from './workflow-engine.js';

/** Options of `createControlPlane`. Give one of `driver`, `databaseUrl` or `dataDir` (default: PGlite in `defaultDataDir()`). */
export interface ControlPlaneOptions {
  /** A driver you created (you close it). */
  driver?: SqlDriver;
  /** A PostgreSQL server (`DATABASE_URL`), through node-postgres. */
  databaseUrl?: string;
  /** The embedded PGlite database's folder (default `defaultDataDir()`). */
  dataDir?: string;
  /** The schema of the control plane's tables (default `ankole`). */
  schema?: string;
  /** Refuse cron schedules that run more often than this, in seconds (default 300). */
  minScheduleIntervalSeconds?: number;
  /** Most active schedules per agent (default 50). */
  maxActiveSchedulesPerAgent?: number;
  /** Most queued or running jobs per agent (default 20). */
  maxUnfinishedJobsPerAgent?: number;
  /**
   * How long a claim made through this control plane lasts after the claim and after each heartbeat,
   * in seconds; then another worker retries the job (default 10; workers heartbeat every second).
   */
  leaseSeconds?: number;
  /** Most claims of one job, crash recoveries included (default 3). */
  maxAttempts?: number;
  /**
   * Run the background duties in this process: firing due schedules, waking the waiting claims when a job's lease ran
   * out, and failing abandoned jobs (default `true`; a CLI that only lists or cancels passes `false`).
   */
  background?: boolean;
  /** How often due schedules are fired, in ms (default 1000). */
  timerIntervalMs?: number;
  /**
   * How often this process looks for claims whose lease ran out (and fails abandoned jobs), in seconds
   * (default 1; the first look is at start).
   */
  maintenanceIntervalSeconds?: number;
  /**
   * How often a waiting claim (`waitMs`) looks again without a change notification, in ms (default 1000): work that
   * becomes claimable without one (a workflow task whose worker stopped heartbeating) is found within this.
   */
  longPollRecheckMs?: number;
  /** Errors of the background duties (default: ignored; they are retried on the next round). */
  onError?: (error: unknown) => void;
  /** The workflow engine's limits (sandbox memory and CPU time, caps, task and advance leases); see `WorkflowLimits`. */
  workflowLimits?: Partial<WorkflowLimits>;
  /**
   * How many worker threads run workflow scripts (advances and syntax checks), each one script at a time (default 2;
   * started on first use). The control plane's own thread never runs a script.
   */
  sandboxThreads?: number;
  /** The size bounds of each turn transcript (default `DEFAULT_TRANSCRIPT_LIMITS`: 1 MiB, strings of 8 000 characters). */
  transcriptLimits?: Partial<TranscriptLimits>;
}

/** A running control plane: the client and its lifecycle. */
export interface ControlPlane {
  /** The RPC surface for tools and workers. */
  readonly client: ControlPlaneClient;
  readonly driver: SqlDriver;
  readonly schema: string;
  /** The changes committed to this control plane's database, for live views (listens from the first subscription). */
  readonly changes: ControlPlaneChanges;
  /** Fires the due schedules now (the background timer does it every `timerIntervalMs`). */
  fireDueSchedules(): Promise<number>;
  /** Stops the background duties, and closes the database if this control plane opened it. */
  close(): Promise<void>;
}

/**
 * Opens the database, applies migrations (safe when processes start at once), starts the background duties, and
 * returns the in-process client.
 * @throws ControlPlaneInputError for bad options; ControlPlaneFailure when the database cannot be opened.
 */
export async function createControlPlane(options: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const schema = checkSchemaName(options.schema ?? 'ankole');
  const sources = [options.driver, options.databaseUrl, options.dataDir].filter((source) => source !== undefined);
  if (sources.length > 1) {
    throw new ControlPlaneInputError('options_invalid', 'Give only one of driver, databaseUrl or dataDir to createControlPlane.');
  }
  const leaseSeconds = positive(options.leaseSeconds ?? 10, 'leaseSeconds');
  const claims = { leaseSeconds, maxAttempts: positive(options.maxAttempts ?? 3, 'maxAttempts') };
  const maintenanceIntervalSeconds = positive(options.maintenanceIntervalSeconds ?? 1, 'maintenanceIntervalSeconds');
  const background = options.background ?? true;
  const onError = options.onError ?? (() => {});
  const ownsDriver = options.driver === undefined;
  const driver =
    options.driver ??
    (options.databaseUrl !== undefined
      ? createPostgresDriver({ connectionString: options.databaseUrl })
      : await createPGliteDriver({ dataDir: options.dataDir ?? defaultDataDir() }));

  try {
    await migrate(driver, { schema });
  } catch (error) {
    if (ownsDriver) await driver.close().catch(() => {});
    if (error instanceof ControlPlaneFailure || error instanceof ControlPlaneInputError) throw error;
    const hint =
      driver.kind === 'postgres'
        ? ' Check that the PostgreSQL server in the database URL (DATABASE_URL) is running and reachable, and that the database exists.'
        : '';
    throw new ControlPlaneFailure('database_unavailable', `The control plane could not open its database: ${(error as Error).message}.${hint}`, {
      cause: error,
    });
  }

  const workflowLimits = { ...DEFAULT_WORKFLOW_LIMITS, ...options.workflowLimits };
  let engine: ReturnType<typeof createWorkflowEngine>;
  try {
    engine = createWorkflowEngine({ driver, schema, limits: workflowLimits, sandboxThreads: options.sandboxThreads });
  } catch (error) {
    if (ownsDriver) await driver.close().catch(() => {});
    throw error;
  }
  const { close: closeEngine, ...workflowSurfaces } = engine;
  // Long polls (claims and heartbeats with `waitMs`) wait on the database's change notifications (migration 8).
  const feed = createChangeFeed({ driver, schema, onError });
  const changes = createViewChanges({ driver, schema, onError });
  const client: ControlPlaneClient = withLongPolls(Object.freeze({
    schedules: createScheduleApi({
      driver,
      schema,
      minIntervalSeconds: options.minScheduleIntervalSeconds ?? 300,
      maxActivePerAgent: options.maxActiveSchedulesPerAgent ?? 50,
    }),
    jobs: createJobApi({ driver, schema, maxUnfinishedPerAgent: options.maxUnfinishedJobsPerAgent ?? 20 }),
    work: createWorkApi({ driver, schema, claims }),
    ...workflowSurfaces,
    brain: createBrainApi({ driver, schema }),
    approvals: createApprovalApi({ driver, schema }),
    transcripts: createTranscriptApi({ driver, schema, limits: { ...DEFAULT_TRANSCRIPT_LIMITS, ...options.transcriptLimits } }),
  }), {
    feed,
    jobLeaseSeconds: leaseSeconds,
    taskLeaseSeconds: workflowLimits.taskLeaseSeconds,
    recheckMs: options.longPollRecheckMs,
  });

  const fire = () => fireDueSchedules({ driver, schema });
  // Background duties, each at once and then at its interval: firing due schedules, and recovering lost
  // claims (every process looks, so a dead worker's job comes back whoever is running).
  const duties: RepeatingDuty[] = [];
  let closed = false;
  if (background) {
    duties.push(repeatDuty(fire, options.timerIntervalMs ?? 1000, onError));
    const recover = async () => {
      // A job whose claim ran out is claimable again without a change to its row: tell the waiting claims.
      if (await hasExpiredJobClaims(driver, { schema }, claims)) await driver.query('SELECT pg_notify($1, $2)', [changeChannel(schema), 'job']);
      await failAbandonedJobs({ driver, schema, ...claims });
    };
    duties.push(repeatDuty(recover, maintenanceIntervalSeconds * 1000, onError));
  }

  return {
    client,
    driver,
    schema,
    changes: { subscribe: (listener) => changes.subscribe(listener) },
    fireDueSchedules: fire,
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all(duties.map((duty) => duty.stop()));
      await closeEngine();
      await feed.close();
      await changes.close();
      if (ownsDriver) await driver.close();
    },
  };
}

function positive(value: number, name: string): number {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new ControlPlaneInputError('options_invalid', `${name} must be a positive number, got ${String(value)}.`, { field: name });
  }
  return value;
}
