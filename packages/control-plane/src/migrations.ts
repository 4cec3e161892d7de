import { ControlPlaneInputError } from '@core/control-plane-client';
import type { SqlDriver } from './sql-driver.js';

/** One versioned change to the control plane's tables. */
export interface Migration {
  version: number;
  name: string;
  /** The SQL, with `{schema}` standing for the (quoted-safe) schema name. */
  sql: string;
}

/** The control plane's migrations, in order. Append new ones; never edit a released one. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'schedules and jobs',
    sql: `
      CREATE TABLE {schema}.schedule (
        id uuid PRIMARY KEY,
        agent_id text NOT NULL,
        title text NOT NULL,
        prompt text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('cron', 'once')),
        cron text,
        time_zone text,
        run_at timestamptz,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'cancelled', 'completed')),
        next_run_at timestamptz,
        last_fired_at timestamptz,
        fire_count integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX schedule_agent_idx ON {schema}.schedule (agent_id, created_at);
      CREATE INDEX schedule_due_idx ON {schema}.schedule (next_run_at) WHERE status = 'active';
      CREATE TABLE {schema}.job (
        id uuid PRIMARY KEY,
        agent_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('background', 'scheduled')),
        schedule_id uuid REFERENCES {schema}.schedule (id),
        fire_at timestamptz,
        title text NOT NULL,
        prompt text NOT NULL,
        allow_jobs boolean NOT NULL DEFAULT false,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
        final_answer text,
        error text,
        attempts integer NOT NULL DEFAULT 0,
        worker_id text,
        lease_token uuid,
        heartbeat_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (schedule_id, fire_at)
      );
      CREATE INDEX job_agent_idx ON {schema}.job (agent_id, created_at);
    `,
  },
  {
    version: 2,
    name: 'workflows and tasks',
    // A workflow's advances are queued on its own row: one is due while advance_requested > advance_done, and the
    // worker running it holds advance_token until advance_claimed_at + the advance lease. Tasks are queued rows
    // claimed with FOR UPDATE SKIP LOCKED and held by lease_token until heartbeat_at + the task lease.
    sql: `
      CREATE TABLE {schema}.workflow (
        id uuid PRIMARY KEY,
        agent_id text NOT NULL,
        title text NOT NULL,
        script text NOT NULL,
        input jsonb NOT NULL,
        status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'failed', 'cancelled')),
        result jsonb,
        error text,
        log jsonb NOT NULL DEFAULT '[]',
        notify_on_finish boolean NOT NULL DEFAULT false,
        seed integer NOT NULL,
        replays integer NOT NULL DEFAULT 0,
        task_count integer NOT NULL DEFAULT 0,
        settled_count integer NOT NULL DEFAULT 0,
        advance_requested integer NOT NULL DEFAULT 1,
        advance_done integer NOT NULL DEFAULT 0,
        advance_token uuid,
        advance_claimed_at timestamptz,
        advance_attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      );
      CREATE INDEX workflow_agent_idx ON {schema}.workflow (agent_id, created_at);
      CREATE INDEX workflow_due_idx ON {schema}.workflow (updated_at) WHERE status = 'running' AND advance_requested > advance_done;
      CREATE TABLE {schema}.task (
        id uuid PRIMARY KEY,
        workflow_id uuid NOT NULL REFERENCES {schema}.workflow (id) ON DELETE CASCADE,
        agent_id text NOT NULL,
        sequence integer NOT NULL,
        title text NOT NULL,
        prompt text NOT NULL,
        result_schema json NOT NULL,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
        result json,
        error text,
        attempts integer NOT NULL DEFAULT 0,
        worker_id text,
        lease_token uuid,
        heartbeat_at timestamptz,
        settled_order integer,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (workflow_id, sequence)
      );
      CREATE INDEX task_queued_idx ON {schema}.task (created_at, sequence) WHERE status = 'queued';
      CREATE INDEX task_running_idx ON {schema}.task (heartbeat_at) WHERE status = 'running';
    `,
  },
  {
    version: 3,
    name: 'brain pages',
    // The search vector is a generated column (title weight A, body weight B, the 'english' configuration),
    // so every write keeps it current; a title is unique per agent without case.
    sql: `
      CREATE TABLE {schema}.brain_page (
        id uuid PRIMARY KEY,
        agent_id text NOT NULL,
        title text NOT NULL,
        body text NOT NULL,
        search tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('english'::regconfig, title), 'A') || setweight(to_tsvector('english'::regconfig, body), 'B')
        ) STORED,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX brain_page_title_idx ON {schema}.brain_page (agent_id, lower(title));
      CREATE INDEX brain_page_search_idx ON {schema}.brain_page USING GIN (search);
    `,
  },
  {
    version: 4,
    name: 'access tokens',
    // Bearer tokens of the HTTP control plane (`ankole serve`): only a SHA-256 hash of each token is stored.
    sql: `
      CREATE TABLE {schema}.access_token (
        id uuid PRIMARY KEY,
        token_hash text NOT NULL UNIQUE,
        kind text NOT NULL CHECK (kind IN ('worker', 'agent')),
        agent_id text,
        label text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz,
        CHECK ((kind = 'agent') = (agent_id IS NOT NULL))
      );
    `,
  },
  {
    version: 5,
    name: 'approvals',
    // A job paused for a person's approval keeps its turn's run state; each held call is one approval row.
    sql: `
      ALTER TABLE {schema}.job DROP CONSTRAINT job_status_check;
      ALTER TABLE {schema}.job ADD CONSTRAINT job_status_check
        CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'awaiting_approval'));
      ALTER TABLE {schema}.job ADD COLUMN run_state jsonb;
      CREATE TABLE {schema}.approval (
        id uuid PRIMARY KEY,
        job_id uuid NOT NULL REFERENCES {schema}.job (id),
        agent_id text NOT NULL,
        call_id text NOT NULL,
        tool_name text NOT NULL,
        label text NOT NULL,
        params jsonb,
        is_destructive boolean NOT NULL DEFAULT false,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'denied', 'cancelled')),
        reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        decided_at timestamptz,
        UNIQUE (job_id, call_id)
      );
      CREATE INDEX approval_agent_idx ON {schema}.approval (agent_id, status, created_at);
    `,
  },
  {
    version: 6,
    name: 'turn transcripts',
    // One transcript per claim of a job or a workflow task (found again by the claim's lease token), its events one row
    // each, in order; the counters say what the size bound left out or cut.
    sql: `
      CREATE TABLE {schema}.transcript (
        id uuid PRIMARY KEY,
        agent_id text NOT NULL,
        job_id uuid REFERENCES {schema}.job (id) ON DELETE CASCADE,
        task_id uuid REFERENCES {schema}.task (id) ON DELETE CASCADE,
        attempt integer NOT NULL,
        worker_id text,
        lease_token uuid NOT NULL UNIQUE,
        received integer NOT NULL DEFAULT 0,
        kept integer NOT NULL DEFAULT 0,
        bytes integer NOT NULL DEFAULT 0,
        dropped integer NOT NULL DEFAULT 0,
        truncated integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((job_id IS NULL) <> (task_id IS NULL))
      );
      CREATE INDEX transcript_job_idx ON {schema}.transcript (job_id, attempt) WHERE job_id IS NOT NULL;
      CREATE INDEX transcript_task_idx ON {schema}.transcript (task_id, attempt) WHERE task_id IS NOT NULL;
      CREATE TABLE {schema}.transcript_event (
        transcript_id uuid NOT NULL REFERENCES {schema}.transcript (id) ON DELETE CASCADE,
        sequence integer NOT NULL,
        time text NOT NULL,
        event json NOT NULL,
        PRIMARY KEY (transcript_id, sequence)
      );
    `,
  },
  {
    version: 7,
    name: 'task approvals and the approved-call journal',
    // A workflow task pauses for approval like a job (its run state on the task row; an approval row belongs to a job
    // or to a task). An approved call is journaled: started_at before it runs, its output once it ran, so a turn
    // resumed after a crash never runs it a second time.
    sql: `
      ALTER TABLE {schema}.task DROP CONSTRAINT task_status_check;
      ALTER TABLE {schema}.task ADD CONSTRAINT task_status_check
        CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'awaiting_approval'));
      ALTER TABLE {schema}.task ADD COLUMN run_state jsonb;
      ALTER TABLE {schema}.approval ALTER COLUMN job_id DROP NOT NULL;
      ALTER TABLE {schema}.approval ADD COLUMN task_id uuid REFERENCES {schema}.task (id) ON DELETE CASCADE;
      ALTER TABLE {schema}.approval ADD CONSTRAINT approval_owner_check CHECK ((job_id IS NULL) <> (task_id IS NULL));
      ALTER TABLE {schema}.approval ADD CONSTRAINT approval_task_call_key UNIQUE (task_id, call_id);
      ALTER TABLE {schema}.approval ADD COLUMN started_at timestamptz;
      ALTER TABLE {schema}.approval ADD COLUMN started_by uuid;
      ALTER TABLE {schema}.approval ADD COLUMN output jsonb;
    `,
  },
  {
    version: 8,
    name: 'change notifications',
    // NOTIFY {schema}_changes (delivered when the transaction commits, to every process listening): 'job' or 'task'
    // when one is queued, 'advance' when a workflow's advance is requested, and 'job:<id>' or 'task:<id>' when a
    // running one is cancelled, finished, paused or claimed by another worker. The long polls wait on these.
    sql: `
      CREATE FUNCTION {schema}.notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_TABLE_NAME = 'workflow' THEN
          IF TG_OP = 'INSERT' OR NEW.advance_requested > OLD.advance_requested THEN
            PERFORM pg_notify('{schema}_changes', 'advance');
          END IF;
          RETURN NULL;
        END IF;
        IF NEW.status = 'queued' AND (TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM 'queued') THEN
          PERFORM pg_notify('{schema}_changes', TG_TABLE_NAME);
        END IF;
        IF TG_OP = 'UPDATE' AND OLD.status = 'running'
           AND (NEW.status IS DISTINCT FROM 'running' OR NEW.lease_token IS DISTINCT FROM OLD.lease_token) THEN
          PERFORM pg_notify('{schema}_changes', TG_TABLE_NAME || ':' || NEW.id);
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER job_notify_change AFTER INSERT OR UPDATE OF status, lease_token ON {schema}.job
        FOR EACH ROW EXECUTE FUNCTION {schema}.notify_change();
      CREATE TRIGGER task_notify_change AFTER INSERT OR UPDATE OF status, lease_token ON {schema}.task
        FOR EACH ROW EXECUTE FUNCTION {schema}.notify_change();
      CREATE TRIGGER workflow_notify_change AFTER INSERT OR UPDATE OF advance_requested ON {schema}.workflow
        FOR EACH ROW EXECUTE FUNCTION {schema}.notify_change();
    `,
  },
  {
    version: 9,
    name: 'settling lease',
    // The lease of the claim whose holder settled the job or task (its own result stored): a heartbeat of that lease
    // answers "finished by this lease", a clean stop, not a lost claim.
    sql: `
      ALTER TABLE {schema}.job ADD COLUMN settled_by uuid;
      ALTER TABLE {schema}.task ADD COLUMN settled_by uuid;
    `,
  },
  {
    version: 10,
    name: 'job row claims',
    // Jobs are claimed from their rows (FOR UPDATE SKIP LOCKED), as tasks are: no separate queue. The claim looks at
    // queued and running jobs (a running one whose lease ran out is claimable again), oldest first. Jobs still queued in
    // the former pg-boss queue are claimed from their rows as they are; its schema (`<schema>_queue`) is left as it was.
    sql: `
      CREATE INDEX job_claim_idx ON {schema}.job (created_at, id) WHERE status IN ('queued', 'running');
    `,
  },
  {
    version: 11,
    name: 'job and schedule home',
    // The folder a job's turn runs in (a schedule's jobs inherit it); NULL: the worker's default home for the agent.
    sql: `
      ALTER TABLE {schema}.schedule ADD COLUMN home text;
      ALTER TABLE {schema}.job ADD COLUMN home text;
    `,
  },
  {
    version: 12,
    name: 'view notifications',
    // NOTIFY {schema}_views with a JSON object ({ kind, id, agentId } and the owner's id) when a job, workflow, task,
    // approval or schedule is created or changes what a viewer shows, and when a claim's transcript grows: what live
    // views (the dashboard's change stream) wait on. Heartbeats change none of the watched columns and notify nothing.
    sql: `
      CREATE FUNCTION {schema}.notify_view() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        change jsonb := jsonb_build_object('kind', TG_TABLE_NAME, 'id', NEW.id, 'agentId', NEW.agent_id);
      BEGIN
        IF TG_TABLE_NAME = 'task' THEN
          change := change || jsonb_build_object('workflowId', NEW.workflow_id);
        ELSIF TG_TABLE_NAME = 'approval' OR TG_TABLE_NAME = 'transcript' THEN
          change := change || jsonb_strip_nulls(jsonb_build_object('jobId', NEW.job_id, 'taskId', NEW.task_id));
        END IF;
        PERFORM pg_notify('{schema}_views', change::text);
        RETURN NULL;
      END $$;
      CREATE TRIGGER job_notify_view AFTER INSERT OR UPDATE OF status, lease_token, worker_id, final_answer, error ON {schema}.job
        FOR EACH ROW EXECUTE FUNCTION {schema}.notify_view();
      CREATE TRIGGER workflow_notify_view AFTER INSERT OR UPDATE OF status, log, task_count, settled_count, result, error ON {schema}.workflow
        FOR EACH ROW EXECUTE FUNCTION {schema}.notify_view();
      CREATE TRIGGER task_notify_view AFTER INSERT OR UPDATE OF status, lease_token, worker_id, result, error ON {schema}.task
        FOR EACH ROW EXECUTE FUNCTION {schema}.notify_view();
      CREATE TRIGGER approval_notify_view AFTER INSERT OR UPDATE OF status ON {schema}.approval
        FOR EACH ROW EXECUTE FUNCTION {schema}.notify_view();
      CREATE TRIGGER schedule_notify_view AFTER INSERT OR UPDATE OF status, next_run_at, fire_count ON {schema}.schedule
        FOR EACH ROW EXECUTE FUNCTION {schema}.notify_view();
      CREATE TRIGGER transcript_notify_view AFTER INSERT OR UPDATE OF received ON {schema}.transcript
        FOR EACH ROW EXECUTE FUNCTION {schema}.notify_view();
    `,
  },
];

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,43}$/;

/**
 * Checks a schema name so it can be put into SQL as is.
 * @throws ControlPlaneInputError (`schema_invalid`) for anything but lower-case letters, digits and `_`.
 */
export function checkSchemaName(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) {
    throw new ControlPlaneInputError(
      'schema_invalid',
      `The schema name "${schema}" is invalid: use 1 to 44 lower-case letters, digits and "_", starting with a letter or "_".`,
      { field: 'schema' },
    );
  }
  return schema;
}

/**
 * Applies the migrations not applied yet, in one transaction that first takes a transaction-level
 * advisory lock on the schema, so processes starting at once apply each migration exactly once.
 * Returns the versions it applied.
 */
export async function migrate(driver: SqlDriver, options: { schema: string; migrations?: readonly Migration[] }): Promise<number[]> {
  const schema = checkSchemaName(options.schema);
  const migrations = [...(options.migrations ?? MIGRATIONS)].sort((left, right) => left.version - right.version);
  return driver.transaction(async (transaction) => {
    await transaction.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`ankole.control-plane.migrate.${schema}`]);
    await transaction.exec(
      `CREATE SCHEMA IF NOT EXISTS ${schema};
       CREATE TABLE IF NOT EXISTS ${schema}.migration (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       );`,
    );
    const { rows } = await transaction.query<{ version: number }>(`SELECT version FROM ${schema}.migration`);
    const applied = new Set(rows.map((row) => Number(row.version)));
    const newlyApplied: number[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await transaction.exec(migration.sql.replaceAll('{schema}', schema));
      await transaction.query(`INSERT INTO ${schema}.migration (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
      newlyApplied.push(migration.version);
    }
    return newlyApplied;
  });
}
