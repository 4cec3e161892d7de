import { expect } from 'vitest';
import { formatPath, type RpcMethodName } from '../index.js';
import type { ContractPlane } from './contract-plane.js';

/*
 * The cases of the unstorable-text suites (the contract's, through a client, and as raw HTTP requests in
 * @core/control-plane-http): valid inputs for every RPC call, and each of them spoiled in one string or one object key.
 */

const TEXT = { type: 'object', additionalProperties: false, required: ['items'], properties: { items: { type: 'array', items: { type: 'string' } } } };
/** The two kinds of text PostgreSQL cannot store. */
export const BAD = { NUL: '\u0000', 'lone surrogate': '\uD83D' } as const;

/** Real records for the inputs to name: a schedule, a paused and a running job, a workflow, a claimed task, a held job's approval, a page. */
export async function fixtures(plane: Pick<ContractPlane, 'client'>) {
  const { client } = plane;
  const schedule = await client.schedules.create({ agentId: 'a', prompt: 'p', cron: '0 9 * * *' });
  // A job paused for approval (its approval), then a running one (its lease).
  await client.jobs.start({ agentId: 'a', prompt: 'held' });
  const held = (await client.work.claim({ workerId: 'w' }))!;
  await client.work.hold({ jobId: held.id, leaseToken: held.leaseToken, runState: { items: [] }, calls: [{ callId: 'c1', toolName: 't', label: 'l' }] });
  await client.jobs.start({ agentId: 'a', prompt: 'running' });
  const job = (await client.work.claim({ workerId: 'w' }))!;
  const workflow = await client.workflows.start({ agentId: 'a', title: 'W', script: `return await task({ title: 'T', prompt: 'P', result: ${JSON.stringify(TEXT)} });` });
  while ((await client.advances.runNext({ workerId: 'w' })) !== null);
  const task = (await client.tasks.claim({ workerId: 'w' }))!;
  const [approval] = await client.approvals.list({ agentId: 'a' });
  const page = await client.brain.createPage({ agentId: 'a', title: 'Notes', body: 'Some notes.' });
  return { schedule, job, workflow, task, approval: approval!, page };
}

export type Fixtures = Awaited<ReturnType<typeof fixtures>>;

/**
 * Valid inputs for every call of the RPC table (several for a call with alternative shapes): each string in them,
 * and each object key, is a place a client could send text (a new call without inputs here fails the coverage check).
 */
export function validInputs(f: Fixtures): Record<RpcMethodName, unknown[]> {
  const jobLease = { jobId: f.job.id, leaseToken: f.job.leaseToken };
  const taskLease = { taskId: f.task.id, leaseToken: f.task.leaseToken };
  const runState = { version: 1, items: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Tidy up.' }] }], pending: [{ callId: 'c9' }] };
  const calls = [{ callId: 'c9', toolName: 'command', label: 'Running `ls`', params: { command: 'ls', options: { cwd: 'home' } }, isDestructive: true }];
  const output = { content: [{ type: 'text', text: 'listed' }], isError: false };
  const event = { type: 'activity.completed', toolName: 'command', label: 'Ran `ls`', details: { stdout: 'a.txt' } };
  return {
    'schedules.create': [
      { agentId: 'a', prompt: 'Summarise', title: 'Daily', cron: '0 9 * * *', timeZone: 'Europe/Paris' },
      { agentId: 'a', prompt: 'Remind', runAt: new Date(Date.now() + 3_600_000).toISOString() },
    ],
    'schedules.list': [{ agentId: 'a', includeInactive: true }],
    'schedules.get': [{ agentId: 'a', scheduleId: f.schedule.id }],
    'schedules.cancel': [{ agentId: 'a', scheduleId: f.schedule.id }],
    'jobs.start': [{ agentId: 'a', prompt: 'Do it', title: 'It' }],
    'jobs.get': [{ agentId: 'a', jobId: f.job.id }],
    'jobs.list': [{ agentId: 'a', status: ['queued'], limit: 5 }],
    'jobs.cancel': [{ agentId: 'a', jobId: f.job.id }],
    'work.claim': [{ workerId: 'w' }],
    'work.heartbeat': [jobLease],
    'work.complete': [{ ...jobLease, finalAnswer: 'Done.' }],
    'work.fail': [{ ...jobLease, error: 'Broke.' }],
    'work.release': [jobLease],
    'work.hold': [{ ...jobLease, runState, calls }],
    'work.startApprovedCall': [{ ...jobLease, callId: 'c1' }],
    'work.finishApprovedCall': [{ ...jobLease, callId: 'c1', output }],
    'approvals.list': [{ agentId: 'a', status: ['pending'], limit: 5 }],
    'approvals.get': [{ agentId: 'a', approvalId: f.approval.id }],
    'approvals.decide': [{ agentId: 'a', approvalId: f.approval.id, approved: false, reason: 'Not now.' }],
    'workflows.start': [{ agentId: 'a', title: 'Flow', script: 'return input.items[0].name;', input: { items: [{ name: 'first' }] }, notifyOnFinish: false }],
    'workflows.get': [{ agentId: 'a', workflowId: f.workflow.id }],
    'workflows.list': [{ agentId: 'a', status: ['running'] }],
    'workflows.cancel': [{ agentId: 'a', workflowId: f.workflow.id }],
    'tasks.claim': [{ workerId: 'w' }],
    'tasks.heartbeat': [taskLease],
    'tasks.submit': [{ ...taskLease, result: { items: ['one', 'two'] } }],
    'tasks.fail': [{ ...taskLease, error: 'Broke.' }],
    'tasks.release': [taskLease],
    'tasks.hold': [{ ...taskLease, runState, calls }],
    'tasks.startApprovedCall': [{ ...taskLease, callId: 'c1' }],
    'tasks.finishApprovedCall': [{ ...taskLease, callId: 'c1', output }],
    'advances.runNext': [{ workerId: 'w' }],
    'brain.createPage': [{ agentId: 'a', title: 'Plans', body: 'The plan.' }],
    'brain.updatePage': [{ agentId: 'a', page: f.page.id, title: 'Notes 2', body: 'More notes.' }],
    'brain.deletePage': [{ agentId: 'a', page: 'Notes' }],
    'brain.getPage': [{ agentId: 'a', page: 'Notes', offset: 0, limit: 100 }],
    'brain.listPages': [{ agentId: 'a', limit: 10 }],
    'brain.recall': [{ agentId: 'a', query: 'notes', limit: 5 }],
    'brain.importPages': [{ agentId: 'a', pages: [{ title: 'Imported', body: 'Text.' }] }],
    'transcripts.append': [
      { ...jobLease, fromSequence: 0, entries: [{ time: new Date().toISOString(), event }] },
      { ...taskLease, fromSequence: 0, entries: [{ time: new Date().toISOString(), event }] },
    ],
    'transcripts.get': [
      { agentId: 'a', jobId: f.job.id },
      { agentId: 'a', taskId: f.task.id },
    ],
  };
}

/** One way to put `bad` into `input`: into one string, or into one object key; `path` names where. */
export interface Case {
  path: string;
  input: unknown;
}

/** Every string and every object key of `value`, each spoiled in turn with `bad` (the rest left as it was). */
export function spoiled(value: unknown, bad: string): Case[] {
  const cases: Case[] = [];
  const walk = (current: unknown, steps: Array<string | number>, rebuild: (replacement: unknown) => unknown) => {
    if (typeof current === 'string') {
      cases.push({ path: formatPath(steps), input: rebuild(`${current.slice(0, 1)}${bad}${current.slice(1)}`) });
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => walk(item, [...steps, index], (replacement) => rebuild(current.map((other, at) => (at === index ? replacement : other)))));
    } else if (typeof current === 'object' && current !== null) {
      const entries = Object.entries(current);
      for (const [index, [key, item]] of entries.entries()) {
        const badKey = `${key.slice(0, 1)}${bad}${key.slice(1)}`;
        cases.push({ path: formatPath([...steps, badKey]), input: rebuild(Object.fromEntries(entries.map((entry, at) => (at === index ? [badKey, entry[1]] : entry)))) });
        walk(item, [...steps, key], (replacement) => rebuild(Object.fromEntries(entries.map((entry, at) => (at === index ? [key, replacement] : entry)))));
      }
    }
  };
  walk(value, [], (replacement) => replacement);
  return cases;
}
