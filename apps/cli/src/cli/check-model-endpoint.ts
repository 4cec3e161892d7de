import { describeModelFailure, type ModelEndpoint } from '@core/worker';
import { CliError, EXIT_CODES } from './cli-error.js';

/** Options of `checkModelEndpoint`. */
export interface CheckModelEndpointOptions extends ModelEndpoint {
  apiKey: string;
  /** How long the probe may take (default 10 000 ms). */
  timeoutMs?: number;
}

/**
 * Checks, before a worker takes any work, that the model endpoint answers and takes the key: one `GET <baseURL>/models`.
 * Any HTTP answer but 401 counts as reachable (a Responses-compatible server need not list models; a 429 or 5xx now
 * may pass, and turns retry those).
 * @throws CliError (exit code 1, `model_unreachable` or `model_auth_failed`) with the one sentence of
 *   `describeModelFailure` when the endpoint cannot be reached, does not answer in time, or refuses the key.
 */
export async function checkModelEndpoint(options: CheckModelEndpointOptions): Promise<void> {
  const endpoint = { baseURL: options.baseURL, model: options.model, baseURLFrom: options.baseURLFrom };
  let status: number;
  try {
    const response = await fetch(`${options.baseURL.replace(/\/+$/, '')}/models`, {
      headers: { authorization: `Bearer ${options.apiKey}` },
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    status = response.status;
    await response.body?.cancel();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const message = timedOut
      ? describeModelFailure({ code: 'model_timeout', message: 'timed out' }, undefined, endpoint)
      : describeModelFailure(error, undefined, endpoint);
    throw new CliError('model_unreachable', message, { exitCode: EXIT_CODES.failure, cause: error });
  }
  if (status === 401) {
    throw new CliError('model_auth_failed', describeModelFailure({ status }, undefined, endpoint), { exitCode: EXIT_CODES.failure });
  }
}
