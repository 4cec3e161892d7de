import { officialOpenapiDocument, reply, startTestModelServer } from '@core/testkit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import { createOpenAIResponsesGateway } from '../gateway/openai-responses-gateway.js';
import { runAgentLoop } from '../loop/run-agent-loop.js';

// The testkit checks every request against its own description; the official document too when it is present.
const official = officialOpenapiDocument();

describe('strict transform round trip (openai SDK over HTTP to the testkit)', () => {
  it('sends the strict schema, and the nulls a strict model sends for optional fields reach execute as absent fields', async () => {
    const received: unknown[] = [];
    const schema = z.object({
      query: z.string(),
      limit: z.number().int().optional(),
      sort: z.enum(['relevance', 'date']).default('relevance'),
      filter: z.object({ owner: z.string().optional(), label: z.string().nullable() }).optional(),
    });
    const search = defineWorkerTool({
      name: 'search_issues',
      description: 'Searches issues.',
      schema,
      strict: true,
      describeActivity: (params) => `Searching ${params.query}`,
      execute: (params) => {
        received.push(params);
        return { content: 'no issues' };
      },
    });
    const server = await startTestModelServer({
      ...(official.present ? { openapiPath: official.path } : {}),
      script: [
        reply.functionCalls([
          { name: 'search_issues', arguments: { query: 'crash', limit: null, sort: null, filter: { owner: null, label: null } } },
          { name: 'search_issues', arguments: { query: 'leak', limit: 5, sort: 'date', filter: null } },
        ]),
        reply.text('Nothing found.'),
      ],
    });
    try {
      const gateway = createOpenAIResponsesGateway({ baseURL: server.baseURL, apiKey: 'test', model: 'test-model', maxRetries: 0 });
      const result = await runAgentLoop({ gateway, tools: [search], input: 'find crashes and leaks' });

      expect(result.reason).toBe('completed');
      expect(received).toStrictEqual([
        { query: 'crash', sort: 'relevance', filter: { label: null } },
        { query: 'leak', limit: 5, sort: 'date' },
      ]);
      const sent = (server.requests[0]?.body as { tools: unknown[] }).tools;
      expect(sent).toStrictEqual([
        {
          type: 'function',
          name: 'search_issues',
          description: 'Searches issues.',
          strict: true,
          parameters: {
            type: 'object',
            properties: {
              query: { type: 'string' },
              limit: { type: ['integer', 'null'], minimum: -9007199254740991, maximum: 9007199254740991 },
              sort: { type: ['string', 'null'], enum: ['relevance', 'date', null] },
              filter: {
                anyOf: [
                  {
                    type: 'object',
                    properties: { owner: { type: ['string', 'null'] }, label: { type: ['string', 'null'] } },
                    required: ['owner', 'label'],
                    additionalProperties: false,
                  },
                  { type: 'null' },
                ],
              },
            },
            required: ['query', 'limit', 'sort', 'filter'],
            additionalProperties: false,
          },
        },
      ]);
    } finally {
      await server.close();
    }
  });
});
