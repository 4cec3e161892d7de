import type { ModelGateway } from '../gateway/model-gateway.js';
import { chainCompactors, type ContextCompactor } from './context-compactor.js';
import { localCompactor, type LocalCompactorOptions } from './local-compactor.js';
import { serverCompactor } from './server-compactor.js';

/**
 * The compactor `runAgentLoop` uses unless told otherwise: the server's `POST /responses/compact` when the gateway
 * can call it and the server has it, else (or when it fails) `localCompactor(local)`.
 */
export function defaultCompactor(
  gateway: ModelGateway,
  options: { local?: LocalCompactorOptions; onError?: (error: unknown, compactor: ContextCompactor) => void } = {},
): ContextCompactor {
  return chainCompactors([serverCompactor(gateway), localCompactor(options.local)], options.onError === undefined ? {} : { onError: options.onError });
}
