import { afterEach, describe } from 'vitest';
import { describeApprovalContract } from './approval-contract.js';
import { describeBrainContract } from './brain-contract.js';
import type { ContractPlane, ContractPlanes, OpenContractPlane } from './contract-plane.js';
import { describeLeaseContract } from './lease-contract.js';
import { describeLongPollContract } from './long-poll-contract.js';
import { describeScheduleJobContract } from './schedule-job-contract.js';
import { describeSettledLeaseContract } from './settled-lease-contract.js';
import { describeTranscriptContract } from './transcript-contract.js';
import { describeUnstorableInputContract, describeUnstorableScriptTextContract } from './unstorable-text-contract.js';
import { describeWorkflowContract } from './workflow-contract.js';

/**
 * The behaviour every `ControlPlaneClient` must show, whatever its transport, as vitest suites: schedules and jobs,
 * approvals, writes under a lease, heartbeats of a settled claim, long polls, workflows, transcripts, the Brain, and text PostgreSQL cannot store.
 * Call it inside a test file; `open` gives each test a fresh, empty control plane (closed after the test):
 *
 * ```ts
 * const planes = controlPlanes('pglite'); // @core/control-plane/testing
 * afterEach(() => planes.cleanup());
 * afterAll(() => planes.close());
 * describeControlPlaneContract('in process', (options) => planes.open(options));
 * ```
 *
 * `@core/control-plane` runs it in process and `@core/control-plane-http` over HTTP.
 */
export function describeControlPlaneContract(name: string, open: OpenContractPlane): void {
  describe(`the control plane contract (${name})`, () => {
    const opened: ContractPlane[] = [];
    const planes: ContractPlanes = {
      async open(options) {
        const plane = await open(options);
        opened.push(plane);
        return plane;
      },
    };
    afterEach(async () => {
      for (const plane of opened.splice(0).reverse()) await plane.close();
    });
    describeScheduleJobContract(planes);
    describeApprovalContract(planes);
    describeLeaseContract(planes);
    describeSettledLeaseContract(planes);
    describeLongPollContract(planes);
    describeWorkflowContract(planes);
    describeTranscriptContract(planes);
    describeBrainContract(planes);
    describeUnstorableInputContract(planes);
    describeUnstorableScriptTextContract(planes);
  });
}
