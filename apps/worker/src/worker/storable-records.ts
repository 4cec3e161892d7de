import { replaceUnstorableText, type ControlPlaneClient } from '@core/control-plane-client';

/**
 * `client` with the worker's own records made storable: the control plane refuses text PostgreSQL cannot store (a
 * NUL character or a lone surrogate, 400 `input_invalid`), and a turn's records can hold it without anyone's mistake
 * (a command that printed binary output, a model's answer). So a final answer, a failure, a paused turn's run state and
 * held calls, an approved call's output and a transcript are sent with each such character replaced by U+FFFD rather
 * than lost. A task's result (`tasks.submit`) is left as it is: the model fixes it through `submit_result`.
 */
export function withStorableRecords(client: ControlPlaneClient): ControlPlaneClient {
  const { work, tasks, transcripts } = client;
  return {
    ...client,
    work: {
      ...work,
      complete: (input) => work.complete(replaceUnstorableText(input)),
      fail: (input) => work.fail(replaceUnstorableText(input)),
      hold: (input) => work.hold(replaceUnstorableText(input)),
      finishApprovedCall: (input) => work.finishApprovedCall(replaceUnstorableText(input)),
    },
    tasks: {
      ...tasks,
      fail: (input) => tasks.fail(replaceUnstorableText(input)),
      hold: (input) => tasks.hold(replaceUnstorableText(input)),
      finishApprovedCall: (input) => tasks.finishApprovedCall(replaceUnstorableText(input)),
    },
    transcripts: { ...transcripts, append: (input) => transcripts.append(replaceUnstorableText(input)) },
  };
}
