import { randomInt, randomUUID } from 'node:crypto';
import {
  ControlPlaneInputError,
  ControlPlaneNotFoundError,
  isUuid,
  parseInput,
  workflowInputSchemas as schemas,
  type JsonValue,
  type WorkflowApi,
  type WorkflowDetails,
} from '@core/control-plane-client';
import type { WorkflowEngineOptions } from './workflow-engine.js';
import { workflowDetails, workflowRecord, type TaskRow, type WorkflowRow } from './workflow-records.js';
import { cancelUnfinishedTasks, cancelWorkflow, countRunningWorkflows, insertWorkflow, queueFinishNotice } from './workflow-transitions.js';

/** The agent-facing half of the workflow engine: start, get, list, cancel. */
export function createWorkflowApi(options: WorkflowEngineOptions): WorkflowApi {
  const { driver, schema, limits, sandbox } = options;
  const tables = { schema };

  const get = async (input: { agentId: string; workflowId: string }): Promise<WorkflowDetails> => {
    const { agentId, workflowId } = parseInput(schemas.workflowRef, input, 'workflows.get');
    if (!isUuid(workflowId)) throw new ControlPlaneNotFoundError('workflow', workflowId);
    const { rows } = await driver.query<WorkflowRow>(`SELECT * FROM ${schema}.workflow WHERE id = $1 AND agent_id = $2`, [workflowId, agentId]);
    if (rows[0] === undefined) throw new ControlPlaneNotFoundError('workflow', workflowId);
    const { rows: tasks } = await driver.query<TaskRow>(`SELECT * FROM ${schema}.task WHERE workflow_id = $1 ORDER BY sequence`, [workflowId]);
    return workflowDetails(rows[0], tasks);
  };

  return {
    async start(input) {
      const parsed = parseInput(schemas.startWorkflow, input, 'workflows.start');
      const scriptBytes = Buffer.byteLength(parsed.script);
      if (scriptBytes > limits.maxScriptBytes) {
        throw new ControlPlaneInputError('script_too_large', `The workflow script is ${scriptBytes} bytes; at most ${limits.maxScriptBytes} are allowed.`, {
          field: 'script',
        });
      }
      const inputJson = jsonText(parsed.input ?? null);
      if (inputJson === undefined) throw new ControlPlaneInputError('input_invalid', 'The workflow input must be plain JSON data.', { field: 'input' });
      if (Buffer.byteLength(inputJson) > limits.maxJsonBytes) {
        throw new ControlPlaneInputError('input_invalid', `The workflow input is ${Buffer.byteLength(inputJson)} bytes of JSON; at most ${limits.maxJsonBytes} are allowed.`, {
          field: 'input',
        });
      }
      // Compiled in a sandbox thread (a parser exhausting its stack, or a script that takes too long to compile, never
      // touches this thread).
      const problem = await sandbox.check(parsed.script, limits);
      if (problem !== undefined) {
        throw new ControlPlaneInputError('script_invalid', `The workflow script does not compile: ${problem}.`, { field: 'script' });
      }
      // Its first run, before any task has a result: a task() whose result schema is not closed, uncaught, is refused
      // now, with the reason, rather than failing the workflow later. Later tasks' schemas are checked by the same
      // task() check in the advance that reaches them (the script may catch that error; nothing is queued).
      const trial = await sandbox.run({ script: parsed.script, input: JSON.parse(inputJson) as JsonValue, seed: 0, startTime: Date.now(), journal: [], limits });
      const refusal = trial.kind === 'ran' ? trial.run.schemaRefusal : undefined;
      if (refusal !== undefined && trial.kind === 'ran' && trial.run.outcome.kind === 'failed' && trial.run.outcome.error.includes(refusal)) {
        throw new ControlPlaneInputError('result_schema_invalid', `The workflow's first tasks cannot run: ${refusal}`, { field: 'script' });
      }
      const row = await driver.transaction(async (transaction) => {
        if ((await countRunningWorkflows(transaction, tables, parsed.agentId)) >= limits.maxRunningPerAgent) {
          throw new ControlPlaneInputError(
            'workflow_limit_reached',
            `This agent already has ${limits.maxRunningPerAgent} running workflows, the most allowed. Wait for some to finish or cancel one.`,
          );
        }
        return insertWorkflow(transaction, tables, {
          id: randomUUID(),
          agentId: parsed.agentId,
          title: parsed.title,
          script: parsed.script,
          input: JSON.parse(inputJson) as JsonValue,
          notifyOnFinish: parsed.notifyOnFinish ?? false,
          seed: randomInt(0, 2 ** 31 - 1),
        });
      });
      return workflowRecord(row);
    },

    get,

    async list(input) {
      const { agentId, status, limit } = parseInput(schemas.listWorkflows, input, 'workflows.list');
      const { rows } = await driver.query<WorkflowRow>(
        `SELECT * FROM ${schema}.workflow WHERE agent_id = $1 ${status === undefined ? '' : 'AND status = ANY($3::text[])'}
         ORDER BY created_at DESC, id LIMIT $2`,
        status === undefined ? [agentId, limit ?? 50] : [agentId, limit ?? 50, status],
      );
      return rows.map(workflowRecord);
    },

    async cancel(input) {
      const { agentId, workflowId } = parseInput(schemas.workflowRef, input, 'workflows.cancel');
      if (!isUuid(workflowId)) throw new ControlPlaneNotFoundError('workflow', workflowId);
      const cancelled = await driver.transaction(async (transaction) => {
        const row = await cancelWorkflow(transaction, tables, workflowId, agentId);
        if (row === undefined) return undefined;
        await cancelUnfinishedTasks(transaction, tables, workflowId, 'The workflow was cancelled.');
        if (row.notify_on_finish) await queueFinishNotice(transaction, tables, row);
        return row;
      });
      if (cancelled !== undefined) return workflowRecord(cancelled);
      const { script: _script, log: _log, tasks: _tasks, ...record } = await get({ agentId, workflowId });
      return record;
    },
  };
}

/** `value` as JSON text when it is plain JSON data (survives a round trip unchanged in kind), else `undefined`. */
function jsonText(value: unknown): string | undefined {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : text;
  } catch {
    return undefined;
  }
}
