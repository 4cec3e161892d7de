import { functionCallOutputs, lastUserText, reply, startTestModelServer, type TestModelServer } from '@core/testkit';

/**
 * A test model for worker turns, answering by the job's prompt so turns may run in any order:
 * - `wait…`: calls the tool named after `wait:` (e.g. `wait:wait_for_cancel`, `wait:command`) once, then answers;
 * - `hang…`: the first request of that prompt answers only after `hangMs` (later attempts at once);
 * - `fail…`: a failed response;
 * - `sum:A+B`: calls the MCP tool `get-sum` in the `everything` namespace with `{ a: A, b: B }`, then answers
 *   `done: sum:A+B = <the tool's output as JSON>`;
 * - anything else: the text `done: <prompt>`.
 */
export function startWorkerModel(options: { hangMs?: number } = {}): Promise<TestModelServer> {
  const hung = new Set<string>();
  return startTestModelServer({
    script: [],
    onExhausted: async (request) => {
      const prompt = lastUserText(request) ?? '';
      if (prompt.startsWith('fail')) return reply.failed('The test model refuses this prompt.');
      if (prompt.startsWith('hang') && functionCallOutputs(request).length === 0 && !hung.has(prompt)) {
        hung.add(prompt);
        await new Promise((resolve) => setTimeout(resolve, options.hangMs ?? 60_000).unref());
      }
      const sum = /^sum:(\d+)\+(\d+)/.exec(prompt);
      if (sum !== null) {
        const [output] = functionCallOutputs(request);
        if (output === undefined) return reply.functionCalls([{ name: 'get-sum', namespace: 'everything', arguments: { a: Number(sum[1]), b: Number(sum[2]) } }]);
        return reply.text(`done: ${prompt} = ${JSON.stringify(output.output)}`);
      }
      const wait = /^wait:(\S+)/.exec(prompt);
      if (wait !== null && functionCallOutputs(request).length === 0) {
        const args = wait[1] === 'command' ? { command: 'sleep 987' } : {};
        return reply.functionCalls([{ name: wait[1]!, arguments: args }]);
      }
      return reply.text(`done: ${prompt}`);
    },
  });
}
