import PgBoss from 'pg-boss';
import { ControlPlaneFailure } from '@core/control-plane-client';
import { hasLostClaims, holdQueueClaim } from './queue-lease.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';

/** The pg-boss queue every turn job (background or scheduled) goes through. */
export const TURN_QUEUE = 'ankole-turns';

/** Options of `startTurnQueue`. */
export interface TurnQueueOptions {
  driver: SqlDriver;
  /** pg-boss's schema (its own tables). */
  schema: string;
  /**
   * How long a claim made by this process lasts without a heartbeat: set when it claims a job (whatever
   * lease the job was queued with) and renewed by each heartbeat. Once it runs out, `expireLostClaims`
   * hands the job to pg-boss's retry and another worker claims it.
   */
  leaseSeconds: number;
  /** Most claims of one job (crash recoveries included). */
  maxAttempts: number;
  /** Run pg-boss's own maintenance (archiving finished entries, a slow expiry pass) in this process. */
  maintenance: boolean;
  onError: (error: unknown) => void;
}

/** The control plane's view of the pg-boss queue: ids in, ids out. */
export interface TurnQueue {
  /** Queues a job with the same id as its row, inside the caller's transaction. */
  enqueue(executor: SqlExecutor, jobId: string): Promise<void>;
  /**
   * Claims the next job (SKIP LOCKED) with this process's lease and returns its id; inside the caller's
   * transaction when given one (then the claim and its lease commit together).
   */
  fetch(executor?: SqlExecutor): Promise<string | undefined>;
  /** Marks the queue entry done; inside the caller's transaction when given one. */
  complete(jobId: string, output: Record<string, unknown>, executor?: SqlExecutor): Promise<void>;
  /** Takes it out of the queue (whatever its state short of done); inside the caller's transaction when given one. */
  cancel(jobId: string, executor?: SqlExecutor): Promise<void>;
  /** Puts an active entry back for another worker. */
  requeue(jobId: string): Promise<void>;
  /** Makes a cancelled entry claimable again (a job whose held calls were decided); inside the caller's transaction when given one. */
  resume(jobId: string, executor?: SqlExecutor): Promise<void>;
  /** Moves an active entry's expiry to `leaseSeconds` from now (a heartbeat). */
  extendLease(jobId: string): Promise<void>;
  /**
   * Expires the claims whose lease ran out, in every queue of this pg-boss schema: their jobs go back
   * for another claim (or to failed once every attempt was used). Cheap when there is none (one
   * read); returns whether there was one.
   */
  expireLostClaims(): Promise<boolean>;
  /** Ids of entries pg-boss gave up on (retries exhausted), among `jobIds`. */
  failedAmong(jobIds: string[]): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * Starts pg-boss and creates the turn queue. Two processes installing pg-boss's schema at the same
 * moment can collide (its catalog check runs before its lock takes effect); the loser's transaction
 * rolls back whole, so it simply starts again and finds the schema installed.
 */
async function startBoss(options: TurnQueueOptions): Promise<PgBoss> {
  for (let attempt = 1; ; attempt += 1) {
    const boss = new PgBoss({
      db: pgBossDatabase(options.driver),
      schema: options.schema,
      migrate: true,
      schedule: false,
      // pg-boss's own pass (archiving; its expiry too) runs every 2 minutes at most, whichever process is first.
      // Expiry has to be prompter than that: the control plane calls `expireLostClaims` itself.
      supervise: options.maintenance,
    });
    boss.on('error', options.onError);
    try {
      await boss.start();
      if ((await boss.getQueue(TURN_QUEUE)) === null) {
        try {
          await boss.createQueue(TURN_QUEUE, { name: TURN_QUEUE, policy: 'standard' });
        } catch (error) {
          // Another process may have created it at the same moment.
          if ((await boss.getQueue(TURN_QUEUE)) === null) throw error;
        }
      }
      return boss;
    } catch (error) {
      await boss.stop({ graceful: false, close: false }).catch(() => {});
      if (attempt >= 5) {
        throw new ControlPlaneFailure('queue_start_failed', `pg-boss could not start in schema "${options.schema}": ${(error as Error).message}`, {
          cause: error,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt));
    }
  }
}

function within(executor: SqlExecutor | undefined): { db?: PgBoss.Db } {
  return executor === undefined ? {} : { db: pgBossDatabase(executor) };
}

/**
 * pg-boss's `db` adapter on a `SqlExecutor`: parameterless (possibly multi-statement) SQL goes
 * through `exec`, the rest through `query`. This is what lets pg-boss run on PGlite.
 */
export function pgBossDatabase(executor: SqlExecutor): PgBoss.Db {
  return {
    executeSql(text: string, values?: unknown[]) {
      return values === undefined || values.length === 0 ? executor.exec(text) : executor.query(text, values);
    },
  } as PgBoss.Db;
}

/**
 * Starts pg-boss on the driver (creating or migrating its schema) and the turn queue.
 * @throws ControlPlaneFailure (`queue_start_failed`) when pg-boss cannot start.
 */
export async function startTurnQueue(options: TurnQueueOptions): Promise<TurnQueue> {
  const boss = await startBoss(options);
  const schema = options.schema;
  const driver = options.driver;

  return {
    async enqueue(executor, jobId) {
      await boss.send(TURN_QUEUE, { jobId }, {
        id: jobId,
        db: pgBossDatabase(executor),
        // Only until a worker claims it: the claim sets the claimant's own lease (`holdQueueClaim`).
        expireInSeconds: options.leaseSeconds,
        retryLimit: Math.max(0, options.maxAttempts - 1),
        // An expired claim is claimable again at once (retries here are crash recoveries, never failures).
        retryDelay: 0,
      } as PgBoss.SendOptions);
    },
    async fetch(executor) {
      const jobs = await boss.fetch<{ jobId: string }>(TURN_QUEUE, { batchSize: 1, ...within(executor) } as PgBoss.FetchOptions);
      const jobId = jobs[0]?.id;
      if (jobId !== undefined) await holdQueueClaim(executor ?? driver, { schema, queue: TURN_QUEUE, jobId, leaseSeconds: options.leaseSeconds });
      return jobId;
    },
    async complete(jobId, output, executor) {
      await boss.complete(TURN_QUEUE, jobId, output, within(executor) as PgBoss.ConnectionOptions);
    },
    async cancel(jobId, executor) {
      await boss.cancel(TURN_QUEUE, jobId, within(executor) as PgBoss.ConnectionOptions);
    },
    async requeue(jobId) {
      await boss.cancel(TURN_QUEUE, jobId);
      await boss.resume(TURN_QUEUE, jobId);
    },
    async resume(jobId, executor) {
      await boss.resume(TURN_QUEUE, jobId, within(executor) as PgBoss.ConnectionOptions);
    },
    async extendLease(jobId) {
      await holdQueueClaim(driver, { schema, queue: TURN_QUEUE, jobId, leaseSeconds: options.leaseSeconds });
    },
    async expireLostClaims() {
      if (!(await hasLostClaims(driver, schema))) return false;
      await boss.expire();
      return true;
    },
    async failedAmong(jobIds) {
      if (jobIds.length === 0) return [];
      const { rows } = await driver.query<{ id: string }>(
        `SELECT id FROM ${schema}.job WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'failed'
         UNION SELECT id FROM ${schema}.archive WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'failed'`,
        [TURN_QUEUE, jobIds],
      );
      return rows.map((row) => row.id);
    },
    async stop() {
      await boss.stop({ graceful: false, close: false });
    },
  };
}
