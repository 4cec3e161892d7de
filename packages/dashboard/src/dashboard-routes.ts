import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { crossSiteRefusal } from './cross-site-check.js';
import { loadDashboardAssets, type DashboardAsset } from './dashboard-assets.js';
import { clearedSessionCookie, readSessionCookie, sessionCookie } from './session-cookie.js';
import { createSignInLimiter, type SignInLimiter } from './sign-in-limiter.js';

/** Who a token stands for, as the control plane server's `authenticate` answers (only `kind` and `agentId` are read). */
export type DashboardPrincipal = { kind: string; agentId?: string | undefined };

/** Options of `createDashboardRoutes`. */
export interface DashboardRoutesOptions {
  /** The server's own token check (`createAccessTokens(...).verify`): `undefined` for an unknown or revoked token. */
  authenticate(token: string | undefined): Promise<DashboardPrincipal | undefined> | DashboardPrincipal | undefined;
  /** The web app's files (default: `loadDashboardAssets()`, read at the first request). */
  assets?: Map<string, DashboardAsset> | undefined;
  /** Sign-in attempts allowed per remote address (default `createSignInLimiter()`: bursts of 10, then one a second); more get 429. */
  signInLimiter?: SignInLimiter | undefined;
}

/** What every page and file of the dashboard is sent with: only this origin's scripts, styles and calls; never framed. */
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * The dashboard's routes, to mount on the control plane app: `GET /` (the web app; nothing secret in it), `GET
 * /dashboard/<file>` (its scripts and styles, gzipped for browsers that take it, with ETags), and the session: `POST
 * /dashboard/session` `{ token }` signs in (the token is checked with `authenticate`, then kept in an HttpOnly,
 * SameSite=Strict cookie; 401 `unauthorized` for a wrong one), `GET /dashboard/session` says who is signed in (`{
 * kind, agentId }` or 401; at most `signInLimiter` attempts per address, then 429), `POST /dashboard/session/end` signs out. Signing in and out are refused 403 `cross_site`
 * unless `crossSiteRefusal` finds the request same-site; the calls themselves use the server's `POST /v1/<api>/<method>`
 * with the cookie (`requestToken`).
 */
export function createDashboardRoutes(options: DashboardRoutesOptions): Hono {
  const app = new Hono();
  let assets = options.assets;
  const signIns = options.signInLimiter ?? createSignInLimiter();
  const secure = (c: Context) => new URL(c.req.url).protocol === 'https:' || c.req.header('x-forwarded-proto') === 'https';
  const refuse = (c: Context, status: 401 | 403 | 404 | 413 | 429, code: string, message: string) =>
    c.json({ error: { kind: status === 404 ? 'not_found' : status === 429 || status === 413 ? 'limit' : 'auth', code, message } }, status);

  const send = (c: Context, name: string) => {
    assets ??= loadDashboardAssets();
    const asset = assets.get(name);
    if (asset === undefined) return refuse(c, 404, 'route_unknown', `The dashboard has no file ${name}.`);
    const headers: Record<string, string> = { ...SECURITY_HEADERS, 'content-type': asset.type, etag: asset.etag, 'cache-control': 'no-cache', vary: 'accept-encoding' };
    if (c.req.header('if-none-match') === asset.etag) return c.body(null, 304, headers);
    const gzip = /\bgzip\b/.test(c.req.header('accept-encoding') ?? '');
    if (gzip) headers['content-encoding'] = 'gzip';
    return c.body((gzip ? asset.gzipped : asset.body) as Uint8Array<ArrayBuffer>, 200, headers);
  };

  app.get('/', (c) => send(c, 'index.html'));
  app.get('/dashboard/session', async (c) => {
    const token = readSessionCookie(c.req.header('cookie'));
    const principal = token === undefined ? undefined : await options.authenticate(token);
    if (principal === undefined) return refuse(c, 401, 'unauthorized', 'Not signed in.');
    return c.json({ result: { kind: principal.kind, agentId: principal.agentId ?? null } });
  });
  app.post('/dashboard/session', bodyLimit({ maxSize: 4096, onError: (c) => refuse(c, 413, 'body_too_large', 'The sign-in body is too large.') }), async (c) => {
    const refusal = crossSiteRefusal(c.req.raw);
    if (refusal !== undefined) return refuse(c, 403, 'cross_site', refusal);
    const waitMs = signIns.take(remoteAddress(c));
    if (waitMs > 0) {
      c.header('retry-after', String(Math.ceil(waitMs / 1000)));
      return refuse(c, 429, 'rate_limited', `Too many sign-ins from this address; retry in ${Math.ceil(waitMs / 1000)} s.`);
    }
    const body = (await c.req.json().catch(() => undefined)) as { token?: unknown } | undefined;
    const token = typeof body?.token === 'string' ? body.token.trim() : '';
    const principal = token === '' ? undefined : await options.authenticate(token);
    if (principal === undefined || principal.kind === 'local') return refuse(c, 401, 'unauthorized', 'The token is unknown or revoked (make one with `ankole tokens create`).');
    c.header('set-cookie', sessionCookie(token, { secure: secure(c) }));
    c.header('cache-control', 'no-store');
    return c.json({ result: { kind: principal.kind, agentId: principal.agentId ?? null } });
  });
  app.post('/dashboard/session/end', (c) => {
    const refusal = crossSiteRefusal(c.req.raw);
    if (refusal !== undefined) return refuse(c, 403, 'cross_site', refusal);
    c.header('set-cookie', clearedSessionCookie({ secure: secure(c) }));
    return c.json({ result: { signedOut: true } });
  });
  app.get('/dashboard/:path{.+}', (c) => send(c, c.req.param('path')));
  return app;
}

/** The request's remote address, as `@hono/node-server` gives it (`local` without one). */
function remoteAddress(c: Context): string {
  return (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress ?? 'local';
}
