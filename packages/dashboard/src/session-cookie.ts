/** The name of the dashboard's session cookie: it holds the control plane token the person signed in with. */
export const SESSION_COOKIE = 'ankole_session';

/**
 * The `Set-Cookie` value that keeps `token` for this site: `HttpOnly` (the page's scripts never see it), `SameSite=Strict`
 * (no other site's page sends it), `Path=/`, `Secure` over HTTPS; a session cookie (gone when the browser closes).
 */
export function sessionCookie(token: string, options: { secure: boolean }): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict${options.secure ? '; Secure' : ''}`;
}

/** The `Set-Cookie` value that removes the session cookie (signing out). */
export function clearedSessionCookie(options: { secure: boolean }): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${options.secure ? '; Secure' : ''}`;
}

/** The token in a request's `Cookie` header, or `undefined` when it has no session cookie. */
export function readSessionCookie(header: string | null | undefined): string | undefined {
  if (header === null || header === undefined) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(separator + 1).trim();
    return value === '' ? undefined : value;
  }
  return undefined;
}
