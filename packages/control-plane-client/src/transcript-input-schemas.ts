import { z } from 'zod';

const agentId = z.string().trim().min(1, 'agentId must not be empty').max(200);
const id = z.string().trim().min(1).max(100);

/** Most entries one `transcripts.append` call carries. */
export const MAX_TRANSCRIPT_BATCH = 500;

const entry = z.object({
  time: z.iso.datetime({ offset: true }),
  event: z.looseObject({ type: z.string().min(1).max(100) }),
});
const ownerIds = { jobId: id.optional(), taskId: id.optional() };
const oneOwner = (input: { jobId?: string | undefined; taskId?: string | undefined }) => (input.jobId === undefined) !== (input.taskId === undefined);
const oneOwnerMessage = { message: 'give exactly one of jobId or taskId' };

/** The transcript API's input schemas. */
export const transcriptInputSchemas = {
  append: z
    .object({
      ...ownerIds,
      leaseToken: id,
      fromSequence: z.number().int().min(0).max(10_000_000),
      entries: z.array(entry).max(MAX_TRANSCRIPT_BATCH, `at most ${MAX_TRANSCRIPT_BATCH} entries per call`),
    })
    .refine(oneOwner, oneOwnerMessage),
  get: z.object({ agentId, ...ownerIds }).refine(oneOwner, oneOwnerMessage),
} as const;

const time = z.iso.datetime({ offset: true });
const count = z.number().int().min(0);
const entryOutput = z.object({ time, event: z.looseObject({ type: z.string() }) });

/** The transcript API's output schemas (what each call answers). */
export const transcriptOutputSchemas = {
  append: z.object({
    accepted: z.boolean(),
    attempt: count.nullable(),
    stored: count,
    dropped: count,
    truncated: count,
  }),
  get: z.object({
    agentId: z.string(),
    jobId: z.string().nullable(),
    taskId: z.string().nullable(),
    attempts: z.array(
      z.object({
        attempt: count,
        workerId: z.string().nullable(),
        entries: z.array(entryOutput),
        received: count,
        droppedEvents: count,
        truncatedEvents: count,
        bytes: count,
        startedAt: time,
        updatedAt: time,
      }),
    ),
  }),
} as const;
