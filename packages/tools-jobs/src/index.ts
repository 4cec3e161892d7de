export { createBackgroundAgentJobTools } from './create-background-agent-job-tools.js';
export type { BackgroundAgentJobToolDetails, BackgroundAgentJobToolsContext } from './create-background-agent-job-tools.js';
export { formatJob } from './format-job.js';
