// @openai/agents: run() with a Model fake, tracing disabled, its async-context store switched on only around its turns.
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  Agent,
  RunContext,
  Usage,
  run,
  setTracingContextStorage,
  setTracingDisabled,
  tool,
  type AgentInputItem,
  type AgentOutputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type Tool,
} from '@openai/agents';
import { prepareFunctionToolInput } from '@openai/agents-core/utils/internal';
import type { Adapter } from '../adapter.js';
import { TurnCheck } from '../turn-check.js';
import { FINAL_TEXT, MANY_TOOL_SPECS, TOOL_SPECS, VALIDATION_ARGUMENTS, toolOutput, type ToolArguments, type ToolSpec } from '../workload.js';

const NAME = '@openai/agents';

function buildTools(specs: ToolSpec[], check: TurnCheck | undefined): Tool[] {
  return specs.map((spec) =>
    tool({
      name: spec.name,
      description: spec.description,
      parameters: spec.schema,
      strict: true,
      execute: async (params: unknown) => {
        if (check !== undefined) check.executed += 1;
        return toolOutput(params as ToolArguments);
      },
    }) as unknown as Tool,
  );
}

function isOkOutput(item: AgentInputItem): boolean {
  if (item.type !== 'function_call_result') return false;
  const output: unknown = item.output;
  if (typeof output === 'string') return output.startsWith('ok:');
  return typeof output === 'object' && output !== null && 'text' in output && typeof output.text === 'string' && output.text.startsWith('ok:');
}

class FakeModel implements Model {
  calls = 0;
  constructor(private readonly check: TurnCheck) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    let outputs = 0;
    if (typeof request.input !== 'string') for (const item of request.input) if (isOkOutput(item)) outputs += 1;
    if (outputs === 0 && this.calls > 0) {
      const output: AgentOutputItem[] = this.check.calls(this.calls).map((call) => ({
        type: 'function_call',
        id: `fc_${call.callId}`,
        callId: call.callId,
        name: call.name,
        arguments: call.arguments,
        status: 'completed',
      }));
      return { usage: new Usage(), output, responseId: 'resp_calls' };
    }
    this.check.outputsReceived(NAME, outputs);
    return {
      usage: new Usage(),
      output: [{ type: 'message', id: 'msg_final', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: FINAL_TEXT }] }],
      responseId: 'resp_final',
    };
  }

  // eslint-disable-next-line require-yield
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('the benchmark calls run() without streaming');
  }
}

export function createOpenAIAgentsAdapter(): Adapter {
  setTracingDisabled(true);
  // The SDK keeps its trace context in a process-wide AsyncLocalStorage; once entered, Node 20 runs a promise
  // hook for every promise of the process. We hand it our own store and disable it after each batch of its turns.
  const contextStore = new AsyncLocalStorage<unknown>();
  setTracingContextStorage(contextStore as never);

  const check = new TurnCheck();
  const model = new FakeModel(check);
  const tools = buildTools(TOOL_SPECS, check);
  const agent = new Agent({ name: 'bench', instructions: 'Use the tools.', model, tools });
  const manyAgent = new Agent({ name: 'bench-many', instructions: 'Use the tools.', model, tools: buildTools(MANY_TOOL_SPECS, undefined) });
  const runContext = new RunContext();
  const validationTool = tools[0] as Tool;

  /** What the runner does to the tools on every step (modelPreparation: getAllTools, then serializeTool per tool). */
  async function collect(): Promise<unknown[]> {
    const all = await manyAgent.getAllTools(runContext);
    return all.map((entry) =>
      entry.type === 'function'
        ? {
            type: 'function',
            name: entry.name,
            description: entry.description,
            parameters: entry.parameters,
            strict: entry.strict,
            deferLoading: entry.deferLoading,
            providerData: undefined,
          }
        : { type: 'hosted_tool', name: entry.name },
    );
  }

  return {
    name: NAME,
    async runTurn(calls) {
      check.start(calls);
      model.calls = calls;
      const result = await run(agent, 'Go.', { maxTurns: 5 });
      if (result.finalOutput !== FINAL_TEXT) throw new Error(`${NAME}: the turn ended with ${JSON.stringify(result.finalOutput)}`);
      check.finish(NAME);
    },
    collectTools: collect,
    validateArguments() {
      // The tool's own input parser (JSON.parse, strict-null stripping, zod parse), as the runner calls it.
      const prepared = prepareFunctionToolInput(validationTool as never, VALIDATION_ARGUMENTS);
      if (prepared === undefined || !prepared.result.success) throw new Error(`${NAME}: the validation arguments were refused`);
      return prepared.result.value;
    },
    afterBatch() {
      contextStore.disable();
    },
  };
}
