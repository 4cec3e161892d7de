export { createWorkflowTools } from './create-workflow-tools.js';
export type { WorkflowToolDetails, WorkflowToolsContext } from './create-workflow-tools.js';
export { duration, formatWorkflow, formatWorkflowDetails } from './format-workflow.js';
export { WORKFLOW_SCRIPT_GUIDE } from './workflow-script-guide.js';
