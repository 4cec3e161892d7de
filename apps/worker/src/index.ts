export { buildTurnTools, runTextTurn } from './text-turn.js';
export type { RunTextTurnOptions, TextTurnAssembly, TextTurnResult } from './text-turn.js';
export type { TextTurnContext } from './turn-context.js';
export { buildTaskTurnTools, DEFAULT_TASK_REMINDERS, runTaskTurn } from './task-turn.js';
export type { RunTaskTurnOptions, TaskTurnAssembly, TaskTurnContext, TaskTurnResult, TaskTurnStatus } from './task-turn.js';
export { runCli } from './cli/run-cli.js';
export type { CliIO, CliOutput } from './cli/cli-io.js';
export type { CliCommand } from './cli/cli-command.js';
export { COMMANDS } from './cli/commands/index.js';
export { CliError } from './cli/cli-error.js';
export { EXIT_CODES } from './cli/exit-codes.js';
export { defaultAgentHome } from './cli/agent-home.js';
export { demoScenario, DEMO_FOLDER } from './demo/demo-scenario.js';
export { DEMO_PROMPT } from './demo/demo-prompt.js';
// control plane (issue 6): the long-running worker
export { runWorker } from './worker/run-worker.js';
export type { RunWorkerOptions, WorkerEvent, WorkerSummary } from './worker/run-worker.js';
export { runClaimedTask } from './worker/run-task.js';
export type { RunClaimedTaskOptions, WorkerTaskContext, WorkerTaskEvent } from './worker/run-task.js';
// approvals in background work (issue 11): the agent's rules for runWorker's `approvals`, the exactly-once journal
export { readWorkerApprovalRules, requireListedApprovals, workerApprovalPolicy } from './worker/worker-approval-policy.js';
export type { BackgroundApproval, WorkerApprovalRules } from './worker/worker-approval-policy.js';
export { INTERRUPTED_CALL_OUTPUT, journalApprovedCalls } from './worker/journal-approved-calls.js';
export type { ApprovedCallJournal, JournalApprovedCallsOptions } from './worker/journal-approved-calls.js';
export { openControlPlane } from './worker/open-control-plane.js';
export type { OpenControlPlaneOptions, OpenedControlPlane } from './worker/open-control-plane.js';
