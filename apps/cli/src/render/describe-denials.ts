import { type CallDenial, type DeniedCallCounts, DENIAL_SOURCES, type DenialSource } from '@core/runtime';
import { formatCount, plural } from './format.js';

/** Who denied, as the line of a denied call says it. */
const DENIED_BY: Record<DenialSource, string> = {
  config: 'denied by the config',
  person: 'denied by a person',
  unattended: 'denied (no one could be asked)',
};

/**
 * What a denied call's line says after its label: who denied it and why (`denied by the config: approvals.deny in the
 * agent config lists "command"`, `denied by a person: keep it`, `denied (no one could be asked): …`). A denial from a
 * stored event without a known `by` is a person's (the default of a denial).
 */
export function describeDenial(denial: Partial<CallDenial>): string {
  const by = denial.by === 'config' || denial.by === 'unattended' ? denial.by : 'person';
  const reason = typeof denial.reason === 'string' && denial.reason !== '' ? denial.reason : by === 'person' ? 'no reason given' : undefined;
  return reason === undefined ? DENIED_BY[by] : `${DENIED_BY[by]}: ${reason}`;
}

/** One source's part of the summary: `2 by the config`, `1 by a person`, `3 by people`, `1 with no one to ask`. */
function sourcePart(by: DenialSource, count: number): string {
  if (by === 'config') return `${formatCount(count)} by the config`;
  if (by === 'person') return `${formatCount(count)} ${count === 1 ? 'by a person' : 'by people'}`;
  return `${formatCount(count)} with no one to ask`;
}

/**
 * The summary's words for a turn's denied calls, or `undefined` when there were none: `1 call denied by the config`
 * when one source denied them all, else `3 calls denied (2 by the config, 1 by a person)`.
 */
export function describeDeniedCalls(counts: DeniedCallCounts): string | undefined {
  if (counts.total === 0) return undefined;
  const sources = DENIAL_SOURCES.filter((by) => counts[by] > 0);
  const head = `${plural(counts.total, 'call')} denied`;
  const [only] = sources;
  if (sources.length === 1 && only !== undefined) return `${head} ${sourcePart(only, counts[only]).replace(/^[\d,]+ /, '')}`;
  return `${head} (${sources.map((by) => sourcePart(by, counts[by])).join(', ')})`;
}
