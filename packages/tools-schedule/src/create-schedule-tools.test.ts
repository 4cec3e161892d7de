import { createOpenAIResponsesGateway, runAgentLoop, type AgentEvent } from '@core/runtime';
import { functionCallOutputs, reply, startTestModelServer } from '@core/testkit';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createScheduleTools } from './create-schedule-tools.js';
import { controlPlanes } from '@core/control-plane/testing';

const signal = new AbortController().signal;
const call = (name: string) => ({ signal, callId: 'c1', toolName: name });

describe.each(['postgres', 'pglite'] as const)('createScheduleTools on %s', (kind) => {
  const planes = controlPlanes(kind);
  afterEach(() => planes.cleanup());
  afterAll(() => planes.close());

  it('is schedule_create, schedule_list and schedule_cancel, in that order', async () => {
    const { client } = await planes.open();
    const tools = createScheduleTools({ client, agentId: 'a' });
    expect(tools.map((tool) => [tool.name, tool.isReadOnly, tool.isDestructive])).toEqual([
      ['schedule_create', false, false],
      ['schedule_list', true, false],
      ['schedule_cancel', false, true],
    ]);
  });

  it('a model creates, lists and cancels a schedule in one turn', async () => {
    const { client } = await planes.open();
    const model = await startTestModelServer({
      script: [
        reply.functionCalls([
          { name: 'schedule_create', arguments: { prompt: 'Send the weekly report', title: 'Weekly report', cron: '0 9 * * 1', timeZone: 'Europe/Paris' } },
        ]),
        reply.functionCalls([{ name: 'schedule_list', arguments: {} }]),
        (request) => {
          const listed = String(functionCallOutputs(request).at(-1)?.output);
          const scheduleId = /id: (\S+)/.exec(listed)?.[1] ?? 'missing';
          return reply.functionCalls([{ name: 'schedule_cancel', arguments: { scheduleId } }]);
        },
        reply.text('Done: the weekly report schedule was created and cancelled.'),
      ],
    });
    try {
      const events: AgentEvent[] = [];
      const result = await runAgentLoop({
        gateway: createOpenAIResponsesGateway({ baseURL: model.baseURL, apiKey: 'test', model: 'test-model' }),
        tools: createScheduleTools({ client, agentId: 'agent-7' }),
        input: 'Every Monday at 9 send me the weekly report, then cancel it again.',
        onEvent: (event) => events.push(event),
      });
      expect(result.reason).toBe('completed');
      expect(result.toolCalls).toBe(3);

      const [created, listed, cancelled] = model.requests.slice(1).map((request) => String(functionCallOutputs(request).at(-1)?.output));
      expect(created).toContain('when: At 09:00, only on Monday (Europe/Paris)');
      expect(created).toMatch(/next runs: \d{4}-\d\d-\d\dT0[78]:00:00\.000Z, /);
      expect(listed).toContain('1 schedule(s):');
      expect(cancelled).toContain('Schedule cancelled; it will not run again');
      const [schedule] = await client.schedules.list({ agentId: 'agent-7', includeInactive: true });
      expect(schedule).toMatchObject({ title: 'Weekly report', status: 'cancelled', prompt: 'Send the weekly report' });
      expect(events.filter((event) => event.type === 'activity.completed').length).toBe(3);
    } finally {
      await model.close();
    }
  });

  it('gives error outputs the model can act on for bad crons, past times, too-frequent crons and unknown ids', async () => {
    const { client } = await planes.open({ minScheduleIntervalSeconds: 3600 });
    const [create, , cancel] = createScheduleTools({ client, agentId: 'a' });
    const other = createScheduleTools({ client, agentId: 'b' });

    const badCron = await create!.execute({ prompt: 'p', cron: '61 * * * *' }, call('schedule_create'));
    expect(badCron).toMatchObject({ isError: true, details: { code: 'cron_invalid' } });
    expect(badCron.content).toMatch(/^Could not create the schedule: The cron expression "61 \* \* \* \*" is invalid/);

    const past = await create!.execute({ prompt: 'p', runAt: '2001-01-01T00:00:00Z' }, call('schedule_create'));
    expect(past).toMatchObject({ isError: true, details: { code: 'run_at_in_past' } });

    const frequent = await create!.execute({ prompt: 'p', cron: '*/10 * * * *' }, call('schedule_create'));
    expect(frequent.content).toContain('runs every 10 min, more often than the minimum interval of 1 h');

    const neither = await create!.execute({ prompt: 'p' }, call('schedule_create'));
    expect(neither.content).toContain('give exactly one of cron');

    const unknown = await cancel!.execute({ scheduleId: 'nope' }, call('schedule_cancel'));
    expect(unknown).toMatchObject({ isError: true, details: { code: 'schedule_not_found' } });

    const mine = await create!.execute({ prompt: 'p', cron: '0 9 * * *' }, call('schedule_create'));
    const id = (mine.details as { schedule: { id: string } }).schedule.id;
    expect(await other[2]!.execute({ scheduleId: id }, call('schedule_cancel'))).toMatchObject({ isError: true, details: { code: 'schedule_not_found' } });
    expect((await other[1]!.execute({}, call('schedule_list'))).content).toBe('No active schedules.');
    expect((await client.schedules.get({ agentId: 'a', scheduleId: id })).status).toBe('active');
    expect((await cancel!.execute({ scheduleId: id }, call('schedule_cancel'))).content).toContain('Schedule cancelled');
    expect((await cancel!.execute({ scheduleId: id }, call('schedule_cancel'))).content).toContain('already cancelled; nothing changed');
  });
});
