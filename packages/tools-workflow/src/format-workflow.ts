import type { TaskRecord, WorkflowDetails, WorkflowRecord } from '@core/control-plane-client';

/** Most characters of the workflow's result `show_workflow` prints (the rest is cut with a note). */
const RESULT_CHARS = 8_000;
/** Most characters of one task's result or error in `show_workflow`. */
const TASK_RESULT_CHARS = 600;
/** Most log lines `show_workflow` prints (the last ones). */
const LOG_LINES = 50;

/** A workflow as the lines the model reads in a list: id, title, status, tasks, replays, times, and a preview of the outcome. */
export function formatWorkflow(workflow: WorkflowRecord): string {
  const lines = [`- id: ${workflow.id}`, `  title: ${workflow.title}`, `  status: ${workflow.status}`, `  tasks: ${workflow.taskCount}, replays: ${workflow.replays}`];
  lines.push(`  created: ${workflow.createdAt}`);
  if (workflow.finishedAt !== null) lines.push(`  finished: ${workflow.finishedAt}`);
  if (workflow.error !== null) lines.push(`  error: ${workflow.error}`);
  if (workflow.result !== null) lines.push(`  result: ${cut(JSON.stringify(workflow.result), 200, 'show_workflow shows all of it')}`);
  return lines.join('\n');
}

/**
 * A workflow in full for `show_workflow`: status, replays, the result or error, each task (status, timing, and its
 * result or error), and the log's last lines.
 */
export function formatWorkflowDetails(workflow: WorkflowDetails): string {
  const lines = [
    `Workflow ${workflow.id}`,
    `  title: ${workflow.title}`,
    `  status: ${workflow.status}`,
    `  replays: ${workflow.replays} (runs of the script so far)`,
    `  created: ${workflow.createdAt}`,
  ];
  if (workflow.finishedAt !== null) lines.push(`  finished: ${workflow.finishedAt} (${duration(workflow.createdAt, workflow.finishedAt)})`);
  if (workflow.notifyOnFinish) lines.push('  notify on finish: yes (you get a turn with the outcome)');
  if (workflow.error !== null) lines.push(`  error: ${workflow.error}`);
  if (workflow.result !== null) lines.push(`  result: ${cut(JSON.stringify(workflow.result), RESULT_CHARS, 'cut')}`);
  lines.push(workflow.tasks.length === 0 ? 'Tasks: none yet.' : `Tasks (${workflow.tasks.length}):`);
  for (const task of workflow.tasks) lines.push(...formatTask(task));
  if (workflow.log.length > 0) {
    const shown = workflow.log.slice(-LOG_LINES);
    lines.push(workflow.log.length > shown.length ? `Log (last ${shown.length} of ${workflow.log.length} lines):` : 'Log:');
    for (const line of shown) lines.push(`  ${line.at} ${line.text}`);
  }
  return lines.join('\n');
}

function formatTask(task: TaskRecord): string[] {
  const timing = [
    task.startedAt === null ? undefined : `started ${task.startedAt}`,
    task.startedAt !== null && task.finishedAt !== null ? `took ${duration(task.startedAt, task.finishedAt)}` : undefined,
    task.attempts > 1 ? `${task.attempts} attempts` : undefined,
  ].filter((part) => part !== undefined);
  const lines = [`  ${task.sequence + 1}. ${task.title} [${task.status}]${timing.length === 0 ? '' : ` ${timing.join(', ')}`}`];
  if (task.error !== null) lines.push(`     error: ${cut(task.error, TASK_RESULT_CHARS, 'cut')}`);
  if (task.result !== null) lines.push(`     result: ${cut(JSON.stringify(task.result), TASK_RESULT_CHARS, 'cut')}`);
  return lines;
}

/** `1.2 s`, `3 min 4 s` between two ISO times. */
export function duration(from: string, to: string): string {
  const ms = Math.max(0, Date.parse(to) - Date.parse(from));
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function cut(text: string, limit: number, note: string): string {
  return text.length > limit ? `${text.slice(0, limit - 1)}… (${note})` : text;
}
