import { lastUserText, reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { exampleTaskReply, taskTitle } from '../../__fixtures__/example-workflow.js';

/**
 * A test model for workers that run workflows, answering by what each request is, so turns may run in any order:
 * - a task turn of the example workflow (`Research <topic>`, `Summarise`): submits the result (see `exampleTaskReply`);
 * - a task turn titled `Mute…`: answers in text, never submitting;
 * - a task turn titled `Slow…`: answers only after `slowMs` (so it can be cancelled or handed back while it runs);
 * - any other turn (a job, a workflow's notification): the text `done: <prompt>`.
 */
export function startWorkflowModel(options: { slowMs?: number } = {}): Promise<TestModelServer> {
  return startTestModelServer({
    script: [],
    onExhausted: async (request) => {
      const title = taskTitle(request);
      if (title?.startsWith('Slow') === true) {
        await new Promise((resolve) => setTimeout(resolve, options.slowMs ?? 60_000).unref());
        return reply.text('Still working.');
      }
      if (title?.startsWith('Mute') === true) return reply.text('I would rather not submit anything.');
      return exampleTaskReply(request) ?? reply.text(`done: ${lastUserText(request) ?? ''}`);
    },
  });
}
