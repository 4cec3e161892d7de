import { z } from 'zod';
import { waitMs } from './input-schemas.js';
import { approvedCallOutputInput, heldCallsInput, runStateInput } from './input-schemas.js';

const agentId = z.string().trim().min(1, 'agentId must not be empty').max(200);
const id = z.string().trim().min(1).max(100);
const workflowStatus = z.enum(['running', 'succeeded', 'failed', 'cancelled']);

/** The workflow engine's input schemas: every RPC payload is parsed with one of these (see `parseInput`). */
export const workflowInputSchemas = {
  startWorkflow: z.object({
    agentId,
    title: z.string().trim().min(1, 'title must not be empty').max(200),
    script: z.string().min(1, 'script must not be empty'),
    input: z.unknown().optional(),
    notifyOnFinish: z.boolean().optional(),
  }),
  workflowRef: z.object({ agentId, workflowId: id }),
  listWorkflows: z.object({ agentId, status: z.array(workflowStatus).optional(), limit: z.number().int().min(1).max(500).optional() }),
  claimTask: z.object({ workerId: z.string().trim().min(1).max(200), waitMs }),
  taskLease: z.object({ taskId: id, leaseToken: id }),
  taskHeartbeat: z.object({ taskId: id, leaseToken: id, waitMs }),
  submitTask: z.object({ taskId: id, leaseToken: id, result: z.unknown() }),
  failTask: z.object({ taskId: id, leaseToken: id, error: z.string().min(1).max(100_000) }),
  holdTask: z.object({ taskId: id, leaseToken: id, runState: runStateInput, calls: heldCallsInput }),
  approvedTaskCall: z.object({ taskId: id, leaseToken: id, callId: z.string().min(1).max(200) }),
  approvedTaskCallOutput: z.object({ taskId: id, leaseToken: id, callId: z.string().min(1).max(200), output: approvedCallOutputInput }),
  runAdvance: z.object({ workerId: z.string().trim().min(1).max(200) }),
} as const;
