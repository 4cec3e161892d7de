import { createOpenAIResponsesGateway, runAgentLoop } from '@core/runtime';
import { functionCallOutputs, reply, startTestModelServer } from '@core/testkit';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createBackgroundAgentJobTools } from './create-background-agent-job-tools.js';
import { controlPlanes } from '@core/control-plane/testing';

const signal = new AbortController().signal;
const call = (name: string) => ({ signal, callId: 'c1', toolName: name });

describe.each(['postgres', 'pglite'] as const)('createBackgroundAgentJobTools on %s', (kind) => {
  const planes = controlPlanes(kind);
  afterEach(() => planes.cleanup());
  afterAll(() => planes.close());

  it('gives no tools to a turn that may not start jobs, and the four tools otherwise', async () => {
    const { client } = await planes.open();
    expect(createBackgroundAgentJobTools({ client, agentId: 'a', allowJobs: false })).toEqual([]);
    expect(createBackgroundAgentJobTools({ client, agentId: 'a', allowJobs: true }).map((tool) => tool.name)).toEqual([
      'start_background_job',
      'get_background_job',
      'list_background_jobs',
      'cancel_background_job',
    ]);
  });

  it('a model starts two jobs, lists them, reads one and cancels the other in one turn', async () => {
    const { client } = await planes.open();
    const model = await startTestModelServer({
      script: [
        reply.functionCalls([
          { name: 'start_background_job', arguments: { prompt: 'Research tide pools', title: 'Tide pools' } },
          { name: 'start_background_job', arguments: { prompt: 'Draft the newsletter', title: 'Newsletter' } },
        ]),
        reply.functionCalls([{ name: 'list_background_jobs', arguments: { status: ['queued'] } }]),
        (request) => {
          const listed = String(functionCallOutputs(request).at(-1)?.output);
          const ids = [...listed.matchAll(/id: (\S+)/g)].map((match) => match[1]!);
          // Newest first: the newsletter, then tide pools.
          return reply.functionCalls([
            { name: 'get_background_job', arguments: { jobId: ids[1] } },
            { name: 'cancel_background_job', arguments: { jobId: ids[0] } },
          ]);
        },
        reply.text('Started two jobs and cancelled the newsletter.'),
      ],
    });
    try {
      const result = await runAgentLoop({
        gateway: createOpenAIResponsesGateway({ baseURL: model.baseURL, apiKey: 'test', model: 'test-model' }),
        tools: createBackgroundAgentJobTools({ client, agentId: 'agent-3', allowJobs: true }),
        input: 'Research tide pools and draft the newsletter in the background; actually, skip the newsletter.',
      });
      expect(result.reason).toBe('completed');
      expect(result.toolCalls).toBe(5);
      const outputs = functionCallOutputs(model.requests.at(-1)!).map((item) => String(item.output));
      expect(outputs[0]).toContain('Background job started');
      expect(outputs[2]).toContain('2 background job(s):');
      expect(outputs[3]).toMatch(/title: Tide pools\n {2}status: queued/);
      expect(outputs[4]).toMatch(/Background job cancelled:[\s\S]*title: Newsletter\n {2}status: cancelled/);

      const jobs = await client.jobs.list({ agentId: 'agent-3' });
      expect(jobs.map((job) => [job.title, job.status, job.allowJobs])).toEqual([
        ['Newsletter', 'cancelled', false],
        ['Tide pools', 'queued', false],
      ]);
    } finally {
      await model.close();
    }
  });

  it("shows a finished job's final answer, and refuses unknown or other agents' ids with error outputs", async () => {
    const { client } = await planes.open({ maxUnfinishedJobsPerAgent: 1 });
    const [start, get, , cancel] = createBackgroundAgentJobTools({ client, agentId: 'a', allowJobs: true });
    const started = await start!.execute({ prompt: 'Count to three' }, call('start_background_job'));
    const jobId = (started.details as { job: { id: string } }).job.id;

    const refused = await start!.execute({ prompt: 'One more' }, call('start_background_job'));
    expect(refused).toMatchObject({ isError: true, details: { code: 'job_limit_reached' } });

    const claimed = await client.work.claim({ workerId: 'w' });
    await client.work.complete({ jobId, leaseToken: claimed!.leaseToken, finalAnswer: 'One, two, three.' });
    const done = await get!.execute({ jobId }, call('get_background_job'));
    expect(done.content).toContain('status: succeeded');
    expect(done.content).toContain('final answer: One, two, three.');
    expect((await cancel!.execute({ jobId }, call('cancel_background_job'))).content).toContain('already finished (succeeded)');

    const others = createBackgroundAgentJobTools({ client, agentId: 'b', allowJobs: true });
    expect(await others[1]!.execute({ jobId }, call('get_background_job'))).toMatchObject({ isError: true, details: { code: 'job_not_found' } });
    expect(await others[3]!.execute({ jobId }, call('cancel_background_job'))).toMatchObject({ isError: true, details: { code: 'job_not_found' } });
    expect((await others[2]!.execute({}, call('list_background_jobs'))).content).toBe('No background jobs.');
  });
});
