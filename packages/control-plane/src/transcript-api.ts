import { randomUUID } from 'node:crypto';
import { boundEvent, type AgentEvent } from '@core/runtime';
import {
  ControlPlaneNotFoundError,
  isUuid,
  parseInput,
  transcriptInputSchemas,
  type TranscriptApi,
  type TranscriptAttempt,
  type TranscriptEntry,
  type TranscriptLimits,
  type TranscriptRecord,
} from '@core/control-plane-client';
import { isoTime } from './records.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';

/** What the transcript API needs. */
export interface TranscriptApiOptions {
  driver: SqlDriver;
  schema: string;
  limits: TranscriptLimits;
}

interface TranscriptRow {
  id: string;
  attempt: number;
  worker_id: string | null;
  received: number;
  kept: number;
  bytes: number;
  dropped: number;
  truncated: number;
  created_at: Date | string;
  updated_at: Date | string;
}

interface EventRow {
  transcript_id: string;
  time: string;
  event: TranscriptEntry['event'];
}

/**
 * Transcripts in the `transcript` (one row per claim: counters) and `transcript_event` (one row per kept event) tables.
 * Every string of an event is cut to `limits.maxStringChars`; once a transcript holds `limits.maxBytes`, later events
 * are counted and left out, except `turn.completed`.
 */
export function createTranscriptApi(options: TranscriptApiOptions): TranscriptApi {
  const { driver, schema, limits } = options;

  /** The transcript of this claim: found by its lease token, else started while the claim is held. */
  async function transcriptOf(transaction: SqlExecutor, owner: { column: 'job_id' | 'task_id'; table: 'job' | 'task'; id: string }, leaseToken: string) {
    const { rows: found } = await transaction.query<TranscriptRow & { owner: string }>(
      `SELECT *, ${owner.column} AS owner FROM ${schema}.transcript WHERE lease_token = $1 FOR UPDATE`,
      [leaseToken],
    );
    if (found[0] !== undefined) return found[0].owner === owner.id ? found[0] : undefined;
    const { rows: claims } = await transaction.query<{ agent_id: string; attempts: number; worker_id: string | null }>(
      `SELECT agent_id, attempts, worker_id FROM ${schema}.${owner.table} WHERE id = $1 AND lease_token = $2 FOR UPDATE`,
      [owner.id, leaseToken],
    );
    const claim = claims[0];
    if (claim === undefined) return undefined;
    const { rows } = await transaction.query<TranscriptRow>(
      `INSERT INTO ${schema}.transcript (id, agent_id, ${owner.column}, attempt, worker_id, lease_token) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (lease_token) DO NOTHING RETURNING *`,
      [randomUUID(), claim.agent_id, owner.id, claim.attempts, claim.worker_id, leaseToken],
    );
    return rows[0];
  }

  return {
    async append(input) {
      const { jobId, taskId, leaseToken, fromSequence, entries } = parseInput(transcriptInputSchemas.append, input, 'transcripts.append');
      const owner = jobId !== undefined ? { column: 'job_id' as const, table: 'job' as const, id: jobId } : { column: 'task_id' as const, table: 'task' as const, id: taskId! };
      const refused = { accepted: false, attempt: null, stored: 0, dropped: 0, truncated: 0 };
      if (!isUuid(owner.id)) throw new ControlPlaneNotFoundError(owner.table, owner.id);
      return driver.transaction(async (transaction) => {
        const { rows: exists } = await transaction.query(`SELECT 1 FROM ${schema}.${owner.table} WHERE id = $1`, [owner.id]);
        if (exists.length === 0) throw new ControlPlaneNotFoundError(owner.table, owner.id);
        if (!isUuid(leaseToken)) return refused;
        const transcript = await transcriptOf(transaction, owner, leaseToken);
        if (transcript === undefined) return refused;
        // Events this transcript already received (a batch sent again) are skipped; a gap (a lost batch) counts as left out.
        const already = Number(transcript.received);
        const skip = Math.max(0, already - fromSequence);
        const gap = Math.max(0, fromSequence - already);
        let bytes = Number(transcript.bytes);
        let stored = 0;
        let dropped = 0;
        let truncated = 0;
        const kept: TranscriptEntry[] = [];
        for (const entry of entries.slice(skip)) {
          const bounded = boundEvent(entry.event as unknown as AgentEvent, { maxStringChars: limits.maxStringChars });
          const keptEntry = { time: entry.time, event: bounded.event as unknown as TranscriptEntry['event'] };
          const size = Buffer.byteLength(JSON.stringify(keptEntry));
          if (bytes + size > limits.maxBytes && keptEntry.event.type !== 'turn.completed') {
            dropped += 1;
            continue;
          }
          bytes += size;
          stored += 1;
          if (bounded.truncatedStrings > 0) truncated += 1;
          kept.push(keptEntry);
        }
        const received = Math.max(already, fromSequence + entries.length);
        if (kept.length > 0) {
          await transaction.query(
            `INSERT INTO ${schema}.transcript_event (transcript_id, sequence, time, event)
             SELECT $1, $2 + (item.ordinality - 1)::int, item.value->>'time', item.value->'event'
             FROM json_array_elements($3::json) WITH ORDINALITY AS item (value, ordinality)`,
            [transcript.id, Number(transcript.kept), JSON.stringify(kept)],
          );
        }
        await transaction.query(
          `UPDATE ${schema}.transcript SET received = $2, kept = kept + $3, bytes = $4, dropped = dropped + $5, truncated = truncated + $6, updated_at = now()
           WHERE id = $1`,
          [transcript.id, received, kept.length, bytes, dropped + gap, truncated],
        );
        return { accepted: true, attempt: Number(transcript.attempt), stored, dropped, truncated };
      });
    },

    async get(input) {
      const { agentId, jobId, taskId } = parseInput(transcriptInputSchemas.get, input, 'transcripts.get');
      const owner = jobId !== undefined ? { column: 'job_id', table: 'job' as const, id: jobId } : { column: 'task_id', table: 'task' as const, id: taskId! };
      if (!isUuid(owner.id)) throw new ControlPlaneNotFoundError(owner.table, owner.id);
      const { rows: exists } = await driver.query(`SELECT 1 FROM ${schema}.${owner.table} WHERE id = $1 AND agent_id = $2`, [owner.id, agentId]);
      if (exists.length === 0) throw new ControlPlaneNotFoundError(owner.table, owner.id);
      const { rows: transcripts } = await driver.query<TranscriptRow>(
        `SELECT * FROM ${schema}.transcript WHERE ${owner.column} = $1 ORDER BY attempt, created_at`,
        [owner.id],
      );
      const { rows: events } = await driver.query<EventRow>(
        `SELECT event.transcript_id, event.time, event.event FROM ${schema}.transcript_event event
         JOIN ${schema}.transcript transcript ON transcript.id = event.transcript_id
         WHERE transcript.${owner.column} = $1 ORDER BY event.transcript_id, event.sequence`,
        [owner.id],
      );
      const byTranscript = new Map<string, TranscriptEntry[]>();
      for (const row of events) {
        const event = typeof row.event === 'string' ? (JSON.parse(row.event) as TranscriptEntry['event']) : row.event;
        const list = byTranscript.get(row.transcript_id) ?? [];
        list.push({ time: row.time, event });
        byTranscript.set(row.transcript_id, list);
      }
      const attempts = transcripts.map(
        (row): TranscriptAttempt => ({
          attempt: Number(row.attempt),
          workerId: row.worker_id,
          entries: byTranscript.get(row.id) ?? [],
          received: Number(row.received),
          droppedEvents: Number(row.dropped),
          truncatedEvents: Number(row.truncated),
          bytes: Number(row.bytes),
          startedAt: isoTime(row.created_at),
          updatedAt: isoTime(row.updated_at),
        }),
      );
      const record: TranscriptRecord = { agentId, jobId: jobId ?? null, taskId: taskId ?? null, attempts };
      return record;
    },
  };
}
