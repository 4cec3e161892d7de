// The control plane's change stream (`GET /v1/changes`, server-sent events), read with fetch so that the request
// carries the dashboard header (the server refuses cookie-signed requests without it) and the cookie, never the token.

const RETRY_MS = [1000, 2000, 5000, 10000, 15000];

/**
 * Listens to the changes of `agentId` until `stop()` is called: `onChange(change)` for each change, `onReady()` each
 * time the stream (re)connected or may have missed changes (read everything again then), `onState(live)` when it
 * connects or drops, `onUnauthorized()` when the session ended. Reconnects after a drop, waiting longer each time.
 */
export function watchChanges({ agentId, onChange, onReady, onState, onUnauthorized }) {
  let stopped = false;
  let controller;
  let failures = 0;
  let retryTimer;

  async function connect() {
    controller = new AbortController();
    let live = false;
    try {
      const response = await fetch(`/v1/changes?agentId=${encodeURIComponent(agentId)}`, {
        headers: { 'x-ankole-dashboard': '1', accept: 'text/event-stream' },
        credentials: 'same-origin',
        signal: controller.signal,
      });
      if (response.status === 401) return onUnauthorized();
      if (!response.ok || response.body === null) throw new Error(`HTTP ${response.status}`);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value.replace(/\r\n?/g, '\n');
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = parseEvent(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (event === undefined) continue;
          if (event.name === 'ready' || event.name === 'gap') {
            if (!live) onState(true);
            live = true;
            failures = 0;
            onReady();
          } else if (event.name === 'change') onChange(event.data);
        }
      }
    } catch {
      // A drop, a refused stream or a server without one: read again below, and try later.
    }
    if (live) onState(false);
    if (stopped) return;
    const wait = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)];
    failures += 1;
    retryTimer = setTimeout(connect, wait);
  }

  connect();
  return {
    stop() {
      stopped = true;
      clearTimeout(retryTimer);
      controller?.abort();
    },
  };
}

/** One server-sent event block: `{ name, data }`, or `undefined` for a comment (keep-alive) or something unreadable. */
function parseEvent(block) {
  let name = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return undefined;
  try {
    return { name, data: JSON.parse(data.join('\n')) };
  } catch {
    return undefined;
  }
}
