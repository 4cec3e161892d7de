import { functionCallOutputs, lastUserText, reply, startTestModelServer, type TestModelServer } from '@core/testkit';

/**
 * A test model for worker turns, answering by the job's prompt so turns may run in any order:
 * - `wait…`: calls the tool named after `wait:` (e.g. `wait:wait_for_cancel`, `wait:command`) once, then answers;
 * - `hang…`: the first request of that prompt answers only after `hangMs` (later attempts at once);
 * - `fail…`: a failed response;
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
      const wait = /^wait:(\S+)/.exec(prompt);
      if (wait !== null && functionCallOutputs(request).length === 0) {
        const args = wait[1] === 'command' ? { command: 'sleep 987' } : {};
        return reply.functionCalls([{ name: wait[1]!, arguments: args }]);
      }
      return reply.text(`done: ${prompt}`);
    },
  });
}
