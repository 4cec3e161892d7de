export { buildTurnTools, runTextTurn } from './text-turn.js';
export type { RunTextTurnOptions, TextTurnAssembly, TextTurnResult } from './text-turn.js';
export type { TextTurnContext } from './turn-context.js';
export { buildTaskTurnTools, DEFAULT_TASK_REMINDERS, runTaskTurn } from './task-turn.js';
export type { RunTaskTurnOptions, TaskTurnAssembly, TaskTurnContext, TaskTurnResult, TaskTurnStatus } from './task-turn.js';
// a model endpoint's failures in words, and which of them a retry may cure
export { describeModelFailure, describeModelFailures, isTransientModelFailure } from './model-failure.js';
export type { ModelEndpoint } from './model-failure.js';
// control plane (issue 6): the long-running worker
export { runWorker } from './worker/run-worker.js';
export type { RunWorkerOptions, WorkerEvent, WorkerSummary } from './worker/run-worker.js';
export type { TurnDenials } from './worker/run-leased-turn.js';
export { runClaimedTask } from './worker/run-task.js';
export type { RunClaimedTaskOptions, WorkerTaskContext, WorkerTaskEvent } from './worker/run-task.js';
export { createWorkerMcpTools } from './worker/worker-mcp-tools.js';
export type { WorkerMcpEvent, WorkerMcpTools, WorkerMcpToolsOptions } from './worker/worker-mcp-tools.js';
// approvals (issue 11): the agent's lists, its rules for runWorker's `approvals`, the exactly-once journal
export { agentConfigPath, listedName, readApprovalRules } from './worker/agent-approvals-config.js';
export type { ApprovalRules } from './worker/agent-approvals-config.js';
export { readWorkerApprovalRules, requireListedApprovals, workerApprovalPolicy } from './worker/worker-approval-policy.js';
export type { BackgroundApproval, WorkerApprovalRules } from './worker/worker-approval-policy.js';
export { INTERRUPTED_CALL_OUTPUT, journalApprovedCalls } from './worker/journal-approved-calls.js';
export type { ApprovedCallJournal, JournalApprovedCallsOptions } from './worker/journal-approved-calls.js';
