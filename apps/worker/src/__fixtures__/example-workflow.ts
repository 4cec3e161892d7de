import { reply, type RecordedRequest, type StepReply } from '@core/testkit';

export { EXAMPLE_WORKFLOW_SCRIPT } from '@core/control-plane-client/testing';

/** The `facts` a scripted sub-agent submits for `Research <topic>`. */
export function factsAbout(topic: string): string[] {
  return [1, 2, 3].map((index) => `${topic} fact ${index}`);
}

/** The task title in a task turn's instructions (`Your task: <title>`), or `undefined` for other turns. */
export function taskTitle(request: RecordedRequest): string | undefined {
  const instructions = typeof request.body?.instructions === 'string' ? request.body.instructions : '';
  return /^Your task: (.*)$/m.exec(instructions)?.[1];
}

/**
 * A scripted sub-agent for the example workflow: a `Research <topic>` task submits three facts, `Summarise` submits a
 * text naming how many notes its prompt held. Returns `undefined` for a request that is not such a task turn, or one
 * whose submission was already made (the model then has nothing more to say: the turn ended).
 */
export function exampleTaskReply(request: RecordedRequest): StepReply | undefined {
  const title = taskTitle(request);
  if (title === undefined) return undefined;
  const research = /^Research (.*)$/.exec(title);
  if (research !== null) return reply.functionCalls([{ name: 'submit_result', arguments: { facts: factsAbout(research[1]!) } }]);
  if (title === 'Summarise') {
    const instructions = String(request.body?.instructions);
    const notes = (instructions.match(/"facts":/g) ?? []).length;
    return reply.functionCalls([{ name: 'submit_result', arguments: { text: `${notes} notes summarised` } }]);
  }
  return undefined;
}
