import { CHANGE_KINDS, type ControlPlaneChange, type ControlPlaneChangeEvent, type ControlPlaneChanges } from '@core/control-plane-client';
import { createChangeFeed } from './change-feed.js';
import type { SqlDriver } from './sql-driver.js';

/** The channel of migration 12's view notifications (a JSON object per change). */
export function viewChannel(schema: string): string {
  return `${schema}_views`;
}

/**
 * The control plane's `ControlPlaneChanges`: listens on `viewChannel(schema)` from the first subscription until
 * `close` (a lost connection is listened to again, and each subscriber hears `gap`).
 */
export function createViewChanges(options: { driver: SqlDriver; schema: string; onError?: (error: unknown) => void }): ControlPlaneChanges & { close(): Promise<void> } {
  const feed = createChangeFeed({ driver: options.driver, schema: options.schema, channel: viewChannel(options.schema), onError: options.onError });
  return {
    async subscribe(listener) {
      const stop = feed.watch(
        (payload) => {
          const change = parseViewChange(payload);
          if (change !== undefined) listener(change);
        },
        () => listener({ kind: 'gap' } satisfies ControlPlaneChangeEvent),
      );
      await feed.ready();
      return stop;
    },
    close: () => feed.close(),
  };
}

const KINDS: ReadonlySet<string> = new Set(CHANGE_KINDS);

/** A notification's change, or `undefined` for anything that is not one (a NOTIFY on this channel from elsewhere). */
export function parseViewChange(payload: string): ControlPlaneChange | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, id, agentId, workflowId, jobId, taskId } = value as Record<string, unknown>;
  if (typeof kind !== 'string' || !KINDS.has(kind) || typeof id !== 'string' || typeof agentId !== 'string') return undefined;
  const text = (field: unknown) => (typeof field === 'string' ? field : undefined);
  if (kind === 'task') return typeof workflowId === 'string' ? { kind, id, agentId, workflowId } : undefined;
  if (kind === 'approval' || kind === 'transcript') return { kind, id, agentId, jobId: text(jobId), taskId: text(taskId) };
  return { kind: kind as 'job' | 'workflow' | 'schedule', id, agentId };
}
