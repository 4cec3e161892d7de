import { describe, expect, it } from 'vitest';
import { createDashboardRoutes } from './dashboard-routes.js';
import { requestToken } from './request-token.js';
import { createSignInLimiter } from './sign-in-limiter.js';

const TOKEN = 'ank_right';
const app = createDashboardRoutes({ authenticate: (token) => (token === TOKEN ? { kind: 'agent', agentId: 'a' } : undefined) });
const SAME_SITE = { 'content-type': 'application/json', 'x-ankole-dashboard': '1', 'sec-fetch-site': 'same-origin', origin: 'http://127.0.0.1:7070', host: '127.0.0.1:7070' };

describe('the dashboard routes', () => {
  it('serves the app with a strict content security policy, and nothing secret in it', async () => {
    const response = await app.request('http://127.0.0.1:7070/', { headers: { 'accept-encoding': 'identity' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const page = await response.text();
    expect(page).toContain('<script type="module" src="/dashboard/app.js">');
    expect(page).not.toMatch(/ank_/);
  });

  it('sends its files gzipped to browsers that take gzip, and answers 304 to a matching ETag', async () => {
    const first = await app.request('http://127.0.0.1:7070/dashboard/app.js', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(first.headers.get('content-encoding')).toBe('gzip');
    expect(first.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const again = await app.request('http://127.0.0.1:7070/dashboard/app.js', { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect((await app.request('http://127.0.0.1:7070/dashboard/../package.json')).status).toBe(404);
  });

  it('signs in with a right token into an HttpOnly, SameSite=Strict cookie, and refuses a wrong token', async () => {
    const wrong = await app.request('http://127.0.0.1:7070/dashboard/session', { method: 'POST', headers: SAME_SITE, body: JSON.stringify({ token: 'ank_wrong' }) });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    const right = await app.request('http://127.0.0.1:7070/dashboard/session', { method: 'POST', headers: SAME_SITE, body: JSON.stringify({ token: TOKEN }) });
    expect(await right.json()).toEqual({ result: { kind: 'agent', agentId: 'a' } });
    expect(right.headers.get('set-cookie')).toBe(`ankole_session=${TOKEN}; Path=/; HttpOnly; SameSite=Strict`);
    const who = await app.request('http://127.0.0.1:7070/dashboard/session', { headers: { cookie: `other=1; ankole_session=${TOKEN}` } });
    expect(await who.json()).toEqual({ result: { kind: 'agent', agentId: 'a' } });
  });

  it('refuses to sign in from another site, or without the dashboard header', async () => {
    const attempts = [
      { ...SAME_SITE, 'sec-fetch-site': 'cross-site' },
      { ...SAME_SITE, 'sec-fetch-site': 'same-site' },
      { ...SAME_SITE, origin: 'http://127.0.0.1:9999' },
      { 'content-type': 'application/json', host: '127.0.0.1:7070' },
    ];
    for (const headers of attempts) {
      const response = await app.request('http://127.0.0.1:7070/dashboard/session', { method: 'POST', headers, body: JSON.stringify({ token: TOKEN }) });
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('cross_site');
    }
  });
});

describe('signing in, many times', () => {
  it('answers 429 past the sign-in budget of an address, right token or not', async () => {
    const limited = createDashboardRoutes({ authenticate: () => undefined, signInLimiter: createSignInLimiter({ burst: 3, perSecond: 0.001 }) });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await limited.request('http://127.0.0.1:7070/dashboard/session', { method: 'POST', headers: SAME_SITE, body: JSON.stringify({ token: `ank_${attempt}` }) });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });
});

describe('requestToken', () => {
  const request = (headers: Record<string, string>) => new Request('http://127.0.0.1:7070/v1/jobs/list', { method: 'POST', headers });

  it('takes a bearer token first, and the cookie only when the server serves the dashboard', () => {
    expect(requestToken(request({ authorization: 'Bearer ank_x', cookie: 'ankole_session=ank_y' }), { cookies: true })).toEqual({ token: 'ank_x', via: 'bearer' });
    expect(requestToken(request({ cookie: 'ankole_session=ank_y', 'x-ankole-dashboard': '1' }), { cookies: false })).toEqual({ token: undefined, via: 'none' });
    expect(requestToken(request({ cookie: 'ankole_session=ank_y', 'x-ankole-dashboard': '1', 'sec-fetch-site': 'same-origin' }), { cookies: true })).toEqual({ token: 'ank_y', via: 'cookie' });
  });

  it('refuses a cookie-signed call without the dashboard header or from another site', () => {
    expect(requestToken(request({ cookie: 'ankole_session=ank_y' }), { cookies: true })).toHaveProperty('refusal');
    expect(requestToken(request({ cookie: 'ankole_session=ank_y', 'x-ankole-dashboard': '1', 'sec-fetch-site': 'same-site' }), { cookies: true })).toHaveProperty('refusal');
    expect(requestToken(request({ cookie: 'ankole_session=ank_y', 'x-ankole-dashboard': '1', origin: 'https://evil.example', host: '127.0.0.1:7070' }), { cookies: true })).toHaveProperty('refusal');
  });
});
