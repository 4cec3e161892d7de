import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UsageError } from '../errors.js';
import { agentToolMap } from '../tool/agent-tool-map.js';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import type { ExecutionMode } from '../tool/worker-agent-tool.js';
import { createCallScheduler } from './call-scheduler.js';
import type { CallGateAnswer, FunctionCallItem } from './dispatch-options.js';

function call(name: string, text: string, callId: string): FunctionCallItem {
  return { type: 'function_call', call_id: callId, name, arguments: JSON.stringify({ text }) };
}

/** A tool whose calls wait until the test releases them by their text; `log` records starts and ends in order. */
function heldTool(name: string, executionMode: ExecutionMode, log: string[], release: Map<string, () => void>) {
  return defineWorkerTool({
    name,
    description: `Tool ${name}.`,
    schema: z.object({ text: z.string() }),
    executionMode,
    describeActivity: (params) => `${name}(${params.text})`,
    execute: async (params) => {
      log.push(`start ${params.text}`);
      await new Promise<void>((resolve) => release.set(params.text, resolve));
      log.push(`end ${params.text}`);
      return { content: params.text };
    },
  });
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('createCallScheduler', () => {
  it('starts early only what startsEarly allows, in the model order, and the rest once closed', async () => {
    const log: string[] = [];
    const release = new Map<string, () => void>();
    const read = heldTool('read', 'parallel', log, release);
    const write = heldTool('write', 'parallel', log, release);
    const scheduler = createCallScheduler(agentToolMap([read, write]), {
      startsEarly: (preparation) => preparation.ok && preparation.tool.name === 'read',
    });
    scheduler.add([call('read', 'a', 'c1'), call('write', 'b', 'c2')]);
    scheduler.add([call('read', 'c', 'c3')]);
    await tick();
    // The write waits for close; a parallel call behind it may still start.
    expect(log).toEqual(['start a', 'start c']);
    const closing = scheduler.close();
    await tick();
    expect(log).toEqual(['start a', 'start c', 'start b']);
    for (const text of ['c', 'b', 'a']) release.get(text)?.();
    const outcomes = await closing;
    expect(outcomes.map((outcome) => [outcome.callId, outcome.output.output])).toEqual([
      ['c1', 'a'],
      ['c2', 'b'],
      ['c3', 'c'],
    ]);
  });

  it('lets a waiting sequential call block every call after it until close', async () => {
    const log: string[] = [];
    const release = new Map<string, () => void>();
    const read = heldTool('read', 'parallel', log, release);
    const edit = heldTool('edit', 'sequential', log, release);
    const scheduler = createCallScheduler(agentToolMap([read, edit]), {
      startsEarly: (preparation) => preparation.ok && preparation.tool.name === 'read',
    });
    scheduler.add([call('edit', 'a', 'c1'), call('read', 'b', 'c2')]);
    await tick();
    expect(log).toEqual([]);
    const closing = scheduler.close();
    await tick();
    expect(log).toEqual(['start a']);
    release.get('a')?.();
    await tick();
    expect(log).toEqual(['start a', 'end a', 'start b']);
    release.get('b')?.();
    expect((await closing).map((outcome) => outcome.status)).toEqual(['success', 'success']);
  });

  it('refuses calls and a second close once closed or abandoned, with a typed error', async () => {
    const tool = heldTool('read', 'parallel', [], new Map());
    const closed = createCallScheduler(agentToolMap([tool]));
    await closed.close();
    expect(() => closed.add([call('read', 'a', 'c1')])).toThrow(UsageError);
    await expect(closed.close()).rejects.toMatchObject({ code: 'scheduler_closed' });
    const abandoned = createCallScheduler(agentToolMap([tool]));
    await abandoned.abandon('gone');
    expect(() => abandoned.add([call('read', 'a', 'c1')])).toThrow(expect.objectContaining({ code: 'scheduler_closed' }));
  });

  it('abandons: aborts the running calls quoting the reason, never starts the waiting ones, returns what ran', async () => {
    const log: string[] = [];
    const release = new Map<string, () => void>();
    const read = heldTool('read', 'parallel', log, release);
    const write = heldTool('write', 'parallel', log, release);
    const completed: string[] = [];
    const scheduler = createCallScheduler(agentToolMap([read, write]), {
      startsEarly: (preparation) => preparation.ok && preparation.tool.name === 'read',
      onCallCompleted: (outcome) => completed.push(outcome.callId),
    });
    scheduler.add([call('read', 'a', 'c1'), call('write', 'b', 'c2'), call('nope', 'c', 'c3')]);
    await tick();
    const outcomes = await scheduler.abandon('The model response it came from was cut off');
    expect(log).toEqual(['start a']);
    expect(outcomes.map((outcome) => [outcome.callId, outcome.status, outcome.started])).toEqual([['c1', 'aborted', true]]);
    expect(outcomes[0]?.output.output).toBe(
      'Error: read was stopped before it finished because the model response it came from was cut off; anything it did until then stays done.',
    );
    expect(completed).toEqual(['c1']);
  });

  it('takes out only the calls named to abandon; close returns the others', async () => {
    const log: string[] = [];
    const release = new Map<string, () => void>();
    const read = heldTool('read', 'parallel', log, release);
    const scheduler = createCallScheduler(agentToolMap([read]), { startsEarly: () => true });
    scheduler.add([call('read', 'a', 'c1'), call('read', 'b', 'c2')]);
    await tick();
    await scheduler.abandon('replaced', new Set(['c1']));
    release.get('b')?.();
    const outcomes = await scheduler.close();
    expect(outcomes.map((outcome) => [outcome.callId, outcome.status])).toEqual([['c2', 'success']]);
  });

  it('asks the gate only when a call may start; after a hold the next sequential call and all after it are deferred', async () => {
    const log: string[] = [];
    const release = new Map<string, () => void>();
    const read = heldTool('read', 'parallel', log, release);
    const edit = heldTool('edit', 'sequential', log, release);
    const asked: string[] = [];
    const answers: Record<string, CallGateAnswer> = { a: { action: 'hold' }, d: { action: 'deny', reason: 'no' } };
    const scheduler = createCallScheduler(agentToolMap([read, edit]), {
      gate: (_call, _tool, params) => {
        const text = (params as { text: string }).text;
        asked.push(text);
        return answers[text] ?? { action: 'run' };
      },
    });
    scheduler.add([call('read', 'a', 'c1'), call('read', 'b', 'c2'), call('edit', 'c', 'c3'), call('read', 'd', 'c4')]);
    expect(asked).toEqual([]);
    const closing = scheduler.close();
    await tick();
    release.get('b')?.();
    const outcomes = await closing;
    expect(log).toEqual(['start b', 'end b']);
    expect(asked).toEqual(['a', 'b', 'c', 'd']);
    expect(outcomes.map((outcome) => [outcome.callId, outcome.pending ?? outcome.status])).toEqual([
      ['c1', 'held'],
      ['c2', 'success'],
      ['c3', 'deferred'],
      ['c4', 'error'],
    ]);
    expect(outcomes[0]?.params).toEqual({ text: 'a' });
  });
});
