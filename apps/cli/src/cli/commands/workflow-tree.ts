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

/**
 * A workflow drawn for `ankole workflows show`: a header with its status, run time and replays, its tasks as a tree
 * (status mark, title, status, duration; the result or error under each), then its result or error and log.
 * `now` times running tasks and the running workflow.
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
    if (task.error !== null) lines.push(`${indent}   error: ${preview(task.error)}`);
    if (task.result !== null) lines.push(`${indent}   result: ${preview(JSON.stringify(task.result))}`);
  });
  if (workflow.error !== null) lines.push(`error: ${workflow.error}`);
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

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat;
}
