/*
 * Test support (imported as `@core/control-plane-client/testing`, by test files only: it loads vitest): the contract
 * suite any ControlPlaneClient must pass, and what test files share with it.
 */
export { describeControlPlaneContract } from './contract/describe-control-plane-contract.js';
export type { ContractPlane, ContractPlaneOptions, OpenContractPlane } from './contract/contract-plane.js';
export { EXAMPLE_WORKFLOW_SCRIPT } from './contract/example-workflow-script.js';
export { driveWorkflows } from './contract/workflow-driver.js';
export type { TaskAnswer } from './contract/workflow-driver.js';
export { BAD, fixtures as unstorableTextFixtures, spoiled, validInputs } from './contract/unstorable-text-cases.js';
