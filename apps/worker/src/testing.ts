// Test models for worker turns, for the tests of the worker and of what runs it (the `ankole` CLI).
export { EXAMPLE_WORKFLOW_SCRIPT, exampleTaskReply, factsAbout, taskTitle } from './__fixtures__/example-workflow.js';
export { until } from './__fixtures__/until.js';
export { startWorkerModel } from './worker/__fixtures__/worker-model.js';
export type { WorkerModel } from './worker/__fixtures__/worker-model.js';
export { startWorkflowModel } from './worker/__fixtures__/workflow-model.js';
