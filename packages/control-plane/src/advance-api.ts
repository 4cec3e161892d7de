import {
  findUnstorableText,
  parseInput,
  replaceUnstorableText,
  workflowInputSchemas,
  type AdvanceApi,
  type AdvanceReport,
  type WorkflowLogLine,
  type WorkflowStatus,
} from '@core/control-plane-client';
import type { SqlExecutor } from './sql-driver.js';
import type { WorkflowEngineOptions } from './workflow-engine.js';
import { journaledTask, type TaskRow, type WorkflowRow } from './workflow-records.js';
import type { ScriptRun } from './workflow-sandbox.js';
import {
  cancelUnfinishedTasks,
  claimAdvance,
  releaseAdvance,
  failWorkflow,
  finishAdvance,
  insertTasks,
  queueFinishNotice,
  type AdvanceResult,
} from './workflow-transitions.js';

/** The worker half of advances: claim the next due one, replay the script in a sandbox thread, store what it did. */
export function createAdvanceApi(options: WorkflowEngineOptions): AdvanceApi {
  const { driver, schema, limits, sandbox } = options;
  const tables = { schema };

  /** Stores a finished workflow's consequences: its unfinished tasks cancelled, its agent told (when asked). */
  const afterFinish = async (transaction: SqlExecutor, row: WorkflowRow): Promise<void> => {
    if (row.status === 'running') return;
    await cancelUnfinishedTasks(transaction, tables, row.id, `The workflow ${row.status} before this task finished.`);
    if (row.notify_on_finish) await queueFinishNotice(transaction, tables, row);
  };

  return {
    async runNext(input) {
      parseInput(workflowInputSchemas.runAdvance, input, 'advances.runNext');
      const started = performance.now();
      // The claim commits at once; the journal read after it is at least as new as the claim (a task settling in
      // between is replayed now, and its request keeps the next advance due: harmless). An advance's writes need not
      // wait for the disk (synchronous_commit off): if the database server crashes before they reach it, they are
      // lost together with everything after them, and the advance simply runs again from the journal.
      const row = await driver.transaction(async (transaction) => {
        await relaxCommit(transaction);
        return claimAdvance(transaction, tables, limits.advanceLeaseSeconds);
      });
      if (row === undefined) return null;
      const { rows: tasks } = await driver.query<TaskRow>(`SELECT * FROM ${schema}.task WHERE workflow_id = $1 ORDER BY sequence`, [row.id]);
      const report = (status: WorkflowStatus, newTasks: number): AdvanceReport => ({
        workflowId: row.id,
        agentId: row.agent_id,
        status,
        newTasks,
        durationMs: Math.round(performance.now() - started),
      });

      if (row.advance_attempts > limits.maxAdvanceAttempts) {
        const failed = await driver.transaction(async (transaction) => {
          const finished = await failWorkflow(
            transaction,
            tables,
            row.id,
            `The workers advancing this workflow stopped ${row.advance_attempts - 1} times in a row; it is not advanced again.`,
          );
          if (finished !== undefined) await afterFinish(transaction, finished);
          return finished;
        });
        return report(failed?.status ?? 'failed', 0);
      }

      const ran = await sandbox.run({
        script: row.script,
        input: row.input,
        seed: Number(row.seed),
        startTime: new Date(row.created_at).getTime(),
        journal: tasks.map(journaledTask),
        limits,
      });
      if (ran.kind === 'busy') {
        // The machine was too busy to give the run its CPU time: the advance is released to run again, until the
        // last attempt, which fails the workflow.
        const outcome = await driver.transaction(async (transaction) => {
          if (row.advance_attempts < limits.maxAdvanceAttempts) return (await releaseAdvance(transaction, tables, row.id, row.advance_token!)) ? 'released' : 'lost';
          const finished = await failWorkflow(transaction, tables, row.id, `${ran.error} It was tried ${row.advance_attempts} times; the workflow is not advanced again.`);
          if (finished !== undefined) await afterFinish(transaction, finished);
          return finished?.status ?? 'lost';
        });
        if (outcome === 'released') return report('running', 0);
        if (outcome !== 'lost') return report(outcome, 0);
        const { rows } = await driver.query<{ status: WorkflowStatus }>(`SELECT status FROM ${schema}.workflow WHERE id = $1`, [row.id]);
        return report(rows[0]?.status ?? 'cancelled', 0);
      }
      // A run the pool cut (its CPU time, or its thread failed) fails the workflow; its log stays as it was.
      const run: ScriptRun =
        ran.kind === 'ran'
          ? ran.run
          : { outcome: { kind: 'failed', error: ran.error }, newTasks: [], log: row.log.map((line) => line.text), moduleBroken: false };

      // Text PostgreSQL cannot store, made by the script: its result or a task it asks for fails the workflow (saying
      // where); its log lines and error message are kept with U+FFFD in place.
      const unstorable = unstorableOutcome(run);
      const outcome = unstorable === undefined ? run.outcome : ({ kind: 'failed', error: unstorable } as const);
      const result: AdvanceResult = {
        status: outcome.kind === 'waiting' ? 'running' : outcome.kind === 'returned' ? 'succeeded' : 'failed',
        result: outcome.kind === 'returned' ? outcome.result : null,
        error: outcome.kind === 'failed' ? replaceUnstorableText(outcome.error) : null,
        log: stampLog(row.log, replaceUnstorableText(run.log)),
        requestedSeen: Number(row.advance_requested),
        newTaskCount: outcome.kind === 'waiting' ? run.newTasks.length : 0,
      };
      const store = async (executor: SqlExecutor): Promise<WorkflowRow> => {
        await relaxCommit(executor);
        const finished = await finishAdvance(executor, tables, row.id, row.advance_token!, result);
        if (finished === undefined) throw new LostAdvance();
        if (result.newTaskCount > 0) await insertTasks(executor, tables, { id: row.id, agentId: row.agent_id }, run.newTasks);
        await afterFinish(executor, finished);
        return finished;
      };
      const stored = await driver.transaction(store).catch((error: unknown) => {
        if (!(error instanceof LostAdvance)) throw error;
        return undefined;
      });
      if (stored === undefined) {
        // Cancelled meanwhile, or this advance took so long that another worker claimed it: nothing was stored.
        const { rows } = await driver.query<{ status: WorkflowStatus }>(`SELECT status FROM ${schema}.workflow WHERE id = $1`, [row.id]);
        return report(rows[0]?.status ?? 'cancelled', 0);
      }
      return report(stored.status, result.newTaskCount);
    },
  };
}

class LostAdvance extends Error {}

/** Why a run's result or new tasks cannot be stored (a NUL character or a lone surrogate the script made), or `undefined`. */
function unstorableOutcome(run: ScriptRun): string | undefined {
  if (run.outcome.kind === 'returned') {
    const found = findUnstorableText(run.outcome.result);
    if (found !== undefined) return `The workflow's result cannot be stored: at ${under('result', found.path)}, ${found.description}.`;
  }
  if (run.outcome.kind !== 'waiting') return undefined;
  for (const task of run.newTasks) {
    const found = findUnstorableText({ title: task.title, prompt: task.prompt, result: task.resultSchema });
    if (found !== undefined) return `The script's task() call number ${task.sequence + 1} cannot be stored: at its ${found.path}, ${found.description}.`;
  }
  return undefined;
}

/** `path` (from `findUnstorableText`) inside `root`: `result`, `result.items[0]`, `result[2]`. */
function under(root: string, path: string): string {
  return path === '$' ? root : path.startsWith('[') ? `${root}${path}` : `${root}.${path}`;
}

/** Lets this transaction commit without waiting for its WAL to reach the disk. */
async function relaxCommit(transaction: SqlExecutor): Promise<void> {
  await transaction.query('SET LOCAL synchronous_commit = off');
}

/** The run's log lines with times: a line an earlier advance logged keeps its time, a new one gets now. */
function stampLog(previous: readonly WorkflowLogLine[], lines: readonly string[]): WorkflowLogLine[] {
  const now = new Date().toISOString();
  return lines.map((text, index) => ({ at: previous[index]?.text === text ? previous[index]!.at : now, text }));
}
