/*
 * A stand-in worker process for the crash test: runs due advances and answers tasks in a loop, printing what it
 * does, until killed. Arguments: DATABASE_URL SCHEMA WORKER_ID HOLD_MS (how long it "works" on each task).
 */
import { createControlPlane } from '../create-control-plane.js';

const [databaseUrl, schema, workerId, holdMs] = process.argv.slice(2) as [string, string, string, string];
const plane = await createControlPlane({
  databaseUrl,
  schema,
  background: false,
  workflowLimits: { taskLeaseSeconds: 1, advanceLeaseSeconds: 9, cpuTimeLimitMs: 8000 },
});
const say = (line: string) => process.stdout.write(`${line}\n`);
say('ready');
for (;;) {
  const advanced = await plane.client.advances.runNext({ workerId });
  if (advanced !== null) say(`advanced ${advanced.workflowId} ${advanced.status} ${advanced.newTasks}`);
  const task = await plane.client.tasks.claim({ workerId });
  if (task !== null) {
    say(`claimed ${task.id} ${task.title}`);
    await new Promise((resolve) => setTimeout(resolve, Number(holdMs)));
    const outcome = await plane.client.tasks.submit({ taskId: task.id, leaseToken: task.leaseToken, result: { text: `${task.title} by ${workerId}` } });
    say(`${outcome.accepted ? 'submitted' : 'refused'} ${task.id}`);
  }
  if (advanced === null && task === null) await new Promise((resolve) => setTimeout(resolve, 50));
}
