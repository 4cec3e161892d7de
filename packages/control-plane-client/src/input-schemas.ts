import { z } from 'zod';
import { ControlPlaneInputError } from './errors.js';
import { findTooDeep, MAX_INPUT_DEPTH } from './json-depth.js';
import { outputPath } from './parse-output.js';
import { findUnstorableText } from './unstorable-text.js';

const agentId = z.string().trim().min(1, 'agentId must not be empty').max(200);
const id = z.string().trim().min(1).max(100);
const title = z.string().trim().min(1).max(200).optional();
/** A job's or schedule's home folder: an absolute path on the workers' machine. */
const home = z.string().max(4096).regex(/^\/./, 'an absolute path, like /home/me/project').optional();
const prompt = z.string().trim().min(1, 'prompt must not be empty').max(20_000);
const jobStatus = z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled', 'awaiting_approval']);
/** A long poll's wait, in ms (`work.claim`, `work.heartbeat`, `tasks.claim`, `tasks.heartbeat`). */
export const waitMs = z.number().int().min(0).max(30_000).optional();
const approvalStatus = z.enum(['pending', 'approved', 'denied', 'cancelled']);
const callId = z.string().min(1).max(200);

/** A paused turn's run state (`work.hold`, `tasks.hold`). */
export const runStateInput = z.record(z.string(), z.unknown());

/** The calls a paused turn holds (`work.hold`, `tasks.hold`). */
export const heldCallsInput = z
  .array(
    z.object({
      callId,
      toolName: z.string().min(1).max(200),
      label: z.string().max(2000),
      params: z.unknown().optional(),
      isDestructive: z.boolean().optional(),
    }),
  )
  .min(1)
  .max(100);

/** What an approved call returned, as journaled (`work.finishApprovedCall`, `tasks.finishApprovedCall`). */
export const approvedCallOutputInput = z.object({ content: z.unknown(), isError: z.boolean().optional(), terminateTurn: z.boolean().optional() });

/** The control plane's input schemas: every RPC payload is parsed with one of these. */
export const inputSchemas = {
  createSchedule: z
    .object({
      agentId,
      prompt,
      title,
      home,
      cron: z.string().trim().min(1).max(200).optional(),
      timeZone: z.string().trim().min(1).max(100).optional(),
      runAt: z.string().trim().min(1).max(100).optional(),
    })
    .refine((input) => (input.cron === undefined) !== (input.runAt === undefined), {
      message: 'give exactly one of cron (a repeating schedule) or runAt (a one-time date-time)',
    })
    .refine((input) => input.timeZone === undefined || input.cron !== undefined, {
      message: 'timeZone only applies to cron schedules (runAt carries its own offset)',
      path: ['timeZone'],
    }),
  listSchedules: z.object({ agentId, includeInactive: z.boolean().optional() }),
  scheduleRef: z.object({ agentId, scheduleId: id }),
  startJob: z.object({ agentId, prompt, title, home }),
  listJobs: z.object({ agentId, status: z.array(jobStatus).optional(), limit: z.number().int().min(1).max(500).optional() }),
  jobRef: z.object({ agentId, jobId: id }),
  claim: z.object({ workerId: z.string().trim().min(1).max(200), waitMs }),
  lease: z.object({ jobId: id, leaseToken: id }),
  heartbeat: z.object({ jobId: id, leaseToken: id, waitMs }),
  complete: z.object({ jobId: id, leaseToken: id, finalAnswer: z.string().max(1_000_000) }),
  fail: z.object({ jobId: id, leaseToken: id, error: z.string().max(100_000) }),
  hold: z.object({ jobId: id, leaseToken: id, runState: runStateInput, calls: heldCallsInput }),
  approvedCall: z.object({ jobId: id, leaseToken: id, callId }),
  approvedCallOutput: z.object({ jobId: id, leaseToken: id, callId, output: approvedCallOutputInput }),
  listApprovals: z.object({ agentId, status: z.array(approvalStatus).optional(), limit: z.number().int().min(1).max(500).optional() }),
  approvalRef: z.object({ agentId, approvalId: id }),
  decideApproval: z.object({ agentId, approvalId: id, approved: z.boolean(), reason: z.string().trim().max(2000).optional() }),
} as const;

/**
 * Parses an RPC payload. Objects and arrays nested deeper than `MAX_INPUT_DEPTH` (64 levels) are refused first, then
 * text PostgreSQL cannot store (a NUL character or a lone surrogate, in any string or object key of the payload), each
 * naming where it is (`result.items[3].name`).
 * @throws ControlPlaneInputError `input_too_deep`, else `input_invalid` naming each wrong field, or the one holding
 *   unstorable text.
 */
export function parseInput<TSchema extends z.ZodType>(schema: TSchema, input: unknown, operation: string): z.output<TSchema> {
  const tooDeep = findTooDeep(input, MAX_INPUT_DEPTH);
  if (tooDeep !== undefined) {
    throw new ControlPlaneInputError(
      'input_too_deep',
      `Invalid input to ${operation}: ${outputPath(tooDeep)} nests objects and arrays deeper than ${MAX_INPUT_DEPTH} levels; flatten it (or send it as a JSON string).`,
      { field: tooDeep.join('.') || undefined },
    );
  }
  const unstorable = findUnstorableText(input);
  if (unstorable !== undefined) {
    throw new ControlPlaneInputError('input_invalid', `Invalid input to ${operation}: ${unstorable.path}: ${unstorable.description}.`, { field: unstorable.path });
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'input'}: ${issue.message}`);
  throw new ControlPlaneInputError('input_invalid', `Invalid input to ${operation}: ${problems.join('; ')}.`, {
    field: result.error.issues[0]?.path.join('.') || undefined,
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether an id can be a stored id (any other id cannot exist, so it is "not found"). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
