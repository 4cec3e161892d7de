import { controlPlanes } from '@core/control-plane/testing';
import { createOpenAIResponsesGateway, runAgentLoop, type AgentEvent } from '@core/runtime';
import { functionCallOutputs, reply, startTestModelServer } from '@core/testkit';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createBrainTools } from './create-brain-tools.js';

const signal = new AbortController().signal;
const call = (name: string) => ({ signal, callId: 'c1', toolName: name });

describe.each(['postgres', 'pglite'] as const)('createBrainTools on %s', (kind) => {
  const planes = controlPlanes(kind);
  afterEach(() => planes.cleanup());
  afterAll(() => planes.close());

  it('gives read-only turns recall and get_page (parallel, read-only), and others the writing tools too', async () => {
    const { client } = await planes.open();
    const readOnly = createBrainTools({ client, agentId: 'a', readOnly: true });
    expect(readOnly.map((tool) => [tool.name, tool.executionMode, tool.isReadOnly, tool.isDestructive])).toEqual([
      ['recall', 'parallel', true, false],
      ['get_page', 'parallel', true, false],
    ]);
    expect(createBrainTools({ client, agentId: 'a', readOnly: false }).map((tool) => [tool.name, tool.executionMode, tool.isDestructive])).toEqual([
      ['recall', 'parallel', false],
      ['get_page', 'parallel', false],
      ['create_page', 'sequential', false],
      ['update_page', 'sequential', true],
      ['delete_page', 'sequential', true],
    ]);
  });

  it('a model saves two pages, recalls one and reads it, fixes it and deletes the other, in one turn', async () => {
    const { client } = await planes.open();
    const model = await startTestModelServer({
      script: [
        reply.functionCalls([
          { name: 'create_page', arguments: { title: 'Espresso ratio', body: '# Espresso\n\nUse 18 g of coffee for 36 g of espresso in 28 seconds.' } },
          { name: 'create_page', arguments: { title: 'Grinder', body: 'The burr grinder is set to 12 for espresso.' } },
        ]),
        reply.functionCalls([
          { name: 'recall', arguments: { query: 'how many grams of coffee' } },
          { name: 'get_page', arguments: { page: 'espresso RATIO' } },
        ]),
        reply.functionCalls([
          { name: 'update_page', arguments: { page: 'Espresso ratio', body: 'Use 18 g of coffee for 40 g of espresso.' } },
          { name: 'delete_page', arguments: { page: 'Grinder' } },
          { name: 'get_page', arguments: { page: 'Grinder' } },
        ]),
        reply.text('Saved the ratio.'),
      ],
    });
    const events: AgentEvent[] = [];
    try {
      const result = await runAgentLoop({
        gateway: createOpenAIResponsesGateway({ baseURL: model.baseURL, apiKey: 'test', model: 'test-model' }),
        tools: createBrainTools({ client, agentId: 'barista', readOnly: false }),
        input: 'Remember my espresso recipe.',
        onEvent: (event) => events.push(event),
      });
      expect(result.reason).toBe('completed');
      expect(result.toolCalls).toBe(7);
      expect(model.requests[0]!.body.tools.map((tool: { name: string }) => tool.name)).toEqual(['recall', 'get_page', 'create_page', 'update_page', 'delete_page']);
      const outputs = functionCallOutputs(model.requests.at(-1)!).map((item) => String(item.output));
      expect(outputs[0]).toMatch(/^Page saved: "Espresso ratio" \(id [0-9a-f-]{36}, 66 characters/);
      expect(outputs[2]).toMatch(/^1 Brain page\(s\) for "how many grams of coffee" \(no page has every word[^\n]*\n1\. Espresso ratio \(id /);
      expect(outputs[2]).toContain('**coffee**');
      expect(outputs[3]).toMatch(/^# Espresso ratio \(id [^\n]*66 characters[^\n]*\)\n\n# Espresso\n\nUse 18 g of coffee for 36 g/);
      expect(outputs[4]).toContain('Page updated: "Espresso ratio"');
      expect(outputs[5]).toContain('Page deleted: "Grinder"');
      expect(outputs[6]).toContain('Could not read the page: No Brain page with id or title "Grinder"');

      const labels = events.flatMap((event) => (event.type === 'activity.completed' ? [event.label] : []));
      expect(labels).toContain('Recalled 1 page(s) for "how many grams of coffee"');
      expect(labels).toContain('Read page "Espresso ratio"');
      expect((await client.brain.listPages({ agentId: 'barista' })).pages.map((page) => page.title)).toEqual(['Espresso ratio']);
      expect((await client.brain.getPage({ agentId: 'barista', page: 'Espresso ratio' })).text).toBe('Use 18 g of coffee for 40 g of espresso.');
    } finally {
      await model.close();
    }
  });

  it("reads a long page part by part, and refuses another agent's page, a taken title and bad input as error outputs", async () => {
    const { client } = await planes.open();
    const body = Array.from({ length: 800 }, (_, index) => `Step ${index}: stir the pot.`).join('\n');
    await client.brain.createPage({ agentId: 'a', title: 'Long recipe', body });
    const [recall, getPage, createPage] = createBrainTools({ client, agentId: 'a', readOnly: false });

    let text = '';
    let offset: number | undefined = 0;
    let parts = 0;
    while (offset !== undefined) {
      const result = await getPage!.execute({ page: 'Long recipe', offset }, call('get_page'));
      const slice = (result.details as { slice: { text: string; nextOffset: number | null } }).slice;
      if (slice.nextOffset !== null) expect(result.content).toContain(`call get_page with offset ${slice.nextOffset} for the next part`);
      text += slice.text;
      offset = slice.nextOffset ?? undefined;
      parts += 1;
    }
    expect(text).toBe(body);
    expect(parts).toBeGreaterThan(2);

    expect(await createPage!.execute({ title: 'long RECIPE', body: 'x' }, call('create_page'))).toMatchObject({ isError: true, details: { code: 'page_title_taken' } });
    expect(await recall!.execute({ query: ' ' }, call('recall'))).toMatchObject({ isError: true, details: { code: 'input_invalid' } });
    const [otherRecall, otherGet] = createBrainTools({ client, agentId: 'b', readOnly: true });
    expect(await otherGet!.execute({ page: 'Long recipe' }, call('get_page'))).toMatchObject({ isError: true, details: { code: 'page_not_found' } });
    expect((await otherRecall!.execute({ query: 'stir the pot' }, call('recall'))).content).toBe('No Brain pages match "stir the pot".');
  });
});
