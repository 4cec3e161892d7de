import http from 'node:http';
import https from 'node:https';
import type { ControlPlaneChanges } from './control-plane-changes.js';
import type { CallOptions, ControlPlaneClient } from './control-plane-client.js';
import { ControlPlaneFailure, ControlPlaneInputError } from './errors.js';
import { followChangeStream } from './follow-change-stream.js';
import { parseInput } from './input-schemas.js';
import { parseOutput } from './parse-output.js';
import { RPC_METHODS, type RpcMethodName } from './rpc-methods.js';
import { errorFromWire, type WireError } from './wire-error.js';

/** Options of `createHttpControlPlaneClient`. */
export interface HttpControlPlaneClientOptions {
  /** The server, `http://127.0.0.1:7070` or `https://…` (`ankole serve`); ignored for the host when `socketPath` is set. */
  url: string;
  /** The bearer token (`ankole tokens create`); not needed on the embedded data folder's local socket. */
  token?: string | undefined;
  /** A Unix socket to connect to instead of `url`'s host and port (the embedded database's local socket). */
  socketPath?: string | undefined;
  /** How many times a transient fault is retried (default 5): refused connections, 429 and 503 for every call; other 5xx and dropped connections only for retry-safe calls. */
  retries?: number | undefined;
  /** The first retry's delay in ms, doubled each time up to 5 s (default 100). */
  retryDelayMs?: number | undefined;
  /** How long one request may take, in ms (default 120 000; `advances.runNext` runs a sandbox on the server). */
  timeoutMs?: number | undefined;
  /**
   * The `waitMs` of `work.claim` and `tasks.claim` calls that give none (at most 30 000; default 0, answer at once).
   * Any call may give its own `waitMs` (claims and heartbeats long-poll on the server; see `WorkApi.claim`).
   */
  claimWaitMs?: number | undefined;
}

/** A `ControlPlaneClient` over HTTP; `close` ends its kept-alive connections and its change streams. */
export interface HttpControlPlaneClient extends ControlPlaneClient {
  /**
   * The server's changes, read from its change stream (`GET /v1/changes`; an agent token hears its agent's only): see
   * `ControlPlaneChanges`. A dropped stream is opened again (a `gap` then); against a server without one, nothing comes.
   */
  readonly changes: ControlPlaneChanges;
  close(): Promise<void>;
}

/** Every call of `ControlPlaneClient`, as `<api>.<method>`. */
type ClientMethodName = { [K in keyof ControlPlaneClient]: `${K & string}.${keyof ControlPlaneClient[K] & string}` }[keyof ControlPlaneClient];
/** `true` only when RPC_METHODS names exactly the client's calls (so this file does not compile when they differ). */
type SameCalls = [ClientMethodName] extends [RpcMethodName] ? ([RpcMethodName] extends [ClientMethodName] ? true : false) : false;
const EVERY_CALL_IN_THE_TABLE: SameCalls = true;

type Outcome = { kind: 'answer'; status: number; body: unknown; retryAfterMs: number | undefined } | { kind: 'fault'; sent: boolean; error: Error };

/**
 * A `ControlPlaneClient` that makes every call as `POST <url>/v1/<api>/<method>` with a JSON body, parsing the
 * input with the same schema the server parses with (so an invalid input fails here, with the same error) and
 * checking each result with the call's output schema (`ControlPlaneOutputError`, code `output_invalid`, naming the call
 * and the path of the bad field, for an answer that does not match), rebuilding the server's typed errors (`ControlPlaneInputError`, `ControlPlaneNotFoundError`,
 * `ControlPlaneConflictError`; `ControlPlaneFailure` with code `unauthorized`, `forbidden`, `rate_limited`,
 * `body_too_large` or `internal_error` otherwise). `advances.runNext` runs the workflow sandbox on the server.
 * A URL given with the API root (`http://host:7070/v1`) or a trailing slash names the same server. A URL that answers, but not as a
 * control plane does (its routes unknown, a 4xx without a JSON error), is `ControlPlaneInputError` `url_not_control_plane`.
 * @throws ControlPlaneInputError for a URL that is not http(s).
 */
export function createHttpControlPlaneClient(options: HttpControlPlaneClientOptions): HttpControlPlaneClient {
  let base: URL;
  try {
    base = new URL(options.url);
  } catch {
    throw new ControlPlaneInputError('url_invalid', `The control plane URL "${options.url}" is not a URL; give one like http://127.0.0.1:7070.`, { field: 'url' });
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new ControlPlaneInputError('url_invalid', `The control plane URL "${options.url}" must start with http:// or https://.`, { field: 'url' });
  }
  const transport = base.protocol === 'https:' ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets: 64 });
  const retries = options.retries ?? 5;
  const firstDelay = options.retryDelayMs ?? 100;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const claimWaitMs = Math.max(0, Math.min(options.claimWaitMs ?? 0, 30_000));
  // The API root is `<url>/v1`: a URL given with it (`http://host:7070/v1`, `…/v1/`) or a trailing slash means the same server.
  const prefix = base.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  const where = options.socketPath ?? base.origin;

  function send(name: string, payload: string, signal: AbortSignal | undefined): Promise<Outcome> {
    const [api, method] = name.split('.');
    return new Promise((resolve) => {
      let answered = false;
      const request = transport.request(
        {
          agent,
          method: 'POST',
          ...(options.socketPath !== undefined ? { socketPath: options.socketPath } : { hostname: base.hostname, port: base.port }),
          path: `${prefix}/v1/${api}/${method}`,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
            ...(options.token !== undefined ? { authorization: `Bearer ${options.token}` } : {}),
          },
          timeout: timeoutMs,
          ...(signal === undefined ? {} : { signal }),
        },
        (response) => {
          answered = true;
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', (error) => resolve({ kind: 'fault', sent: true, error }));
          // Cut off mid-answer (an aborted call, a dropped connection) without an 'error': settle all the same.
          response.on('close', () => {
            if (!response.complete) resolve({ kind: 'fault', sent: true, error: new Error('the connection closed before the whole answer came') });
          });
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown;
            try {
              body = text === '' ? undefined : JSON.parse(text);
            } catch {
              body = undefined;
            }
            const retryAfter = Number(response.headers['retry-after']);
            resolve({ kind: 'answer', status: response.statusCode ?? 0, body, retryAfterMs: Number.isFinite(retryAfter) ? retryAfter * 1000 : undefined });
          });
        },
      );
      let connected = false;
      request.on('socket', (socket) => {
        if (!socket.connecting) connected = true;
        else socket.once('connect', () => (connected = true));
      });
      request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      request.on('error', (error) => resolve({ kind: 'fault', sent: connected, error }));
      request.on('close', () => {
        if (!answered) resolve({ kind: 'fault', sent: connected, error: new Error('the connection closed before an answer') });
      });
      request.end(payload);
    });
  }

  async function call(name: RpcMethodName, input: unknown, callOptions: CallOptions | undefined): Promise<unknown> {
    const method = RPC_METHODS[name];
    const parsed = parseInput(method.input, input, name) as Record<string, unknown>;
    if (claimWaitMs > 0 && name.endsWith('.claim') && parsed.waitMs === undefined) parsed.waitMs = claimWaitMs;
    const signal = callOptions?.signal;
    let payload: string;
    try {
      payload = JSON.stringify(parsed);
    } catch (error) {
      throw new ControlPlaneInputError('input_invalid', `Invalid input to ${name}: it is not JSON data (${(error as Error).message}).`);
    }
    let delay = firstDelay;
    for (let attempt = 0; ; attempt += 1) {
      if (signal?.aborted) throw abortError(name, signal);
      const outcome = await send(name, payload, signal);
      let retryAfterMs: number | undefined;
      if (outcome.kind === 'answer') {
        if (outcome.status === 200) {
          const body = outcome.body;
          if (typeof body !== 'object' || body === null || !('result' in body)) {
            throw new ControlPlaneFailure('bad_answer', `The control plane at ${where} answered ${name} with HTTP 200 but no { result } JSON body.`);
          }
          return parseOutput(method.output, body.result, name, `the control plane at ${where}`);
        }
        const wire = (outcome.body as { error?: WireError } | undefined)?.error;
        const notRun = outcome.status === 429 || outcome.status === 503;
        const transient = notRun || (outcome.status >= 500 && method.retrySafe);
        if (!transient || attempt >= retries) {
          const isWireError = typeof wire === 'object' && wire !== null && typeof wire.code === 'string';
          // Not an Ankole control plane there (another server, or a path it does not serve): say so, not "no such row".
          if ((isWireError && wire.code === 'route_unknown') || (!isWireError && outcome.status < 500)) throw notAControlPlane(options, outcome.status);
          if (isWireError) throw errorFromWire(wire, outcome.status);
          throw new ControlPlaneFailure('bad_answer', `The control plane at ${where} answered ${name} with HTTP ${outcome.status} and no error description.`);
        }
        retryAfterMs = outcome.retryAfterMs;
      } else if (signal?.aborted) {
        throw abortError(name, signal);
      } else if ((outcome.sent && !method.retrySafe) || attempt >= retries) {
        throw new ControlPlaneFailure(
          'control_plane_unreachable',
          `Could not ${outcome.sent ? 'finish' : 'send'} ${name} to the control plane at ${where}: ${outcome.error.message}.` +
            (outcome.sent ? '' : ' Check that `ankole serve` (or the worker holding the data folder) is running and reachable.'),
          { cause: outcome.error },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(retryAfterMs ?? 0, delay * (0.5 + Math.random()))));
      delay = Math.min(delay * 2, 5_000);
    }
  }

  /** The change streams open now (ended by `close`). */
  const streams = new Set<{ stop(): void }>();
  const changes: ControlPlaneChanges = {
    async subscribe(listener) {
      const stream = followChangeStream(
        (signal) =>
          new Promise((resolve, reject) => {
            transport
              .get({
                ...(options.socketPath !== undefined ? { socketPath: options.socketPath } : { hostname: base.hostname, port: base.port }),
                path: `${prefix}/v1/changes`,
                headers: { accept: 'text/event-stream', ...(options.token !== undefined ? { authorization: `Bearer ${options.token}` } : {}) },
                signal,
              })
              .on('response', resolve)
              .on('error', reject);
          }),
        listener,
      );
      streams.add(stream);
      await stream.ready;
      return () => {
        stream.stop();
        streams.delete(stream);
      };
    },
  };

  // One function per entry of RPC_METHODS, grouped by api: a call added to the table is on the client at once.
  void EVERY_CALL_IN_THE_TABLE;
  const apis: Record<string, Record<string, (input: unknown, callOptions?: CallOptions) => Promise<unknown>>> = {};
  for (const name of Object.keys(RPC_METHODS) as RpcMethodName[]) {
    const [group, method] = name.split('.') as [string, string];
    (apis[group] ??= {})[method] = (input: unknown, callOptions?: CallOptions) => call(name, input, callOptions);
  }

  return Object.freeze({
    ...Object.fromEntries(Object.entries(apis).map(([group, methods]) => [group, Object.freeze(methods)])),
    changes,
    async close() {
      for (const stream of streams) stream.stop();
      streams.clear();
      agent.destroy();
    },
  } as HttpControlPlaneClient);
}

/** A URL that answers, but not as an Ankole control plane does (a 404 for its routes, or no JSON error). */
function notAControlPlane(options: HttpControlPlaneClientOptions, status: number): ControlPlaneInputError {
  const where = options.socketPath ?? options.url;
  return new ControlPlaneInputError(
    'url_not_control_plane',
    `${where} does not answer as an Ankole control plane (HTTP ${status} for its calls); give the URL \`ankole serve\` prints, like http://127.0.0.1:7070.`,
    { field: 'url' },
  );
}

/** The error of a call whose `signal` aborted: the signal's reason when it is an Error. */
function abortError(name: string, signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new ControlPlaneFailure('aborted', `${name} was aborted.`);
}
