import type { ClaimedTask, ControlPlaneClient } from '../index.js';

/** A stand-in for a task turn: the result to submit for a claimed task, or `{ fail: reason }` to fail it. */
export type TaskAnswer = (task: ClaimedTask) => Record<string, unknown>;

/**
 * Drives workflows to rest in this process, as a worker would: runs every due advance, then claims and answers every
 * queued task, until nothing is due. Returns how many tasks it answered.
 */
export async function driveWorkflows(client: ControlPlaneClient, answer: TaskAnswer, workerId = 'test-worker'): Promise<number> {
  let answered = 0;
  for (let round = 0; round < 1000; round += 1) {
    let progressed = false;
    while ((await client.advances.runNext({ workerId })) !== null) progressed = true;
    for (let task = await client.tasks.claim({ workerId }); task !== null; task = await client.tasks.claim({ workerId })) {
      progressed = true;
      const value = answer(task);
      if ('fail' in value && typeof value.fail === 'string' && Object.keys(value).length === 1) {
        await client.tasks.fail({ taskId: task.id, leaseToken: task.leaseToken, error: value.fail });
      } else {
        const outcome = await client.tasks.submit({ taskId: task.id, leaseToken: task.leaseToken, result: value });
        if (!outcome.accepted) throw new Error(`the test's answer to "${task.title}" was refused: ${JSON.stringify(outcome.errors)}`);
      }
      answered += 1;
    }
    if (!progressed) return answered;
  }
  throw new Error('the workflows did not come to rest in 1000 rounds');
}
