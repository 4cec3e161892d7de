/** The header every request of the dashboard carries; a page of another site cannot send it without a CORS preflight, which is never allowed. */
export const DASHBOARD_HEADER = 'x-ankole-dashboard';

/**
 * Why a request authenticated by the session cookie (or signing in) may come from another site, or `undefined` when it
 * surely comes from the dashboard itself: it must carry `x-ankole-dashboard: 1` (a custom header: another site's
 * page would need a preflight this server never grants), and, when the browser sends them, `Sec-Fetch-Site` must be
 * `same-origin` and `Origin` must name this host.
 */
export function crossSiteRefusal(request: Request): string | undefined {
  if (request.headers.get(DASHBOARD_HEADER) !== '1') {
    return `A request signed in with the dashboard's cookie must carry the header ${DASHBOARD_HEADER}: 1 (or use Authorization: Bearer <token> instead).`;
  }
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin') return `A request from another site (Sec-Fetch-Site: ${site}) may not use the dashboard's cookie.`;
  const origin = request.headers.get('origin');
  if (origin !== null) {
    const host = request.headers.get('host') ?? new URL(request.url).host;
    let originHost: string | undefined;
    try {
      originHost = new URL(origin).host;
    } catch {
      originHost = undefined;
    }
    if (originHost !== host) return `A request from another origin (${origin.slice(0, 200)}) may not use the dashboard's cookie.`;
  }
  return undefined;
}
