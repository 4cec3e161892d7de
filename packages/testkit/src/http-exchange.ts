import type { IncomingMessage, ServerResponse } from 'node:http';
import { invalidRequest, type ApiErrorBody } from './api-error.js';
import { generateId } from './generate-id.js';
import type { StepReply } from './step-reply.js';
import type { StreamEvent } from './stream-events.js';

/** One request being answered: its response, whether it is still open, and waits that end when it closes. */
export interface Exchange {
  response: ServerResponse;
  /** True once the client went away or the server is closing. */
  isClosed(): boolean;
  /** Resolves after `delayMs`, or early (to `false`) when the exchange closes. */
  wait(delayMs: number): Promise<boolean>;
}

export function headerRecord(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-request-id': generateId('req'),
    ...headers,
  });
  response.end(text);
}

/** 400s from the checks: the SDK must not retry them. */
export function sendInvalid(response: ServerResponse, body: ApiErrorBody): void {
  sendJson(response, 400, body, { 'x-should-retry': 'false' });
}

export function createExchange(response: ServerResponse, timers: Set<() => void>): Exchange {
  let closed = false;
  const waiters = new Set<() => void>();
  const onClose = () => {
    closed = true;
    for (const wake of waiters) wake();
  };
  response.on('close', onClose);
  return {
    response,
    isClosed: () => closed || response.destroyed,
    wait(delayMs) {
      if (closed) return Promise.resolve(false);
      if (delayMs <= 0) return Promise.resolve(true);
      return new Promise((resolve) => {
        const finish = (completed: boolean) => {
          clearTimeout(timer);
          waiters.delete(wake);
          timers.delete(wake);
          resolve(completed);
        };
        const wake = () => finish(false);
        const timer = setTimeout(() => finish(true), delayMs);
        waiters.add(wake);
        timers.add(wake);
      });
    },
  };
}

export async function writeStream(exchange: Exchange, events: StreamEvent[], step: StepReply): Promise<void> {
  const { response } = exchange;
  const delayMs = step.delayMs ?? 0;
  if (exchange.isClosed()) return;
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': generateId('req'),
  });
  response.flushHeaders();
  for (const [sequenceNumber, event] of events.entries()) {
    if (step.cutAfterEvents !== undefined && sequenceNumber >= step.cutAfterEvents) {
      response.socket?.destroy();
      return;
    }
    if (sequenceNumber > 0 && !(await exchange.wait(delayMs))) return;
    if (exchange.isClosed()) return;
    const data = JSON.stringify({ ...event, sequence_number: sequenceNumber });
    const frame = `event: ${event.type}\ndata: ${data}\n\n`;
    // A stream that will be cut waits for each frame to reach the socket, so the cut loses nothing already "sent".
    if (step.cutAfterEvents === undefined) response.write(frame);
    else await new Promise<void>((resolve) => response.write(frame, () => resolve()));
  }
  if (step.cutAfterEvents !== undefined && step.cutAfterEvents < events.length) {
    response.socket?.destroy();
    return;
  }
  response.end();
}

export async function writeJson(exchange: Exchange, status: number, body: unknown, step: StepReply, headers: Record<string, string> = {}): Promise<void> {
  if (!(await exchange.wait(step.delayMs ?? 0))) return;
  if (step.cutAfterEvents !== undefined) {
    const text = JSON.stringify(body);
    exchange.response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    exchange.response.write(text.slice(0, Math.floor(text.length / 2)), () => exchange.response.socket?.destroy());
    return;
  }
  sendJson(exchange.response, status, body, headers);
}
