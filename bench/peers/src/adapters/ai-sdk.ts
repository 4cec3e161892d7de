// ai (Vercel AI SDK v6): generateText with a LanguageModelV3 fake, schemas wrapped once with zodSchema().
import { safeParseJSON } from '@ai-sdk/provider-utils';
import { asSchema, generateText, stepCountIs, tool, zodSchema, type LanguageModel, type Tool } from 'ai';
import type { Adapter } from '../adapter.js';
import { TurnCheck } from '../turn-check.js';
import { FINAL_TEXT, MANY_TOOL_SPECS, TOOL_SPECS, VALIDATION_ARGUMENTS, toolOutput, type ToolArguments, type ToolSpec } from '../workload.js';

const NAME = 'ai';

type FakeModel = Extract<LanguageModel, { specificationVersion: 'v3' }>;
type GenerateOptions = Parameters<FakeModel['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<FakeModel['doGenerate']>>;

function buildTools(specs: ToolSpec[], check: TurnCheck | undefined): Record<string, Tool> {
  const tools: Record<string, Tool> = {};
  for (const spec of specs) {
    tools[spec.name] = tool({
      description: spec.description,
      inputSchema: zodSchema(spec.schema), // wrapped once: ai converts a plain zod schema again on every step
      execute: async (params: unknown) => {
        if (check !== undefined) check.executed += 1;
        return toolOutput(params as ToolArguments);
      },
    }) as Tool;
  }
  return tools;
}

const USAGE: GenerateResult['usage'] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 10, text: 10, reasoning: 0 },
};

function fakeModel(check: TurnCheck, state: { calls: number }): FakeModel {
  return {
    specificationVersion: 'v3',
    provider: 'fake',
    modelId: 'fake-model',
    supportedUrls: {},
    async doGenerate(options: GenerateOptions): Promise<GenerateResult> {
      let outputs = 0;
      for (const message of options.prompt) {
        if (message.role !== 'tool') continue;
        for (const part of message.content) {
          if (part.type === 'tool-result' && part.output.type === 'text' && part.output.value.startsWith('ok:')) outputs += 1;
        }
      }
      if (outputs === 0 && state.calls > 0) {
        return {
          content: check.calls(state.calls).map((call) => ({
            type: 'tool-call' as const,
            toolCallId: call.callId,
            toolName: call.name,
            input: call.arguments,
          })),
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage: USAGE,
          warnings: [],
        };
      }
      check.outputsReceived(NAME, outputs);
      return {
        content: [{ type: 'text', text: FINAL_TEXT }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: USAGE,
        warnings: [],
      };
    },
    doStream() {
      throw new Error('the benchmark calls generateText only');
    },
  };
}

export function createAiSdkAdapter(): Adapter {
  const check = new TurnCheck();
  const state = { calls: 0 };
  const model = fakeModel(check, state);
  const tools = buildTools(TOOL_SPECS, check);
  const manyTools = buildTools(MANY_TOOL_SPECS, undefined);
  const validationSchema = (tools.tool_0 as Tool).inputSchema;

  /** What generateText does to the tools on every step (prepareToolsAndToolChoice, internal to ai): public calls only. */
  async function collect(tools: Record<string, Tool>): Promise<unknown[]> {
    const collected: unknown[] = [];
    for (const [name, entry] of Object.entries(tools)) {
      collected.push({
        type: 'function',
        name,
        description: entry.description,
        inputSchema: await asSchema(entry.inputSchema).jsonSchema,
        providerOptions: entry.providerOptions,
      });
    }
    return collected;
  }
  void collect(manyTools); // the first turn converts the schemas; zodSchema() keeps the result

  return {
    name: NAME,
    async runTurn(calls) {
      check.start(calls);
      state.calls = calls;
      const result = await generateText({ model, tools, prompt: 'Go.', stopWhen: stepCountIs(5) });
      if (result.text !== FINAL_TEXT || result.steps.length !== (calls > 0 ? 2 : 1)) {
        throw new Error(`${NAME}: the turn ended after ${result.steps.length} steps with ${JSON.stringify(result.text)}`);
      }
      check.finish(NAME);
    },
    collectTools: () => collect(manyTools),
    collectToolsFromNewArray: () => collect({ ...manyTools }),
    async validateArguments() {
      // What ai does with a tool call's input (doParseToolCall): safeParseJSON with the tool's schema.
      const result = await safeParseJSON({ text: VALIDATION_ARGUMENTS, schema: asSchema(validationSchema) });
      if (!result.success) throw new Error(`${NAME}: the validation arguments were refused: ${String(result.error)}`);
      return result.value;
    },
  };
}
