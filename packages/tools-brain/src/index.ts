export { createBrainTools } from './create-brain-tools.js';
export type { BrainToolDetails, BrainToolsContext } from './create-brain-tools.js';
export { formatPageSlice, formatRecall } from './format-brain.js';
