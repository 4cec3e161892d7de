import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerToolSearch } from './answer-tool-search.js';
import { defineWorkerTool } from '../tool/define-worker-tool.js';

function tool(name: string, description: string, extra: { namespace?: string; namespaceDescription?: string; deferLoading?: boolean } = {}) {
  return defineWorkerTool({
    name,
    description,
    schema: z.object({}),
    deferLoading: extra.deferLoading ?? true,
    ...(extra.namespace === undefined ? {} : { namespace: extra.namespace }),
    ...(extra.namespaceDescription === undefined ? {} : { namespaceDescription: extra.namespaceDescription }),
    describeActivity: () => name,
    execute: () => ({ content: '' }),
  });
}

const tools = [
  tool('send_email', 'Sends an email message to a recipient.'),
  tool('list_invoices', 'Lists the unpaid invoices of a customer.', { namespace: 'billing', namespaceDescription: 'Billing and payments.' }),
  tool('refund_payment', 'Refunds a payment.', { namespace: 'billing' }),
  tool('get_forecast', 'Gets the weather forecast for a city.'),
  tool('loaded_email_tool', 'Reads email.', { deferLoading: false }),
];

describe('answerToolSearch', () => {
  it('returns the best-matching deferred tools, names weighing more than descriptions', () => {
    const answer = answerToolSearch({ call_id: 'ts1', arguments: { query: 'email' } }, tools);
    expect(answer.toolNames).toEqual(['send_email']);
    expect(answer.output).toMatchObject({ type: 'tool_search_output', call_id: 'ts1', execution: 'client' });
    expect(answer.output.tools).toEqual([expect.objectContaining({ type: 'function', name: 'send_email', defer_loading: true })]);
  });

  it('puts namespaced tools inside their namespace entry with its description', () => {
    const answer = answerToolSearch({ call_id: 'ts1', arguments: { query: 'billing invoices refund' } }, tools);
    expect(answer.toolNames).toEqual(['billing.list_invoices', 'billing.refund_payment']);
    expect(answer.output.tools).toEqual([
      {
        type: 'namespace',
        name: 'billing',
        description: 'Billing and payments.',
        tools: [expect.objectContaining({ name: 'list_invoices' }), expect.objectContaining({ name: 'refund_payment' })],
      },
    ]);
  });

  it('matches word prefixes and caps the number of tools', () => {
    const answer = answerToolSearch({ call_id: 'ts1', arguments: { query: 'pay' } }, tools, { limit: 1 });
    expect(answer.toolNames).toEqual(['billing.refund_payment']);
  });

  it('returns no tools for a query that matches nothing, and reads string arguments', () => {
    expect(answerToolSearch({ call_id: 'ts1', arguments: { query: 'kubernetes' } }, tools).output.tools).toEqual([]);
    expect(answerToolSearch({ call_id: 'ts1', arguments: '{"query":"weather"}' }, tools).toolNames).toEqual(['get_forecast']);
    expect(answerToolSearch({ call_id: null, arguments: null }, tools).output.tools).toEqual([]);
  });

  it('finds a tool by its exact called name', () => {
    expect(answerToolSearch({ call_id: 'ts1', arguments: { query: 'billing.refund_payment' } }, tools).toolNames[0]).toBe('billing.refund_payment');
  });
});
