import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ControlPlaneOutputError,
  errorToWire,
  findTooDeep,
  MAX_OUTPUT_DEPTH,
  outputPath,
  parseOutput,
  rpcMethod,
  type CallOptions,
  type ControlPlaneChanges,
  type ControlPlaneClient,
} from '@core/control-plane-client';
import { createDashboardRoutes, requestToken } from '@core/dashboard';
import { Hono, type Context } from 'hono';
import type { AccessTokens, Principal } from './access-tokens.js';
import { streamChanges } from './change-stream.js';
import { createInFlightLimiter } from './in-flight-limiter.js';
import { controlPlaneOpenApi } from './openapi-document.js';
import { createRateLimiter } from './rate-limiter.js';
import { readJsonBody } from './read-json-body.js';
import { MAX_RPC_BODY_BYTES, rpcBodyLimit } from './rpc-body-limits.js';

/** Options of `createControlPlaneApp`. */
export interface ControlPlaneAppOptions {
  /** The in-process client every request is answered with. */
  client: ControlPlaneClient;
  /** Who a bearer token stands for (`undefined`: refused with 401); `createAccessTokens(...).verify`, or `() => ({ kind: 'local' })` for the local socket. */
  authenticate(token: string | undefined): Promise<Principal | undefined> | Principal | undefined;
  /**
   * Largest request body of any call, in bytes (default and at most sensible: 8 MiB); each call has its own lower
   * limit too (`RPC_BODY_LIMITS`: 16 KiB for most). A larger body gets 413 `body_too_large` before it is read whole.
   */
  maxBodyBytes?: number | undefined;
  /** Requests a second per token on average (default 200), bursts up to `rateBurst` (default 400); more get 429. */
  ratePerSecond?: number | undefined;
  rateBurst?: number | undefined;
  /** Most requests of one token in progress at once (default 32; long polls' waits count in `maxWaitersPerToken` instead); more get 429 `too_many_in_flight`. */
  maxInFlightPerToken?: number | undefined;
  /**
   * Wrong or missing tokens answered 401 per remote address: `wrongTokenRatePerSecond` a second on average (default 5),
   * bursts of `wrongTokenBurst` (default 20); past that 429 `rate_limited` (logged once until the budget is back).
   * A right token from the same address is still answered.
   */
  wrongTokenRatePerSecond?: number | undefined;
  wrongTokenBurst?: number | undefined;
  /** The longest long poll a call may ask for (`waitMs` of claims and heartbeats), in ms (default 30 000; longer ones are cut to it). */
  maxClaimWaitMs?: number | undefined;
  /** Most long polls waiting at once per token (default 32); a call beyond it answers at once, as with `waitMs: 0`. */
  maxWaitersPerToken?: number | undefined;
  /** Aborting it ends every long poll at once, each answering as its wait ran out (`serveControlPlane`'s `close` does). */
  signal?: AbortSignal | undefined;
  /**
   * The access tokens, managed through `POST /v1/admin/tokens/{create,list,revoke}` by the local socket's callers only
   * (so `ankole tokens` works while a process holds the embedded database); without it those routes are 404.
   */
  tokens?: AccessTokens | undefined;
  /**
   * Where the log goes, one call a line (default: standard error): each refused request (4xx) as one line with the
   * request id, method, path, status, code and message; a server error (5xx) with its stack trace.
   */
  log?: ((line: string) => void) | undefined;
  /** Serve the web dashboard (`@core/dashboard`) at `/`, and take its session cookie for calls (same-site requests only). */
  dashboard?: boolean | undefined;
  /**
   * The control plane's changes (`ControlPlane.changes`): with them, `GET /v1/changes[?agentId=]` streams them as
   * server-sent events (`streamChanges`; an agent token hears only its agent's), which the dashboard waits on.
   */
  changes?: ControlPlaneChanges | undefined;
  /** A change stream's keep-alive comment (and the check that its token still stands), in ms (default 15 000). */
  changeStreamKeepAliveMs?: number | undefined;
  /** A change stream ends after this many ms (default 10 minutes); its reader connects again. */
  changeStreamMaxMs?: number | undefined;
}

/** The app's context variables. */
export type ControlPlaneAppEnv = { Variables: { principal: Principal; requestId: string } };

/** How a claim that its caller can no longer receive is handed back. */
const RELEASE_CLAIM: Record<string, (client: ControlPlaneClient, claimed: { id: string; leaseToken: string }) => Promise<unknown>> = {
  'work.claim': (client, claimed) => client.work.release({ jobId: claimed.id, leaseToken: claimed.leaseToken }),
  'tasks.claim': (client, claimed) => client.tasks.release({ taskId: claimed.id, leaseToken: claimed.leaseToken }),
};

/**
 * The control plane as a Hono app: `GET /v1/health`, `GET /v1/openapi.json` (`controlPlaneOpenApi`), and `POST /v1/<api>/<method>` with the call's input as a JSON
 * object, answered `200 { result }` (the result checked with the call's output schema first) or `{ error: WireError }` with 400 (invalid body or input;
 * `input_too_deep` / `body_too_complex` before parsing, with the path), 401 (no or unknown token), 403 (a call the token may not make, or another
 * agent's id), 404 (unknown call, or no such row), 409 (conflict), 413 (body over the call's `RPC_BODY_LIMITS`), 429 (rate limit, too many
 * requests in flight, or too many wrong tokens from one address; with Retry-After) or 500 (`internal_error` and the request id; the details
 * only in `log`). An agent token's calls are for its agent: a missing `agentId` is set to it.
 */
export function createControlPlaneApp(options: ControlPlaneAppOptions): Hono<ControlPlaneAppEnv> {
  const maxBodyBytes = options.maxBodyBytes ?? MAX_RPC_BODY_BYTES;
  const limiter = createRateLimiter({ perSecond: options.ratePerSecond ?? 200, burst: options.rateBurst ?? 400 });
  const wrongTokens = createRateLimiter({ perSecond: options.wrongTokenRatePerSecond ?? 5, burst: options.wrongTokenBurst ?? 20 });
  const maxInFlightPerToken = options.maxInFlightPerToken ?? 32;
  const inFlight = createInFlightLimiter({ max: maxInFlightPerToken });
  const maxClaimWaitMs = options.maxClaimWaitMs ?? 30_000;
  const maxWaitersPerToken = options.maxWaitersPerToken ?? 32;
  const shutdown = options.signal ?? new AbortController().signal;
  /** Long polls waiting now, per token. */
  const waiting = new Map<string, number>();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const app = new Hono<ControlPlaneAppEnv>();

  /** A client error: answered with its code and message, logged as one line (unless `logged` is false). */
  const refuse = (c: Context<ControlPlaneAppEnv>, status: 400 | 401 | 403 | 404 | 413 | 429, kind: string, code: string, message: string, field?: string, logged = true) => {
    if (logged) log(`[control-plane] request ${c.get('requestId')} ${c.req.method} ${c.req.path} → ${status} ${code}: ${oneLine(message)}`);
    return c.json({ error: { kind, code, message, ...(field === undefined ? {} : { field }), requestId: c.get('requestId') } }, status);
  };
  /** The remote addresses whose wrong tokens are answered 429 now (their first 429 was logged). */
  const throttled = new Set<string>();

  app.use('*', async (c, next) => {
    c.set('requestId', randomUUID());
    c.header('x-request-id', c.get('requestId'));
    await next();
  });
  app.onError((error, c) => {
    const requestId = c.get('requestId') ?? randomUUID();
    const wire = errorToWire(error, requestId);
    // A client's mistake (a bad input, a missing row, a lost lease) is one line; only a server error carries its stack.
    if (wire.status < 500) log(`[control-plane] request ${requestId} ${c.req.method} ${c.req.path} → ${wire.status} ${wire.body.error.code}: ${oneLine(wire.body.error.message)}`);
    else log(`[control-plane] request ${requestId} ${c.req.method} ${c.req.path} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return c.json(wire.body, wire.status as 500);
  });
  app.notFound((c) => refuse(c, 404, 'not_found', 'route_unknown', `No route ${c.req.method} ${c.req.path}; calls are POST /v1/<api>/<method>.`));

  if (options.dashboard === true) app.route('/', createDashboardRoutes({ authenticate: options.authenticate }));
  app.get('/v1/health', (c) => c.json({ ok: true }));
  let openApi: Record<string, unknown> | undefined;
  app.get('/v1/openapi.json', (c) => c.json((openApi ??= controlPlaneOpenApi())));

  const tokens = options.tokens;
  if (tokens !== undefined) {
    app.post('/v1/admin/tokens/:action', async (c) => {
      const principal = await options.authenticate(c.req.header('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1]);
      if (principal?.kind !== 'local') return refuse(c, 403, 'auth', 'forbidden', 'Tokens are managed only through the local socket or the database.');
      const read = await readJsonBody(c.req.raw, { maxBytes: 16 * 1024 });
      if ('refusal' in read) return refuse(c, read.refusal.status, read.refusal.status === 413 ? 'limit' : 'input', read.refusal.code, read.refusal.message, read.refusal.field);
      const body: { kind?: unknown; agentId?: unknown; label?: unknown; id?: unknown } = read.value;
      const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
      switch (c.req.param('action')) {
        case 'create':
          if (body.kind !== 'worker' && body.kind !== 'agent') return refuse(c, 400, 'input', 'input_invalid', 'kind must be "worker" or "agent".');
          return c.json({ result: await tokens.create({ kind: body.kind, agentId: text(body.agentId), label: text(body.label) }) });
        case 'list':
          return c.json({ result: await tokens.list() });
        case 'revoke':
          return c.json({ result: await tokens.revoke(text(body.id) ?? '') });
        default:
          return refuse(c, 404, 'not_found', 'route_unknown', 'Token actions are create, list and revoke.');
      }
    });
  }

  /**
   * The caller's principal, from its bearer token (or the dashboard's cookie, same-site only); else the refusal: 403
   * `cross_site`, 401, or 429 once an address sent too many wrong tokens.
   */
  const authenticateCall = async (c: Context<ControlPlaneAppEnv>): Promise<{ principal: Principal; token: string | undefined } | Response> => {
    const presented = requestToken(c.req.raw, { cookies: options.dashboard === true });
    if ('refusal' in presented) return refuse(c, 403, 'auth', 'cross_site', presented.refusal);
    const token = presented.token;
    const principal = await options.authenticate(token);
    if (principal === undefined) {
      // Wrong tokens are answered 401 up to a budget per remote address, then 429 (logged once until the budget is
      // back). A right token is never refused for what others at its address sent (behind a proxy they all share one).
      const address = remoteAddress(c);
      const waitMs = wrongTokens.take(address);
      if (waitMs > 0) {
        c.header('retry-after', String(Math.ceil(waitMs / 1000)));
        const first = !throttled.has(address);
        if (throttled.size >= 10_000) throttled.clear();
        throttled.add(address);
        return refuse(c, 429, 'limit', 'rate_limited', `Too many requests with a wrong or missing token from this address; retry in ${waitMs} ms.`, undefined, first);
      }
      throttled.delete(address);
      return refuse(c, 401, 'auth', 'unauthorized', token === undefined ? 'A bearer token is required (Authorization: Bearer <token>; see `ankole tokens create`).' : 'The bearer token is unknown or revoked.');
    }
    return { principal, token };
  };
  /** A token's share of the server: `undefined` when it may go on, else the 429 answer. */
  const rateLimited = (c: Context<ControlPlaneAppEnv>, key: string) => {
    const waitMs = limiter.take(key);
    if (waitMs <= 0) return undefined;
    c.header('retry-after', String(Math.ceil(waitMs / 1000)));
    return refuse(c, 429, 'limit', 'rate_limited', `Too many requests for this token; retry in ${waitMs} ms.`);
  };

  if (options.changes !== undefined) {
    const changes = options.changes;
    app.get('/v1/changes', async (c) => {
      const caller = await authenticateCall(c);
      if (caller instanceof Response) return caller;
      const { principal, token } = caller;
      const key = principal.kind === 'local' ? 'local' : principal.tokenId;
      const limited = rateLimited(c, key);
      if (limited !== undefined) return limited;
      const requested = c.req.query('agentId');
      if (requested !== undefined && requested.trim() === '') return refuse(c, 400, 'input', 'input_invalid', 'agentId must not be empty.', 'agentId');
      if (principal.kind === 'agent' && requested !== undefined && requested !== principal.agentId) {
        return refuse(c, 403, 'auth', 'agent_forbidden', `This token is for agent "${principal.agentId}" only.`);
      }
      // A stream is a long wait: it counts with the token's long polls.
      const count = waiting.get(key) ?? 0;
      if (count >= maxWaitersPerToken || shutdown.aborted) {
        c.header('retry-after', '5');
        return refuse(c, 429, 'limit', 'too_many_waiting', `This token already has ${maxWaitersPerToken} long polls and change streams open; close one first.`);
      }
      waiting.set(key, count + 1);
      const gone = callerGone(c);
      return streamChanges(c, {
        changes,
        agentId: principal.kind === 'agent' ? principal.agentId : requested,
        signal: AbortSignal.any([gone.signal, shutdown]),
        stillAllowed: async () => (await options.authenticate(token)) !== undefined,
        keepAliveMs: options.changeStreamKeepAliveMs ?? 15_000,
        maxDurationMs: options.changeStreamMaxMs ?? 10 * 60_000,
        onEnd: () => {
          gone.stop();
          const left = (waiting.get(key) ?? 1) - 1;
          if (left > 0) waiting.set(key, left);
          else waiting.delete(key);
        },
      });
    });
  }

  app.post('/v1/:api/:method', async (c) => {
    const caller = await authenticateCall(c);
    if (caller instanceof Response) return caller;
    const { principal } = caller;
    c.set('principal', principal);
    const key = principal.kind === 'local' ? 'local' : principal.tokenId;
    const limited = rateLimited(c, key);
    if (limited !== undefined) return limited;
    const name = `${c.req.param('api')}.${c.req.param('method')}`;
    const method = rpcMethod(name);
    if (method === undefined) return refuse(c, 404, 'not_found', 'method_unknown', `No control plane call named ${name}.`);
    // What one token may hold of the server at once (bodies being read and parsed, calls running) is bounded too.
    const slot = inFlight.enter(key);
    if (slot === undefined) {
      c.header('retry-after', '1');
      return refuse(c, 429, 'limit', 'too_many_in_flight', `This token already has ${maxInFlightPerToken} requests in progress; wait for one to finish.`);
    }
    try {
      const body = await readJsonBody(c.req.raw, { maxBytes: rpcBodyLimit(name, maxBodyBytes) });
      if ('refusal' in body) {
        // The rest of a body refused as it arrived is not read: close the connection rather than drain it.
        if (body.refusal.unread === true) c.header('connection', 'close');
        return refuse(c, body.refusal.status, body.refusal.status === 413 ? 'limit' : 'input', body.refusal.code, body.refusal.message, body.refusal.field);
      }
      let input: Record<string, unknown> = body.value;
      if (principal.kind === 'agent') {
        if (method.scope !== 'agent') return refuse(c, 403, 'auth', 'forbidden', `An agent token may not call ${name}; it needs a worker token.`);
        const requested = input.agentId;
        if (requested === undefined) input = { ...input, agentId: principal.agentId };
        else if (requested !== principal.agentId) return refuse(c, 403, 'auth', 'agent_forbidden', `This token is for agent "${principal.agentId}" only.`);
      }
      const [api, call] = name.split('.') as [keyof ControlPlaneClient, string];
      const fn = (options.client[api] as unknown as Record<string, (input: unknown, callOptions?: CallOptions) => Promise<unknown>>)[call]!;
      // Long polls (`waitMs`: claims and heartbeats) wait in the client on the database's notifications: bounded here
      // in length and in number per token (not in the in-flight count: they hold no body), and ended by the caller
      // going away or the server closing.
      const waitMs = input.waitMs;
      let result: unknown;
      if (typeof waitMs === 'number' && waitMs > 0) {
        slot.release();
        const count = waiting.get(key) ?? 0;
        const allowed = count < maxWaitersPerToken && !shutdown.aborted;
        if (allowed) waiting.set(key, count + 1);
        const gone = callerGone(c);
        try {
          result = await fn({ ...input, waitMs: allowed ? Math.min(waitMs, maxClaimWaitMs) : 0 }, { signal: AbortSignal.any([gone.signal, shutdown]) });
        } finally {
          gone.stop();
          if (allowed) {
            const left = (waiting.get(key) ?? 1) - 1;
            if (left > 0) waiting.set(key, left);
            else waiting.delete(key);
          }
        }
        const release = RELEASE_CLAIM[name];
        if (release !== undefined && result !== null && gone.signal.aborted) {
          // Claimed just as its caller went away: hand it back now rather than when its lease runs out.
          await release(options.client, result as { id: string; leaseToken: string });
          return c.body(null, 204);
        }
      } else {
        result = await fn(input);
      }
      // Every result is checked with the call's output schema before it is sent: a mismatch is a bug here, answered
      // 500 internal_error (ControlPlaneOutputError, logged with the path and the problem by onError). So is a result
      // nested deeper than MAX_OUTPUT_DEPTH (only data stored before inputs were bounded can be).
      // The depth first: the output schemas' JSON values are checked recursively.
      const tooDeep = findTooDeep(result, MAX_OUTPUT_DEPTH);
      if (tooDeep !== undefined) {
        throw new ControlPlaneOutputError(name, outputPath(tooDeep), `The result of ${name} nests objects and arrays deeper than ${MAX_OUTPUT_DEPTH} levels at ${outputPath(tooDeep.slice(0, 8))}….`);
      }
      return c.json({ result: parseOutput(method.output, result ?? null, name, 'this control plane') });
    } finally {
      slot.release();
    }
  });
  return app;
}

/**
 * Aborts when the caller's connection closes before the answer was sent (Node's response `close`; the request's own
 * signal as well where the adapter provides it), so a long poll nobody waits for stops.
 */
function callerGone(c: Context<ControlPlaneAppEnv>): { signal: AbortSignal; stop(): void } {
  const controller = new AbortController();
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  const onClose = () => {
    if (outgoing !== undefined && !outgoing.writableFinished) controller.abort(new Error('The caller went away.'));
  };
  outgoing?.once('close', onClose);
  // It may have closed already, while the body was read.
  if (outgoing !== undefined && (outgoing.closed || outgoing.socket?.destroyed === true)) onClose();
  return {
    signal: AbortSignal.any([controller.signal, c.req.raw.signal]),
    stop: () => outgoing?.off('close', onClose),
  };
}

/** The remote address of the request's connection (`local` for a Unix socket, or where the adapter gives none). */
function remoteAddress(c: Context<ControlPlaneAppEnv>): string {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket?.remoteAddress ?? 'local';
}

/** A message for a one-line log entry: control characters (a newline in a key a client sent) escaped as in JSON. */
function oneLine(message: string): string {
  return message.replace(/[\u0000-\u001f\u007f]/g, (character) => JSON.stringify(character).slice(1, -1));
}
