import { ControlPlaneConflictError, ControlPlaneFailure, ControlPlaneInputError, ControlPlaneNotFoundError } from './errors.js';

/** An error as the HTTP control plane sends it: `{ error: WireError }`. */
export interface WireError {
  /** `input` (400), `not_found` (404), `conflict` (409), `auth` (401/403), `limit` (413/429), `failure` (5xx). */
  kind: 'input' | 'not_found' | 'conflict' | 'auth' | 'limit' | 'failure';
  /** The stable code (`input_invalid`, `job_not_found`, `lease_lost`, `unauthorized`, `internal_error`, ...). */
  code: string;
  message: string;
  field?: string | undefined;
  resource?: string | undefined;
  id?: string | undefined;
  /** The server's request id (also in its log). */
  requestId?: string | undefined;
}

/**
 * The wire form and HTTP status of a control-plane error. Anything that is not one of the typed,
 * user-facing errors becomes `500 internal_error` with nothing of its message (details stay in the server log).
 */
export function errorToWire(error: unknown, requestId?: string): { status: number; body: { error: WireError } } {
  if (error instanceof ControlPlaneNotFoundError) {
    return { status: 404, body: { error: { kind: 'not_found', code: error.code, message: error.message, resource: error.resource, id: error.id, requestId } } };
  }
  if (error instanceof ControlPlaneConflictError) {
    return { status: 409, body: { error: { kind: 'conflict', code: error.code, message: error.message, requestId } } };
  }
  if (error instanceof ControlPlaneInputError) {
    return { status: 400, body: { error: { kind: 'input', code: error.code, message: error.message, field: error.field, requestId } } };
  }
  return {
    status: 500,
    body: { error: { kind: 'failure', code: 'internal_error', message: `The control plane had an internal error (request ${requestId ?? 'unknown'}).`, requestId } },
  };
}

/** Rebuilds the typed error a wire error stands for (`ControlPlaneFailure` for auth, limit and server failures). */
export function errorFromWire(wire: WireError, status: number): Error {
  switch (wire.kind) {
    case 'input':
      return new ControlPlaneInputError(wire.code, wire.message, wire.field === undefined ? {} : { field: wire.field });
    case 'not_found':
      return new ControlPlaneNotFoundError(wire.resource as ControlPlaneNotFoundError['resource'], wire.id ?? '');
    case 'conflict':
      return new ControlPlaneConflictError(wire.code as ConstructorParameters<typeof ControlPlaneConflictError>[0], wire.message);
    default:
      return new ControlPlaneFailure(wire.code, `${wire.message} (HTTP ${status})`);
  }
}
