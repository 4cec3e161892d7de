import type { RpcMethodName } from '@core/control-plane-client';

const KiB = 1024;
const MiB = 1024 * KiB;

/** The largest request body any call may send (8 MiB). */
export const MAX_RPC_BODY_BYTES = 8 * MiB;

/** The body limit of the calls this table does not name: ids, leases, lists, claims and heartbeats (16 KiB). */
export const DEFAULT_RPC_BODY_BYTES = 16 * KiB;

/**
 * The largest request body of each call whose input can be large, in bytes, set from its input schema's own bounds
 * (a character may take 3 bytes of UTF-8, an escaped control character 6): a prompt of 20 000 characters fits in
 * 128 KiB, a final answer of 1 000 000 in 4 MiB. Calls whose size the schema leaves open (a paused turn's run state,
 * a tool's output, a workflow result, a transcript batch, a Brain import) get more, up to `MAX_RPC_BODY_BYTES`.
 * Every other call: `DEFAULT_RPC_BODY_BYTES`. The server answers a larger body 413 `body_too_large` before reading it all.
 */
export const RPC_BODY_LIMITS: Readonly<Partial<Record<RpcMethodName, number>>> = Object.freeze({
  'schedules.create': 128 * KiB,
  'jobs.start': 128 * KiB,
  'work.complete': 4 * MiB,
  'work.fail': 1 * MiB,
  'work.hold': 8 * MiB,
  'work.finishApprovedCall': 4 * MiB,
  'workflows.start': 4 * MiB,
  'tasks.submit': 4 * MiB,
  'tasks.fail': 1 * MiB,
  'tasks.hold': 8 * MiB,
  'tasks.finishApprovedCall': 4 * MiB,
  'brain.createPage': 1 * MiB,
  'brain.updatePage': 1 * MiB,
  'brain.importPages': 8 * MiB,
  'transcripts.append': 8 * MiB,
  'approvals.decide': 64 * KiB,
});

/** The body limit of call `name`: its `RPC_BODY_LIMITS` entry (or the default), never more than `maxBodyBytes`. */
export function rpcBodyLimit(name: string, maxBodyBytes: number = MAX_RPC_BODY_BYTES): number {
  const limit = Object.hasOwn(RPC_BODY_LIMITS, name) ? RPC_BODY_LIMITS[name as RpcMethodName]! : DEFAULT_RPC_BODY_BYTES;
  return Math.min(limit, maxBodyBytes);
}
