// Ours: @core/runtime through its public API (runAgentLoop with an in-process ModelGateway).
import {
  collectToolSchemas,
  defineWorkerTool,
  runAgentLoop,
  validateToolArguments,
  type AnyWorkerAgentTool,
  type ModelGateway,
  type ModelRequest,
  type ModelResponse,
  type ResponseOutputItem,
} from '@core/runtime';
import type { Adapter } from '../adapter.js';
import { TurnCheck } from '../turn-check.js';
import { FINAL_TEXT, MANY_TOOL_SPECS, TOOL_SPECS, VALIDATION_ARGUMENTS, toolOutput, type ToolArguments, type ToolSpec } from '../workload.js';

const NAME = 'ours';

function buildTool(spec: ToolSpec, check: TurnCheck | undefined): AnyWorkerAgentTool {
  return defineWorkerTool({
    name: spec.name,
    description: spec.description,
    schema: spec.schema,
    strict: true,
    executionMode: 'parallel',
    isReadOnly: true,
    describeActivity: () => spec.name,
    execute: async (params) => {
      if (check !== undefined) check.executed += 1;
      return { content: toolOutput(params as unknown as ToolArguments) };
    },
  }) as AnyWorkerAgentTool;
}

const finalMessage = (): ResponseOutputItem => ({
  type: 'message',
  id: 'msg_final',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text: FINAL_TEXT, annotations: [] }],
});

/** The fake model: the first request gets the scripted calls, the one carrying their outputs gets the final text. */
class FakeGateway implements ModelGateway {
  readonly usesPreviousResponseId = false;
  constructor(
    private readonly check: TurnCheck,
    public calls = 0,
  ) {}

  async createResponse(request: ModelRequest): Promise<ModelResponse> {
    let outputs = 0;
    for (const item of request.input) {
      if (item.type === 'function_call_output' && typeof item.output === 'string' && item.output.startsWith('ok:')) outputs += 1;
    }
    if (outputs === 0 && this.calls > 0) {
      const output: ResponseOutputItem[] = this.check.calls(this.calls).map((call) => ({
        type: 'function_call',
        id: `fc_${call.callId}`,
        call_id: call.callId,
        name: call.name,
        arguments: call.arguments,
        status: 'completed',
      }));
      return { id: 'resp_calls', status: 'completed', output };
    }
    this.check.outputsReceived(NAME, outputs);
    return { id: 'resp_final', status: 'completed', output: [finalMessage()] };
  }
}

export function createOursAdapter(): Adapter {
  const check = new TurnCheck();
  const tools = TOOL_SPECS.map((spec) => buildTool(spec, check));
  const manyTools = MANY_TOOL_SPECS.map((spec) => buildTool(spec, undefined));
  const validationTool = tools[0] as AnyWorkerAgentTool;
  const gateway = new FakeGateway(check);
  collectToolSchemas(manyTools); // the first turn converts the schemas; later turns reuse them

  return {
    name: NAME,
    async runTurn(calls) {
      check.start(calls);
      gateway.calls = calls;
      const result = await runAgentLoop({ gateway, tools, input: 'Go.' });
      if (result.reason !== 'completed' || result.text !== FINAL_TEXT) {
        throw new Error(`${NAME}: the turn ended ${result.reason} with ${JSON.stringify(result.text)} (${result.error ?? ''})`);
      }
      check.finish(NAME);
    },
    collectTools: () => collectToolSchemas(manyTools),
    collectToolsFromNewArray: () => collectToolSchemas(manyTools.slice()),
    validateArguments() {
      const result = validateToolArguments(validationTool, VALIDATION_ARGUMENTS);
      if (!result.ok) throw new Error(`${NAME}: the validation arguments were refused: ${result.message}`);
      return result.params;
    },
  };
}
