import { crossSiteRefusal } from './cross-site-check.js';
import { readSessionCookie } from './session-cookie.js';

/** The token a control plane call presents, and how; or why it is refused before its token is looked at. */
export type RequestToken = { token: string | undefined; via: 'bearer' | 'cookie' | 'none' } | { refusal: string };

/**
 * The token of a control plane call: `Authorization: Bearer <token>` first; else, when `cookies` is on (the server
 * serves the dashboard), the dashboard's session cookie, but only for a request `crossSiteRefusal` finds same-site
 * (otherwise `{ refusal }`: the server answers 403 `cross_site`, whatever the call).
 */
export function requestToken(request: Request, options: { cookies: boolean }): RequestToken {
  const bearer = request.headers.get('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (bearer !== undefined) return { token: bearer, via: 'bearer' };
  const cookie = options.cookies ? readSessionCookie(request.headers.get('cookie')) : undefined;
  if (cookie === undefined) return { token: undefined, via: 'none' };
  const refusal = crossSiteRefusal(request);
  return refusal === undefined ? { token: cookie, via: 'cookie' } : { refusal };
}
