import { defineWorkerTool, type AnyWorkerAgentTool } from '@core/runtime';
import { functionCallOutputs, lastUserText, reply, type RecordedRequest, type StepReply } from '@core/testkit';
import { z } from 'zod';

/** A read-only lookup and a destructive removal (held for a person when the approvals say so). */
export const DASHBOARD_TOOLS: AnyWorkerAgentTool[] = [
  defineWorkerTool({
    name: 'lookup',
    description: 'Looks a topic up.',
    schema: z.object({ topic: z.string() }),
    isReadOnly: true,
    describeActivity: (params) => `Looking up ${params.topic}`,
    execute: (params) => ({ content: `${params.topic}: a brown alga that grows in underwater forests` }),
  }),
  defineWorkerTool({
    name: 'remove_file',
    description: 'Removes a file.',
    schema: z.object({ path: z.string() }),
    isDestructive: true,
    describeActivity: (params) => `Removing ${params.path}`,
    execute: (params) => ({ content: `removed ${params.path}` }),
  }),
];

/**
 * The test model's turn for a job's prompt: `look up X` calls lookup, `slowly look up X` slow_lookup, `remove X`
 * remove_file; each then answers with what the tool returned (`done: <prompt> → <output>`); anything else `done: <prompt>`.
 */
export function dashboardTurnReply(request: RecordedRequest): StepReply {
  const prompt = lastUserText(request) ?? '';
  const [output] = functionCallOutputs(request);
  if (output !== undefined) return reply.text(`done: ${prompt} → ${String(output.output)}`);
  const lookup = /^look up (\S+)/.exec(prompt);
  if (lookup !== null) return reply.functionCalls([{ name: 'lookup', arguments: { topic: lookup[1] } }]);
  const slow = /^slowly look up (\S+)/.exec(prompt);
  if (slow !== null) return reply.functionCalls([{ name: 'slow_lookup', arguments: { topic: slow[1] } }]);
  const remove = /^remove (\S+)/.exec(prompt);
  if (remove !== null) return reply.functionCalls([{ name: 'remove_file', arguments: { path: remove[1] } }]);
  return reply.text(`done: ${prompt}`);
}
