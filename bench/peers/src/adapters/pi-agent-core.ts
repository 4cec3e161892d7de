// pi-agent-core: an Agent (reset before each turn) with a stream-function fake; its native TypeBox schemas.
import { Agent, type AgentTool, type StreamFn } from '@mariozechner/pi-agent-core';
import {
  Type,
  createAssistantMessageEventStream,
  validateToolArguments,
  type AssistantMessage,
  type Context,
  type Model,
  type ToolCall,
} from '@mariozechner/pi-ai';
import type { Adapter } from '../adapter.js';
import { TurnCheck } from '../turn-check.js';
import { FINAL_TEXT, MANY_TOOL_SPECS, TOOL_SPECS, VALIDATION_ARGUMENTS, toolOutput, type ToolArguments, type ToolSpec } from '../workload.js';

const NAME = 'pi-agent-core';

/** The same fields and constraints as the workload's Zod schema, in TypeBox (what pi takes). */
function typeBoxSchema(hasNote: boolean) {
  const base = {
    path: Type.String({ minLength: 1, description: 'A path relative to the home folder.' }),
    limit: Type.Integer({ minimum: 1, maximum: 1000, description: 'How many lines at most.' }),
    mode: Type.Union([Type.Literal('read'), Type.Literal('write'), Type.Literal('append')], { description: 'What to do with the file.' }),
    recursive: Type.Boolean({ description: 'Whether to walk sub-folders.' }),
    tags: Type.Array(Type.String(), { maxItems: 10, description: 'Labels to attach.' }),
  };
  return hasNote ? Type.Object({ ...base, note: Type.String({ description: 'A note for the log.' }) }) : Type.Object(base);
}

function buildTools(specs: ToolSpec[], check: TurnCheck | undefined): AgentTool[] {
  return specs.map(
    (spec): AgentTool => ({
      name: spec.name,
      label: spec.name,
      description: spec.description,
      parameters: typeBoxSchema(spec.hasNote),
      executionMode: 'parallel',
      execute: async (_toolCallId, params) => {
        if (check !== undefined) check.executed += 1;
        return { content: [{ type: 'text', text: toolOutput(params as ToolArguments) }], details: {} };
      },
    }),
  );
}

const MODEL: Model<'openai-responses'> = {
  id: 'fake-model',
  name: 'fake-model',
  api: 'openai-responses',
  provider: 'openai',
  baseUrl: 'http://127.0.0.1:9',
  reasoning: false,
  input: ['text'],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 100_000,
  maxTokens: 10_000,
};

const USAGE: AssistantMessage['usage'] = {
  input: 10,
  output: 10,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 20,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

function fakeStream(check: TurnCheck, state: { calls: number }): StreamFn {
  return (_model, context: Context) => {
    const stream = createAssistantMessageEventStream();
    let outputs = 0;
    for (const message of context.messages) {
      if (message.role !== 'toolResult') continue;
      const first = message.content[0];
      if (first?.type === 'text' && first.text.startsWith('ok:')) outputs += 1;
    }
    const base = { role: 'assistant', api: MODEL.api, provider: MODEL.provider, model: MODEL.id, usage: USAGE, timestamp: 0 } as const;
    if (outputs === 0 && state.calls > 0) {
      // pi's providers hand the loop parsed arguments (they parse the streamed JSON), so the fake parses too.
      const content: ToolCall[] = check.calls(state.calls).map((call) => ({
        type: 'toolCall',
        id: call.callId,
        name: call.name,
        arguments: JSON.parse(call.arguments) as Record<string, unknown>,
      }));
      stream.push({ type: 'done', reason: 'toolUse', message: { ...base, content, stopReason: 'toolUse' } });
    } else {
      check.outputsReceived(NAME, outputs);
      stream.push({ type: 'done', reason: 'stop', message: { ...base, content: [{ type: 'text', text: FINAL_TEXT }], stopReason: 'stop' } });
    }
    return stream;
  };
}

function collect(tools: AgentTool[]): unknown[] {
  return tools.map((entry) => ({ type: 'function', name: entry.name, description: entry.description, parameters: entry.parameters, strict: false }));
}

export function createPiAgentCoreAdapter(): Adapter {
  const check = new TurnCheck();
  const state = { calls: 0 };
  const tools = buildTools(TOOL_SPECS, check);
  const manyTools = buildTools(MANY_TOOL_SPECS, undefined);
  const agent = new Agent({
    initialState: { systemPrompt: 'Use the tools.', model: MODEL, tools },
    streamFn: fakeStream(check, state),
  });
  const validationTool = tools[0] as AgentTool;

  return {
    name: NAME,
    async runTurn(calls) {
      check.start(calls);
      state.calls = calls;
      agent.reset();
      await agent.prompt('Go.');
      const last = agent.state.messages.at(-1);
      const text = last?.role === 'assistant' && last.content[0]?.type === 'text' ? last.content[0].text : undefined;
      if (text !== FINAL_TEXT) throw new Error(`${NAME}: the turn ended with ${JSON.stringify(last)}`);
      check.finish(NAME);
    },
    // pi's loop hands `context.tools` to the provider as is; its OpenAI Responses provider then maps each tool to
    // { type, name, description, parameters, strict } (convertResponsesTools, internal to pi-ai): the same map here.
    collectTools: () => collect(manyTools),
    collectToolsFromNewArray: () => collect(manyTools.slice()),
    validateArguments() {
      // pi's provider parses the argument string, then the loop validates the object (structuredClone, convert, check).
      const toolCall: ToolCall = { type: 'toolCall', id: 'call_v', name: validationTool.name, arguments: JSON.parse(VALIDATION_ARGUMENTS) as Record<string, unknown> };
      return validateToolArguments(validationTool, toolCall);
    },
  };
}
