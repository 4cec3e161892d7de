import type { IncomingMessage } from 'node:http';
import type { ControlPlaneChange, ControlPlaneChangeEvent } from './control-plane-changes.js';

/** Waits before connecting again after the stream dropped or was refused, in ms: 1 s, 2 s, 5 s, then every 15 s. */
const RETRY_MS = [1000, 2000, 5000, 15000];

/**
 * Reads a control plane's change stream (`GET /v1/changes`, server-sent events) until `stop()`: `listener` hears each
 * `change`, and `gap` each time the stream connected again (changes may have been missed meanwhile) or the server said
 * so. `ready` resolves once the first stream said `ready`, or once the first try failed (a server without the stream,
 * an unreachable one): it keeps trying, and a later `ready` is a `gap`. `open` makes one request (aborted by its signal).
 */
export function followChangeStream(open: (signal: AbortSignal) => Promise<IncomingMessage>, listener: (event: ControlPlaneChangeEvent) => void): { ready: Promise<void>; stop(): void } {
  const controller = new AbortController();
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  let connectedBefore = false;

  async function readOnce(): Promise<boolean> {
    let said = false;
    try {
      const response = await open(controller.signal);
      if (response.statusCode !== 200) {
        response.resume();
        return false;
      }
      response.setEncoding('utf8');
      let buffer = '';
      for await (const chunk of response as AsyncIterable<string>) {
        buffer += chunk.replace(/\r\n?/g, '\n');
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const event = parseServerSentEvent(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (event?.name === 'ready') {
            said = true;
            if (connectedBefore) listener({ kind: 'gap' });
            connectedBefore = true;
            markReady();
          } else if (event?.name === 'gap') listener({ kind: 'gap' });
          else if (event?.name === 'change' && isChange(event.data)) listener(event.data);
        }
      }
    } catch {
      // Dropped, refused or stopped: try again below unless stopped.
    }
    return said;
  }

  void (async () => {
    for (let failures = 0; !controller.signal.aborted; ) {
      const connected = await readOnce();
      markReady();
      failures = connected ? 0 : failures + 1;
      if (controller.signal.aborted) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]);
        controller.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    }
  })();
  return { ready, stop: () => controller.abort() };
}

/** One event block of a `text/event-stream`: its name and JSON data, or `undefined` (a comment, or data that is not JSON). */
function parseServerSentEvent(block: string): { name: string; data: unknown } | undefined {
  let name = 'message';
  const data: string[] = [];
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

function isChange(value: unknown): value is ControlPlaneChange {
  const change = value as Partial<ControlPlaneChange> | null;
  return typeof change === 'object' && change !== null && typeof change.kind === 'string' && typeof change.id === 'string' && typeof change.agentId === 'string';
}
