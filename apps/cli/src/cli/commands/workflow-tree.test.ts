import type { TaskRecord, WorkflowDetails } from '@core/control-plane-client';
import { describe, expect, it } from 'vitest';
import { formatWorkflowTree } from './workflow-tree.js';

const AT = '2026-01-01T10:00:00.000Z';
const DONE = '2026-01-01T10:00:02.000Z';

function task(fields: Partial<TaskRecord> & Pick<TaskRecord, 'sequence' | 'title' | 'status'>): TaskRecord {
  return {
    id: `t${fields.sequence}`,
    workflowId: 'w1',
    agentId: 'a',
    prompt: 'p',
    resultSchema: { type: 'object' },
    result: null,
    error: null,
    attempts: 1,
    workerId: 'worker',
    createdAt: AT,
    startedAt: AT,
    finishedAt: DONE,
    ...fields,
  };
}

function workflow(tasks: TaskRecord[], error: string): WorkflowDetails {
  return {
    id: 'w1',
    agentId: 'a',
    title: 'Notes',
    status: 'failed',
    input: null,
    result: null,
    error,
    notifyOnFinish: false,
    replays: 2,
    taskCount: tasks.length,
    createdAt: AT,
    updatedAt: DONE,
    finishedAt: DONE,
    script: '',
    log: [],
    tasks,
  };
}

describe('formatWorkflowTree', () => {
  it('gives each failed task a line with its whole error, and names an uncaught rethrow instead of repeating it', () => {
    const reason = `The model endpoint failed during the task turn: ${'overloaded '.repeat(30).trim()}.`;
    const tasks = [
      task({ sequence: 0, title: 'Collect', status: 'succeeded', result: { text: 'notes' } }),
      task({ sequence: 1, title: 'summarise', status: 'failed', error: reason }),
      task({ sequence: 2, title: 'Extra', status: 'cancelled', error: 'The workflow was cancelled.' }),
    ];
    const lines = formatWorkflowTree(workflow(tasks, `Task "summarise" failed: ${reason}`), DONE).split('\n');
    expect(lines.slice(3)).toEqual([
      '├─ ✓ 1. Collect  succeeded 2.0 s',
      '│     result: {"text":"notes"}',
      '├─ ✗ 2. summarise  failed 2.0 s',
      '└─ ■ 3. Extra  cancelled 2.0 s',
      '      error: The workflow was cancelled.',
      `task "summarise" failed: the model endpoint failed during the task turn: ${'overloaded '.repeat(30).trim()}.`,
      'error: the script did not catch the failure of task "summarise" (above).',
    ]);
  });

  it('shows a workflow error of its own as it is', () => {
    const lines = formatWorkflowTree(workflow([], 'Non-deterministic script: the journal holds more.'), DONE).split('\n');
    expect(lines.slice(3)).toEqual(['└─ (no tasks yet)', 'error: Non-deterministic script: the journal holds more.']);
  });
});
