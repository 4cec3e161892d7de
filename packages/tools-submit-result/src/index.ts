export { createSubmitResultTool } from './create-submit-result-tool.js';
export type { SubmitResultToolContext, SubmitResultToolDetails } from './create-submit-result-tool.js';
export { formatResultProblems } from './format-result-problems.js';
