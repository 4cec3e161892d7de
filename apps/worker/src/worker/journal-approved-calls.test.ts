import { defineWorkerTool, type AnyWorkerAgentTool, type ToolExecutionContext } from '@core/runtime';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { INTERRUPTED_CALL_OUTPUT, journalApprovedCalls, type ApprovedCallJournal } from './journal-approved-calls.js';

/** A destructive tool and a read-only one that count their runs, and a journal that logs what it is told. */
function fixture(startAnswer = true) {
  const runs: string[] = [];
  const log: string[] = [];
  const tool = (name: string, isReadOnly: boolean): AnyWorkerAgentTool =>
    defineWorkerTool({
      name,
      description: name,
      schema: z.object({}),
      isReadOnly,
      isDestructive: !isReadOnly,
      describeActivity: () => name,
      execute: (_params, context) => {
        runs.push(`${name}:${context.callId}`);
        log.push(`run ${context.callId}`);
        return { content: `${name} ran` };
      },
    });
  const journal: ApprovedCallJournal = {
    start: async (callId) => {
      log.push(`start ${callId}`);
      return startAnswer;
    },
    finish: async (callId, output) => {
      log.push(`finish ${callId} ${JSON.stringify(output)}`);
    },
  };
  return { runs, log, journal, remove: tool('remove', false), look: tool('look', true) };
}

const context = (callId: string): ToolExecutionContext => ({ signal: new AbortController().signal, callId, toolName: 'remove' });

describe('journalApprovedCalls', () => {
  it('journals the start of an approved call before it runs and its output after; other calls run untouched', async () => {
    const { runs, log, journal, remove } = fixture();
    const [wrapped] = journalApprovedCalls([remove], { decisions: { c1: { approved: true }, c2: { approved: false } }, journal });
    expect(await wrapped!.execute({}, context('c1'))).toEqual({ content: 'remove ran' });
    await wrapped!.execute({}, context('other'));
    expect(log).toEqual(['start c1', 'run c1', 'finish c1 {"content":"remove ran"}', 'run other']);
    expect(runs).toEqual(['remove:c1', 'remove:other']);
  });

  it('hands back a recorded output, and never runs again a call that started without one (unless it is read-only)', async () => {
    const { runs, journal, remove, look } = fixture();
    const decisions = { done: { approved: true as const, started: true, output: { content: 'removed earlier' } }, cut: { approved: true as const, started: true } };
    const [wrappedRemove, wrappedLook] = journalApprovedCalls([remove, look], { decisions, journal });
    expect(await wrappedRemove!.execute({}, context('done'))).toEqual({ content: 'removed earlier' });
    expect(await wrappedRemove!.execute({}, context('cut'))).toEqual({ content: INTERRUPTED_CALL_OUTPUT, isError: true });
    expect(await wrappedLook!.execute({}, context('cut'))).toEqual({ content: 'look ran' });
    expect(runs).toEqual(['look:cut']);
  });

  it('does not run an approved call whose start the control plane refuses (the turn is no longer this worker’s)', async () => {
    const { runs, journal, remove } = fixture(false);
    const [wrapped] = journalApprovedCalls([remove], { decisions: { c1: { approved: true } }, journal });
    expect(await wrapped!.execute({}, context('c1'))).toMatchObject({ isError: true, content: expect.stringContaining('not run') as unknown });
    expect(runs).toEqual([]);
  });
});
