// The `ankole` command as a library: its command line, commands and the control-plane choice they share.
export { runCli } from './cli/run-cli.js';
export type { CliIO, CliOutput } from './cli/cli-io.js';
export type { CliCommand } from './cli/cli-command.js';
export { COMMANDS } from './cli/commands/index.js';
export { CliError } from './cli/cli-error.js';
export { EXIT_CODES } from './cli/exit-codes.js';
export { defaultAgentHome } from './cli/agent-home.js';
export { demoScenario, DEMO_FOLDER } from './demo/demo-scenario.js';
export { DEMO_PROMPT } from './demo/demo-prompt.js';
export { chooseControlPlane, describeControlPlaneChoice } from './control-plane/control-plane-choice.js';
export type { ChooseControlPlaneOptions, ControlPlaneChoice } from './control-plane/control-plane-choice.js';
export { openControlPlane } from './control-plane/open-control-plane.js';
export type { OpenControlPlaneOptions, OpenedControlPlane } from './control-plane/open-control-plane.js';
