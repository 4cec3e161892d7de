/** Why a provider request stopped: what the adapter's failure message is completed with. */
export interface ProviderGiveUp {
  /** Requests sent, the first included (1: no retry was made). */
  attempts: number;
  /**
   * `final`: the answer is not worth retrying (a bad key, a used-up quota, a bad request);
   * `attempts_used`: every allowed attempt was made; `deadline`: the next retry would start after the
   * call's deadline; `wait_too_long`: the provider asks to wait longer than one retry may wait.
   */
  reason: 'final' | 'attempts_used' | 'deadline' | 'wait_too_long';
  /** How long the provider asked to wait (Retry-After or its rate-limit reset), in ms, when it said. */
  retryAfterMs: number | undefined;
  /** The longest single wait a retry may make, in ms (`maxDelayMs`). */
  maxDelayMs: number;
  /** Whether the provider answered (an HTTP status) rather than the request failing on the network. */
  answered: boolean;
}

/**
 * The sentences that end a provider failure message: what happened to the retries (none made, or
 * how many before giving up and why) and when to try again (the provider's Retry-After or reset,
 * as a span and a UTC time, when it gave one). Empty for a final answer without a wait hint.
 */
export function giveUpText(giveUp: ProviderGiveUp, now: number = Date.now()): string {
  const { attempts, reason, retryAfterMs } = giveUp;
  const sentences: string[] = [];
  const tried = attempts === 1 ? 'No retry was made' : `Gave up after ${attempts} attempts`;
  if (reason === 'attempts_used') sentences.push(`${tried}.`);
  if (reason === 'deadline') sentences.push(`${tried}: the next retry would start after the search deadline.`);
  if (reason === 'wait_too_long') sentences.push(`${tried}: the provider asks to wait longer than this call waits for a retry (${spanText(giveUp.maxDelayMs)}).`);
  if (retryAfterMs !== undefined) {
    sentences.push(`Try again in ${spanText(retryAfterMs)} (after ${utcText(now + retryAfterMs)}).`);
  } else if (reason !== 'final' && giveUp.answered) {
    sentences.push('The provider did not say when to try again.');
  }
  return sentences.length === 0 ? '' : ` ${sentences.join(' ')}`;
}

/** A wait for people: `30 s`, `5 min`, `3 h`, `17 days`. */
export function spanText(milliseconds: number): string {
  const seconds = Math.max(0, Math.ceil(milliseconds / 1000));
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.ceil(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.ceil(seconds / 3600)} h`;
  return `${Math.ceil(seconds / 86_400)} days`;
}

function utcText(time: number): string {
  return `${new Date(Math.ceil(time / 1000) * 1000).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
}
