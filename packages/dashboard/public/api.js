// Calls to the control plane, signed in by the session cookie (HttpOnly: this script never sees the token).
// Every request carries the dashboard header: the server refuses cookie-signed calls without it (cross-site requests).

/** A refused call: its HTTP status, the server's error code and message. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const HEADERS = { 'content-type': 'application/json', 'x-ankole-dashboard': '1' };

async function send(method, path, body) {
  const response = await fetch(path, { method, headers: HEADERS, credentials: 'same-origin', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const answer = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, answer?.error?.code ?? 'http_error', answer?.error?.message ?? `HTTP ${response.status}`);
  return answer?.result ?? null;
}

/** `rpc('jobs.list', { agentId })`: one control plane call (`POST /v1/<api>/<method>`). */
export function rpc(name, input) {
  const [api, method] = name.split('.');
  return send('POST', `/v1/${api}/${method}`, input);
}

/** Who is signed in (`{ kind, agentId }`), or `null`. */
export async function currentSession() {
  try {
    return await send('GET', '/dashboard/session');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** Signs in with a token (kept by the browser in an HttpOnly cookie). */
export function signIn(token) {
  return send('POST', '/dashboard/session', { token });
}

export function signOut() {
  return send('POST', '/dashboard/session/end');
}
