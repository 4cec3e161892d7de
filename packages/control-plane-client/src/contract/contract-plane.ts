import type { ControlPlaneClient } from '../control-plane-client.js';
import type { TranscriptLimits } from '../transcript-client.js';
import type { WorkflowLimits } from '../workflow-limits.js';

/**
 * The settings some contract tests need on the control plane they open (short leases, low limits). They are
 * `createControlPlane`'s options of the same names: a target opening an engine passes them on; a target that cannot
 * honour one (a fixed remote server) should not run the contract.
 */
export interface ContractPlaneOptions {
  leaseSeconds?: number;
  longPollRecheckMs?: number;
  minScheduleIntervalSeconds?: number;
  maxUnfinishedJobsPerAgent?: number;
  workflowLimits?: Partial<WorkflowLimits>;
  transcriptLimits?: Partial<TranscriptLimits>;
}

/** A control plane the contract tests use: a fresh, empty one, reached through `client`. */
export interface ContractPlane {
  readonly client: ControlPlaneClient;
  /** Closes it (and whatever serves it); the suite calls it after each test. */
  close(): Promise<void>;
}

/** Opens a fresh, empty control plane with `options` applied. */
export type OpenContractPlane = (options?: ContractPlaneOptions) => Promise<ContractPlane>;

/** What each part of the contract suite opens its control planes with (closed after each test). */
export interface ContractPlanes {
  open(options?: ContractPlaneOptions): Promise<ContractPlane>;
}
