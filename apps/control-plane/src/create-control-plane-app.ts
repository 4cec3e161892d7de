import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { errorToWire, parseOutput, rpcMethod, type CallOptions, type ControlPlaneClient } from '@core/control-plane';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AccessTokens, Principal } from './access-tokens.js';
import { controlPlaneOpenApi } from './openapi-document.js';
import { createRateLimiter } from './rate-limiter.js';

/** Options of `createControlPlaneApp`. */
export interface ControlPlaneAppOptions {
  /** The in-process client every request is answered with. */
  client: ControlPlaneClient;
  /** Who a bearer token stands for (`undefined`: refused with 401); `createAccessTokens(...).verify`, or `() => ({ kind: 'local' })` for the local socket. */
  authenticate(token: string | undefined): Promise<Principal | undefined> | Principal | undefined;
  /** Largest request body, in bytes (default 8 MiB); larger ones get 413. */
  maxBodyBytes?: number | undefined;
  /** Requests a second per token on average (default 200), bursts up to `rateBurst` (default 400); more get 429. */
  ratePerSecond?: number | undefined;
  rateBurst?: number | undefined;
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
  /** Where a server error's details go, with its request id (default: standard error). */
  log?: ((line: string) => void) | undefined;
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
 * object, answered `200 { result }` (the result checked with the call's output schema first) or `{ error: WireError }` with 400 (invalid body or input), 401 (no or unknown
 * token), 403 (a call the token may not make, or another agent's id), 404 (unknown call, or no such row),
 * 409 (conflict), 413 (body too large), 429 (rate limit, with Retry-After) or 500 (`internal_error` and the request
 * id; the details only in `log`). An agent token's calls are for its agent: a missing `agentId` is set to it.
 */
export function createControlPlaneApp(options: ControlPlaneAppOptions): Hono<ControlPlaneAppEnv> {
  const maxBodyBytes = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const limiter = createRateLimiter({ perSecond: options.ratePerSecond ?? 200, burst: options.rateBurst ?? 400 });
  const maxClaimWaitMs = options.maxClaimWaitMs ?? 30_000;
  const maxWaitersPerToken = options.maxWaitersPerToken ?? 32;
  const shutdown = options.signal ?? new AbortController().signal;
  /** Long polls waiting now, per token. */
  const waiting = new Map<string, number>();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const app = new Hono<ControlPlaneAppEnv>();

  const refuse = (c: Context<ControlPlaneAppEnv>, status: 400 | 401 | 403 | 404 | 413 | 429, kind: string, code: string, message: string) =>
    c.json({ error: { kind, code, message, requestId: c.get('requestId') } }, status);

  app.use('*', async (c, next) => {
    c.set('requestId', randomUUID());
    c.header('x-request-id', c.get('requestId'));
    await next();
  });
  app.onError((error, c) => {
    const requestId = c.get('requestId') ?? randomUUID();
    log(`[control-plane] request ${requestId} ${c.req.method} ${c.req.path} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    const wire = errorToWire(error, requestId);
    return c.json(wire.body, wire.status as 500);
  });
  app.notFound((c) => refuse(c, 404, 'not_found', 'route_unknown', `No route ${c.req.method} ${c.req.path}; calls are POST /v1/<api>/<method>.`));

  app.get('/v1/health', (c) => c.json({ ok: true }));
  let openApi: Record<string, unknown> | undefined;
  app.get('/v1/openapi.json', (c) => c.json((openApi ??= controlPlaneOpenApi())));

  const tokens = options.tokens;
  if (tokens !== undefined) {
    app.post('/v1/admin/tokens/:action', bodyLimit({ maxSize: 64 * 1024, onError: (c) => refuse(c, 413, 'limit', 'body_too_large', 'The request body is too large.') }), async (c) => {
      const principal = await options.authenticate(c.req.header('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1]);
      if (principal?.kind !== 'local') return refuse(c, 403, 'auth', 'forbidden', 'Tokens are managed only through the local socket or the database.');
      let body: { kind?: unknown; agentId?: unknown; label?: unknown; id?: unknown };
      try {
        body = (JSON.parse(await c.req.text()) ?? {}) as typeof body;
      } catch {
        return refuse(c, 400, 'input', 'body_invalid', 'The request body is not valid JSON.');
      }
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

  app.post(
    '/v1/:api/:method',
    async (c, next) => {
      const header = c.req.header('authorization');
      const token = header?.match(/^Bearer\s+(\S+)$/i)?.[1];
      const principal = await options.authenticate(token);
      if (principal === undefined) {
        return refuse(c, 401, 'auth', 'unauthorized', token === undefined ? 'A bearer token is required (Authorization: Bearer <token>; see `ankole tokens create`).' : 'The bearer token is unknown or revoked.');
      }
      c.set('principal', principal);
      const waitMs = limiter.take(principal.kind === 'local' ? 'local' : principal.tokenId);
      if (waitMs > 0) {
        c.header('retry-after', String(Math.ceil(waitMs / 1000)));
        return refuse(c, 429, 'limit', 'rate_limited', `Too many requests for this token; retry in ${waitMs} ms.`);
      }
      await next();
    },
    bodyLimit({
      maxSize: maxBodyBytes,
      onError: (c) => refuse(c, 413, 'limit', 'body_too_large', `The request body is larger than ${maxBodyBytes} bytes.`),
    }),
    async (c) => {
      const name = `${c.req.param('api')}.${c.req.param('method')}`;
      const method = rpcMethod(name);
      if (method === undefined) return refuse(c, 404, 'not_found', 'method_unknown', `No control plane call named ${name}.`);
      const principal = c.get('principal');
      let input: unknown;
      try {
        input = JSON.parse(await c.req.text());
      } catch {
        return refuse(c, 400, 'input', 'body_invalid', 'The request body is not valid JSON.');
      }
      if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        return refuse(c, 400, 'input', 'body_invalid', 'The request body must be a JSON object (the call\'s input).');
      }
      if (principal.kind === 'agent') {
        if (method.scope !== 'agent') return refuse(c, 403, 'auth', 'forbidden', `An agent token may not call ${name}; it needs a worker token.`);
        const requested = (input as { agentId?: unknown }).agentId;
        if (requested === undefined) input = { ...input, agentId: principal.agentId };
        else if (requested !== principal.agentId) return refuse(c, 403, 'auth', 'agent_forbidden', `This token is for agent "${principal.agentId}" only.`);
      }
      const [api, call] = name.split('.') as [keyof ControlPlaneClient, string];
      const fn = (options.client[api] as unknown as Record<string, (input: unknown, callOptions?: CallOptions) => Promise<unknown>>)[call]!;
      // Long polls (`waitMs`: claims and heartbeats) wait in the client on the database's notifications: bounded here
      // in length and in number per token, and ended by the caller going away or the server closing.
      const waitMs = (input as { waitMs?: unknown }).waitMs;
      let result: unknown;
      if (typeof waitMs === 'number' && waitMs > 0) {
        const key = principal.kind === 'local' ? 'local' : principal.tokenId;
        const count = waiting.get(key) ?? 0;
        const allowed = count < maxWaitersPerToken && !shutdown.aborted;
        if (allowed) waiting.set(key, count + 1);
        const gone = callerGone(c);
        try {
          result = await fn({ ...(input as Record<string, unknown>), waitMs: allowed ? Math.min(waitMs, maxClaimWaitMs) : 0 }, { signal: AbortSignal.any([gone.signal, shutdown]) });
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
      // 500 internal_error (ControlPlaneOutputError, logged with the path and the problem by onError).
      return c.json({ result: parseOutput(method.output, result ?? null, name, 'this control plane') });
    },
  );
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
