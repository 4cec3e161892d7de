import type { TaskRecord, TaskStatus, WorkflowDetails, WorkflowStatus } from '@core/control-plane-client';
import { duration } from '@core/tools-workflow';

const MARKS: Record<TaskStatus | WorkflowStatus, string> = {
  queued: '·',
  running: '▶',
  succeeded: '✓',
  failed: '✗',
  cancelled: '■',
  awaiting_approval: '⏸',
};

/** Most characters of a result or error shown in the tree (`--json` shows everything). */
const PREVIEW_CHARS = 160;
/** Most characters of a failed task's error on its own line under the tree. */
const FAILURE_CHARS = 2000;

/**
 * A workflow drawn for `ankole workflows show`: a header with its status, run time and replays, its tasks as a tree
 * (status mark, title, status, duration; the result, or a cancelled task's reason, under each), then one line per
 * failed task with its whole error (`task "summarise" failed: its result schema …`), then the workflow's result or
 * error (a failure the script did not catch is named, not repeated) and log. `now` times running tasks and the
 * running workflow.
 */
export function formatWorkflowTree(workflow: WorkflowDetails, now: string): string {
  const took = duration(workflow.createdAt, workflow.finishedAt ?? now);
  const lines = [
    `Workflow ${workflow.id} "${workflow.title}" (agent ${workflow.agentId})`,
    `${MARKS[workflow.status]} ${workflow.status} ${workflow.finishedAt === null ? `for ${took}` : `in ${took}`}, ${workflow.replays} replay(s), ${workflow.taskCount} task(s)`,
    `input: ${preview(JSON.stringify(workflow.input))}`,
  ];
  if (workflow.tasks.length === 0) lines.push('└─ (no tasks yet)');
  workflow.tasks.forEach((task, index) => {
    const last = index === workflow.tasks.length - 1;
    lines.push(`${last ? '└─' : '├─'} ${taskLine(task, now)}`);
    const indent = last ? '   ' : '│  ';
    if (task.error !== null && task.status !== 'failed') lines.push(`${indent}   error: ${preview(task.error)}`);
    if (task.result !== null) lines.push(`${indent}   result: ${preview(JSON.stringify(task.result))}`);
  });
  const failed = workflow.tasks.filter((task) => task.status === 'failed');
  for (const task of failed) lines.push(`task "${task.title}" failed: ${failureText(task.error)}`);
  if (workflow.error !== null) {
    // The script's own rethrow of a task's failure (`Task "x" failed: <its error>`) is shown once, above.
    const rethrown = failed.find((task) => workflow.error === `Task "${task.title}" failed: ${task.error ?? 'no reason given'}`);
    lines.push(`error: ${rethrown === undefined ? workflow.error : `the script did not catch the failure of task "${rethrown.title}" (above).`}`);
  }
  if (workflow.result !== null) lines.push(`result: ${JSON.stringify(workflow.result)}`);
  if (workflow.log.length > 0) {
    lines.push('log:');
    for (const line of workflow.log) lines.push(`  ${line.at.slice(11, 19)} ${line.text}`);
  }
  return lines.join('\n');
}

function taskLine(task: TaskRecord, now: string): string {
  const timing =
    task.startedAt === null
      ? task.status === 'queued'
        ? 'waiting'
        : ''
      : task.finishedAt === null
        ? `for ${duration(task.startedAt, now)}`
        : duration(task.startedAt, task.finishedAt);
  const attempts = task.attempts > 1 ? `, ${task.attempts} attempts` : '';
  return `${MARKS[task.status]} ${task.sequence + 1}. ${task.title}  ${task.status}${timing === '' ? '' : ` ${timing}`}${attempts}`;
}

/** A failed task's error on one line, cut at `FAILURE_CHARS`, starting in lower case after `failed:` (not an acronym). */
function failureText(error: string | null): string {
  const flat = (error ?? 'no reason given').replace(/\s+/g, ' ').trim();
  const cut = flat.length > FAILURE_CHARS ? `${flat.slice(0, FAILURE_CHARS - 1)}…` : flat;
  return /^[A-Z][a-z]/.test(cut) ? `${cut[0]!.toLowerCase()}${cut.slice(1)}` : cut;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat;
}
