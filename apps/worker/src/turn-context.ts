import type { ControlPlaneClient } from '@core/control-plane-client';
import type { AnyWorkerAgentTool } from '@core/runtime';
import type { CommandSandbox, ComputerLimits } from '@core/tools-computer';
import type { WebProfile } from '@core/tools-web';

/**
 * What a text turn is built from: the worker environment, the agent's home, the RPC client when there
 * is one, and the abort signal. Each tool category reads what it needs from here; a category whose
 * condition does not hold contributes no tools.
 */
export interface TextTurnContext {
  /** The agent's home folder: absolute, existing. Every file and command tool works inside it. */
  home: string;
  /** The agent's name: its id towards the control plane (default `default`), and in the instructions. */
  agent?: string;
  /** The turn's abort signal: aborting it aborts the model call and every running tool. */
  signal: AbortSignal;
  /** Environment variables the worker lets the computer's commands see (default: a scrubbed set). */
  env?: Readonly<Record<string, string>>;
  /** Limits of the computer tools (command timeout, output caps, ...); defaults otherwise. */
  computerLimits?: Partial<ComputerLimits>;
  /**
   * The OS sandbox the agent's commands run in (one per worker, shared by its turns), or `'unsandboxed'`: the
   * explicit opt-out. Default: the process's own (see `@core/tools-computer`).
   */
  commandSandbox?: CommandSandbox | 'unsandboxed';
  /** Hosts the agent's commands may reach through the sandbox's proxy (none: no network). */
  allowHosts?: readonly string[];
  /** The web profile bound to this worker; without one the turn has no web tools. */
  webProfile?: WebProfile;
  /** The control plane's RPC client, when the worker has one: schedule tools exist only with it. */
  controlPlane?: ControlPlaneClient;
  /** Whether this turn may start background jobs (job tools exist only then, and only with a control plane). */
  allowJobs?: boolean;
  /** Whether Brain is enabled for this agent: with a control plane, the turn gets the Brain tools (recall, pages). */
  brain?: boolean;
  /** A folder of skills (one sub-folder with a `SKILL.md` per skill) active for this agent. */
  skillsDir?: string;
  /** Extra text appended to the turn's instructions. */
  instructions?: string;
  /** The rest: tools of configured MCP servers and other adapters, appended after every category. */
  extraTools?: readonly AnyWorkerAgentTool[];
}
