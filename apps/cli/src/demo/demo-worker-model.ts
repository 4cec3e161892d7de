import { createOpenAIResponsesGateway } from '@core/runtime';
import { functionCallOutputs, lastUserText, reply, startTestModelServer, type RecordedRequest } from '@core/testkit';
import type { ModelSetup } from '../cli/model-setup.js';

/** The model name the worker's offline demo reports. */
export const WORKER_DEMO_MODEL = 'ankole-offline-demo';


/**
 * Starts the worker's offline demo model: a local testkit server that answers any job or scheduled turn with one
 * line naming its prompt, and any workflow task turn by submitting the smallest value its result schema accepts
 * (so workflows run to their end). Nothing is sent anywhere.
 */
export async function startDemoWorkerModel(): Promise<ModelSetup> {
  const server = await startTestModelServer({
    script: [],
    model: WORKER_DEMO_MODEL,
    onExhausted: (request) => {
      const submit = submitResultTool(request);
      if (submit !== undefined && functionCallOutputs(request).length === 0) {
        return reply.functionCalls([{ name: 'submit_result', arguments: sampleValue(submit.parameters) as Record<string, unknown> }]);
      }
      const prompt = (lastUserText(request) ?? '').replace(/\s+/g, ' ').trim();
      const shown = prompt.length > 120 ? `${prompt.slice(0, 119)}…` : prompt;
      return reply.text(`(offline demo model) This turn would now work on: "${shown}". Set OPENAI_API_KEY and leave out --demo for a real model.`);
    },
  });
  return {
    gateway: createOpenAIResponsesGateway({ apiKey: 'offline-demo', baseURL: server.baseURL, model: WORKER_DEMO_MODEL, maxRetries: 0 }),
    offlineDemo: true,
    model: WORKER_DEMO_MODEL,
    baseURL: server.baseURL,
    notice: 'running the offline demo model (--demo): a scripted local model answers every turn; nothing is sent anywhere.',
    lastError: () => undefined,
    close: () => server.close(),
  };
}

function submitResultTool(request: RecordedRequest): { parameters: unknown } | undefined {
  const tools: unknown = request.body?.tools;
  if (!Array.isArray(tools)) return undefined;
  return tools.find((tool: { type?: unknown; name?: unknown }) => tool.type === 'function' && tool.name === 'submit_result') as { parameters: unknown } | undefined;
}

/** The smallest value a (closed, strict) JSON Schema accepts: "demo" for strings, the first enum value, 0, false, []. */
function sampleValue(schema: unknown, depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null || depth > 8) return null;
  const node = schema as { type?: unknown; enum?: unknown[]; const?: unknown; properties?: Record<string, unknown>; anyOf?: unknown[]; minItems?: number; items?: unknown };
  if ('const' in node) return node.const;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  if (Array.isArray(node.anyOf) && node.anyOf.length > 0) return sampleValue(node.anyOf[0], depth + 1);
  const type = Array.isArray(node.type) ? node.type.find((entry) => entry !== 'null') ?? 'null' : node.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(node.properties ?? {}).map(([key, value]) => [key, sampleValue(value, depth + 1)]));
    case 'array':
      return Array.from({ length: node.minItems ?? 0 }, () => sampleValue(node.items, depth + 1));
    case 'string':
      return 'demo';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}
