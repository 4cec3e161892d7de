import { readFileSync } from 'node:fs';
import { createOpenAIResponsesGateway, runAgentLoop, type AgentEvent } from '@core/runtime';
import { functionCallOutputs, reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { afterEach, expect, test } from 'vitest';
import { startLocalServer, sendJson, type LocalServer } from './__fixtures__/local-server.js';
import { createWebTools } from './create-web-tools.js';
import { createSearxngSearchProvider } from './searxng-search-provider.js';

const articleHtml = readFileSync(new URL('./__fixtures__/article.html', import.meta.url), 'utf8');
const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((server) => server.close()));
});

test('a turn searches the web, fetches a result, and the fetched article reaches the model', async () => {
  // A SearXNG instance and a web site, both local.
  const site: LocalServer = await startLocalServer((request, response) => {
    if (request.url === '/search' || request.url.startsWith('/search?')) {
      sendJson(response, 200, {
        query: 'tide pools low tide',
        number_of_results: 0,
        results: [
          { url: `${site.origin}/science/tide-pools`, title: 'How Tide Pools Survive Low Tide', content: 'The creatures between the tides.', engine: 'brave', publishedDate: '2026-03-02T00:00:00', score: 3, category: 'general' },
          { url: 'https://example.org/other', title: 'Other', content: 'Something else.', engine: 'bing', publishedDate: null, score: 1, category: 'general' },
        ],
        answers: [],
        corrections: [],
        infoboxes: [],
        suggestions: [],
        unresponsive_engines: [],
      });
      return;
    }
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(articleHtml);
  });
  opened.push(site);

  const model: TestModelServer = await startTestModelServer({
    script: [
      reply.functionCalls([{ name: 'web_search', arguments: { query: 'tide pools low tide', count: 5 } }]),
      (request) => {
        // The model reads the first URL of the search output and fetches it.
        const output = String(functionCallOutputs(request).at(-1)?.output ?? '');
        const url = /^ {3}(http\S+)/m.exec(output)?.[1] ?? 'missing';
        return reply.functionCalls([{ name: 'web_fetch', arguments: { url } }]);
      },
      reply.text('Tide pool animals seal themselves in until the water returns.'),
    ],
  });
  opened.push(model);

  const tools = createWebTools({
    search: createSearxngSearchProvider({ baseURL: site.origin }),
    fetch: { allowHosts: ['127.0.0.1'] },
  });
  const events: AgentEvent[] = [];
  const result = await runAgentLoop({
    gateway: createOpenAIResponsesGateway({ baseURL: model.baseURL, apiKey: 'test', model: 'test-model' }),
    tools,
    input: 'How do tide pool animals survive low tide?',
    onEvent: (event) => events.push(event),
    signal: AbortSignal.timeout(30_000),
  });

  expect(result.text).toBe('Tide pool animals seal themselves in until the water returns.');
  expect(model.requests).toHaveLength(3);
  const toolNames = ((model.requests[0]!.body as { tools?: Array<{ name?: string }> }).tools ?? []).map((tool) => tool.name);
  expect(toolNames).toEqual(['web_search', 'web_fetch']);

  const searchOutput = String(functionCallOutputs(model.requests[1]!).at(-1)?.output);
  expect(searchOutput).toContain('1. How Tide Pools Survive Low Tide');
  expect(searchOutput).toContain(`   ${site.origin}/science/tide-pools · 2026-03-02`);

  const fetchOutput = String(functionCallOutputs(model.requests[2]!).at(-1)?.output);
  expect(fetchOutput).toContain(`URL: ${site.origin}/science/tide-pools`);
  expect(fetchOutput).toContain('Twice a day the ocean pulls back from the rocky shore');
  expect(fetchOutput).not.toContain('MegaBoat');

  const labels = events.filter((event) => event.type === 'activity.completed').map((event) => (event as { label: string }).label);
  expect(labels).toEqual([
    'Found 2 results for "tide pools low tide"',
    `Fetched 127.0.0.1:${site.port}/science/tide-pools (${Math.round(Buffer.byteLength(articleHtml) / 1024)} KB)`,
  ]);
  // The search results reach the UI as a links presentation event (never the model).
  const presentations = events.filter((event) => event.type === 'presentation');
  expect(presentations).toEqual([
    expect.objectContaining({
      toolName: 'web_search',
      event: {
        kind: 'links',
        links: [
          { title: 'How Tide Pools Survive Low Tide', url: `${site.origin}/science/tide-pools` },
          { title: 'Other', url: 'https://example.org/other' },
        ],
      },
    }),
  ]);
  expect(JSON.stringify(model.requests.map((request) => request.body))).not.toContain('"kind":"links"');
  expect(site.requests.map((request) => request.url.split('?')[0])).toEqual(['/search', '/science/tide-pools']);
});
