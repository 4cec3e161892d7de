import { ControlPlaneInputError, type ClaimedTask, type ControlPlaneClient, type ResultSchemaProblem, type TaskRecord } from '@core/control-plane-client';
import { activityLabel, AnkoleError, defineWorkerTool, type AnyWorkerAgentTool, type JSONObject } from '@core/runtime';
import { formatResultProblems } from './format-result-problems.js';

/** What the `submit_result` tool is built from. */
export interface SubmitResultToolContext {
  /** The claimed task: its id and lease token prove the claim; its stored `resultSchema` becomes the tool's parameters. */
  task: Pick<ClaimedTask, 'id' | 'leaseToken' | 'title' | 'resultSchema'>;
  /** The control plane (in process or remote); only `tasks` is used. */
  client: Pick<ControlPlaneClient, 'tasks'>;
}

/** `details` of a `submit_result` call (never sent to the model). */
export interface SubmitResultToolDetails {
  /** Whether the control plane stored the value. */
  accepted: boolean;
  /** The stored task, once accepted. */
  task?: TaskRecord;
  /** Each place the value does not match the schema, when rejected. */
  errors?: ResultSchemaProblem[];
  /** The stable code of a refusal (`lease_lost`, `already_submitted`, `task_not_running`, `task_not_found`). */
  code?: string;
}

/**
 * Creates the `submit_result` tool of one workflow task turn. Its `jsonSchema` is the result schema the workflow
 * script stored for the task, unchanged, sent with `strict: true` (the engine stores only closed, strict-mode shapes).
 * Its arguments ARE the result: `execute` sends them to `client.tasks.submit`, which validates them again before
 * storing them. Accepted → the output says so and the turn ends (`terminateTurn`). A schema rejection → an error
 * output naming each failing path; the turn goes on so the model can fix the value. So does text the control plane
 * cannot store (a NUL character or a lone surrogate: its `400 input_invalid` names the path in the result). A submission after an accepted
 * one, without the lease (another worker took the task over) or on a cancelled task → a clear error output.
 * @throws ToolDefinitionError (at creation) when the stored schema is not a strict-mode object schema; a database
 *   failure during `execute` is rethrown for the loop to report.
 */
export function createSubmitResultTool(context: SubmitResultToolContext): AnyWorkerAgentTool {
  const { task, client } = context;
  let accepted = false;
  return defineWorkerTool<SubmitResultToolDetails>({
    name: 'submit_result',
    description:
      `Submit the result of your task "${task.title}". The arguments ARE the result: they must match the task's result schema. ` +
      'Call it once, when the work is done. A value that does not match comes back with each problem: fix it and submit again. ' +
      'Your turn ends when a result is accepted.',
    jsonSchema: task.resultSchema as JSONObject,
    strict: true,
    executionMode: 'sequential',
    describeActivity: () => `Submitting the result of "${activityLabel(task.title)}"`,
    describeCompletedActivity: (_params, result) => {
      if (result.details?.accepted === true) return `Submitted the result of "${activityLabel(task.title)}"`;
      const count = result.details?.errors?.length;
      return count === undefined ? `Could not submit the result of "${activityLabel(task.title)}"` : `Result of "${activityLabel(task.title)}" rejected (${count} problem(s))`;
    },
    async execute(params) {
      if (accepted) {
        return {
          content: 'The result of this task was already accepted; nothing changed. Your work on this task is done.',
          details: { accepted: false, code: 'already_submitted' },
          isError: true,
          terminateTurn: true,
        };
      }
      try {
        const outcome = await client.tasks.submit({ taskId: task.id, leaseToken: task.leaseToken, result: params });
        if (!outcome.accepted) {
          return {
            content: `The result does not match the task's result schema, so it was not stored. Fix these and call submit_result again:\n${formatResultProblems(outcome.errors)}`,
            details: { accepted: false, errors: outcome.errors },
            isError: true,
          };
        }
        accepted = true;
        return { content: 'Result accepted and stored. The task is done.', details: { accepted: true, task: outcome.task }, terminateTurn: true };
      } catch (error) {
        const unstorable = unstorableResultProblem(error);
        if (unstorable !== undefined) {
          // Text the control plane cannot store (a NUL character, a lone surrogate): the model can fix the value.
          return {
            content: `The result could not be stored. Fix this and call submit_result again:\n${formatResultProblems([unstorable])}`,
            details: { accepted: false, errors: [unstorable] },
            isError: true,
          };
        }
        if (error instanceof AnkoleError && error.kind === 'usage') {
          // Retrying cannot help (the lease is gone, the task finished or was cancelled): end the turn.
          return {
            content: `The result could not be submitted: ${error.message} Stop working on this task.`,
            details: { accepted: false, code: error.code },
            isError: true,
            terminateTurn: true,
          };
        }
        throw error;
      }
    },
  });
}

/**
 * The control plane's `input_invalid` about the submitted value itself (its `result` field: text it cannot store) as
 * a problem at a path of the result (`result.facts[1]` → `$.facts[1]`); `undefined` for any other error.
 */
function unstorableResultProblem(error: unknown): ResultSchemaProblem | undefined {
  if (!(error instanceof ControlPlaneInputError) || error.code !== 'input_invalid' || error.field === undefined) return undefined;
  const field = error.field;
  if (field !== 'result' && !field.startsWith('result.') && !field.startsWith('result[')) return undefined;
  const marker = `${field}: `;
  const at = error.message.indexOf(marker);
  const message = at === -1 ? error.message : error.message.slice(at + marker.length).replace(/\.$/, '');
  return { path: `$${field.slice('result'.length)}`, message };
}
