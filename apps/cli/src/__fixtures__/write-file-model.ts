import { functionCallOutputs, lastUserText, reply, startTestModelServer, type TestModelServer } from '@core/testkit';

/**
 * A test model that answers a prompt `write NAME …` with one `write_file` call writing `content` to NAME, then, as to
 * any other prompt, with the text `answerPrefix` + the prompt.
 */
export function startWriteFileModel(options: { content: string; answerPrefix: string }): Promise<TestModelServer> {
  return startTestModelServer({
    script: [],
    onExhausted: (request) => {
      const prompt = lastUserText(request) ?? '';
      const name = /^write (\S+)/.exec(prompt)?.[1];
      if (name !== undefined && !functionCallOutputs(request).some((output) => output.call_id === `w-${name}`)) {
        return reply.functionCalls([{ name: 'write_file', arguments: { path: name, content: options.content }, callId: `w-${name}` }]);
      }
      return reply.text(`${options.answerPrefix}${prompt}`);
    },
  });
}
