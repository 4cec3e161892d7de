import { functionCallOutputs, lastUserText, reply, startTestModelServer, type TestModelServer } from '@core/testkit';

/**
 * A test model for worker turns, answering by the job's prompt so turns may run in any order:
 * - `wait…`: calls the tool named after `wait:` (e.g. `wait:wait_for_cancel`, `wait:command`) once, then answers;
 * - `hang…`: the first request of that prompt answers only after `hangMs` (later attempts at once);
 * - `hold…`: every request of that prompt waits until the test calls `releaseHeld()` (at most `hangMs`), then
 *   answers `done: <prompt>` — a turn that is surely mid-request until the test says otherwise;
 * - `fail…`: a failed response;
 * - `sum:A+B`: calls the MCP tool `get-sum` in the `everything` namespace with `{ a: A, b: B }`, then answers
 *   `done: sum:A+B = <the tool's output as JSON>`;
 * - anything else: the text `done: <prompt>`.
 */
export async function startWorkerModel(options: { hangMs?: number } = {}): Promise<WorkerModel> {
  const hung = new Set<string>();
  let released = false;
  const held = new Set<() => void>();
  const server = await startTestModelServer({
    script: [],
    onExhausted: async (request) => {
      const prompt = lastUserText(request) ?? '';
      if (prompt.startsWith('fail')) return reply.failed('The test model refuses this prompt.');
      if (prompt.startsWith('hold') && !released) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.hangMs ?? 60_000).unref();
          held.add(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
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
  return Object.assign(server, {
    releaseHeld() {
      released = true;
      for (const release of held) release();
      held.clear();
    },
  });
}

/** The worker test model: a test model server that can let its held (`hold…`) requests go. */
export interface WorkerModel extends TestModelServer {
  /** Lets every held `hold…` request answer now, and later ones at once. */
  releaseHeld(): void;
}
