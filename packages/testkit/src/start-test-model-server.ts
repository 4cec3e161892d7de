import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { invalidRequest } from './api-error.js';
import { buildResponse, type ResponseObject } from './build-response.js';
import { checkItemReferences } from './check-item-references.js';
import { checkRequestSemantics } from './check-request-semantics.js';
import { compactionItem, inputItems } from './compact-input.js';
import { answerCompact, answerInputTokens, contextItems, type StoredContexts } from './context-endpoints.js';
import { contextLengthExceeded, estimateTokens } from './context-window.js';
import { sharedResponsesRequestValidator } from './create-responses-request-validator.js';
import { createRequestValidator, type RequestValidator } from './request-validator.js';
import type { CaptureStepReply, RecordedRequest, ScriptStep, StepReply } from './step-reply.js';
import { errorStreamEvents, responseStreamEvents } from './stream-events.js';
import { TestkitError } from './testkit-error.js';
import { createExchange, type Exchange, headerRecord, parseJson, readBody, sendInvalid, sendJson, writeJson, writeStream } from './http-exchange.js';

/** Options of `startTestModelServer`. */
export interface TestModelServerOptions {
  /** Replies, consumed one per accepted `POST /v1/responses` (requests rejected by the checks consume none). */
  script?: ScriptStep[];
  /**
   * Also validate every request body against `#/components/schemas/CreateResponse` of this OpenAPI file (the
   * testkit's own description of the request is always checked).
   */
  openapiPath?: string;
  /** A validator compiled once with `createRequestValidator` and shared between servers (wins over `openapiPath`). */
  requestValidator?: RequestValidator;
  /** What to answer once the script is used up: `'error'` (default: a 400 that the SDK does not retry) or a step. */
  onExhausted?: 'error' | ScriptStep;
  /** Model name reported in responses (default: the request's `model`). */
  model?: string;
  /**
   * Check each request body against the testkit's own description of `CreateResponse` (default true). A
   * program that is not a test (the CLI's offline demo) can turn it off: compiling that schema costs more
   * than the rest of a short scripted turn. `openapiPath`, `requestValidator` and `checkRequestSemantics` still apply.
   */
  checkRequestSchema?: boolean;
  /**
   * The model's context window in tokens (counted as characters / 4 of the request's `input` and `instructions`,
   * plus the stored context a `previous_response_id` continues). A `POST /v1/responses` over it gets the API's 400
   * `context_length_exceeded` (no step consumed), and every response reports that count as `usage.input_tokens`.
   * Default: no window.
   */
  contextWindow?: number;
  /** Answer `POST /v1/responses/compact` (default true); `false` answers 404 as a server without it does. */
  compactEndpoint?: boolean;
  /** Answer `POST /v1/responses/input_tokens` (default true); `false` answers 404 as a server without it does. */
  inputTokensEndpoint?: boolean;
}

/** A running test model server. */
export interface TestModelServer {
  /** `http://127.0.0.1:<port>/v1`, the `baseURL` for the `openai` SDK. */
  readonly baseURL: string;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every request received, in arrival order, including rejected ones. */
  readonly requests: RecordedRequest[];
  /** How many script steps have not been used yet. */
  readonly remaining: number;
  /** How many replies are being written right now (a slow stream counts until it ends or its client leaves). */
  readonly activeReplies: number;
  /** Stops the server and destroys every open connection; resolves once it is closed. */
  close(): Promise<void>;
}

/** The Response a capture ends with; its `output` from the `response.output_item.done` events when it has none. */
function capturedResponse(step: CaptureStepReply): ResponseObject | undefined {
  let terminal: ResponseObject | undefined;
  const done: Array<[number, Record<string, unknown>]> = [];
  for (const event of step.events) {
    if (event.type === 'response.output_item.done' && typeof event.item === 'object' && event.item !== null) {
      done.push([Number(event.output_index ?? done.length), event.item as Record<string, unknown>]);
    } else if (['response.completed', 'response.incomplete', 'response.failed'].includes(event.type)) {
      terminal = event.response as ResponseObject;
    }
  }
  if (terminal === undefined) return undefined;
  const output = Array.isArray(terminal.output) && terminal.output.length > 0 ? terminal.output : done.sort(([left], [right]) => left - right).map(([, item]) => item);
  return { ...terminal, output };
}

interface Served {
  /** The id of the Response sent, if one was. */
  responseId?: string;
  /** Its output items (an error or a cut-off capture sends none). */
  output: Array<Record<string, unknown>>;
}

/** Serves one step; returns the Response's id and the output items it sent. */
async function serveStep(exchange: Exchange, step: StepReply, body: Record<string, unknown>, model: string | undefined, inputTokens: number | undefined): Promise<Served> {
  if (step.kind === 'http-error') {
    await writeJson(exchange, step.status, { error: step.error }, step, step.headers);
    return { output: [] };
  }
  const streaming = body.stream === true;
  if (step.kind === 'capture') {
    const response = capturedResponse(step);
    if (streaming) await writeStream(exchange, step.events, step);
    else if (response !== undefined) await writeJson(exchange, 200, response, step);
    else await writeJson(exchange, 500, { error: { message: 'testkit: the capture has no terminal event to answer a request without stream.', type: 'server_error', param: null, code: 'testkit_capture_incomplete' } }, step, { 'x-should-retry': 'false' });
    return { ...(response ? { responseId: response.id } : {}), output: response?.output ?? [] };
  }
  if (step.kind === 'error-event') {
    const response = buildResponse({ step: { kind: 'response', status: 'failed', output: [], ...(step.model ? { model: step.model } : {}) }, body, ...(model ? { model } : {}) });
    if (!streaming) {
      const error = { message: step.message, type: 'server_error', param: step.param, code: step.code };
      await writeJson(exchange, 500, { error }, step, { 'x-should-retry': 'false' });
      return { output: [] };
    }
    await writeStream(exchange, errorStreamEvents(response, step), step);
    return { output: [] };
  }
  const response: ResponseObject = buildResponse({ step, body, ...(model ? { model } : {}), ...(inputTokens === undefined ? {} : { inputTokens }) });
  if (streaming) await writeStream(exchange, responseStreamEvents(response), step);
  else await writeJson(exchange, 200, response, step);
  return { responseId: response.id, output: response.output };
}

/** The `compact_threshold` of a `context_management: [{ type: 'compaction', compact_threshold }]` entry, if any. */
function compactThreshold(body: Record<string, unknown>): number | undefined {
  if (!Array.isArray(body.context_management)) return undefined;
  for (const entry of body.context_management as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { type, compact_threshold: threshold } = entry as Record<string, unknown>;
    if (type === 'compaction' && typeof threshold === 'number') return threshold;
  }
  return undefined;
}

/**
 * Starts a Responses-API-compatible server on 127.0.0.1 (random port) that answers `POST /v1/responses`
 * from a script, as JSON or as an SSE stream (`stream: true`), and records every request.
 * Every request body is checked the way the API checks it before a step is used: against the testkit's own
 * description of the request (`responsesRequestSchema`, unless `checkRequestSchema` is false), against the
 * OpenAPI document when one is given (`openapiPath` / `requestValidator`), and by `checkRequestSemantics`; a
 * refused one gets the API's 400.
 * Each server holds its own state; close it with `close()`.
 * @throws {TestkitError} when `openapiPath` cannot be read or compiled (see `createRequestValidator`).
 */
export async function startTestModelServer(options: TestModelServerOptions = {}): Promise<TestModelServer> {
  const script = [...(options.script ?? [])];
  const requestValidator = options.requestValidator ?? (options.openapiPath === undefined ? undefined : createRequestValidator(options.openapiPath));
  const ownValidator = options.checkRequestSchema === false ? undefined : sharedResponsesRequestValidator();
  const requests: RecordedRequest[] = [];
  // Ids of the output items of responses served with `store` not false: what an item reference may name.
  const persistedItemIds = new Set<string>();
  // The context (input items and output) of each stored response, for `previous_response_id` and the context endpoints.
  const storedContexts: StoredContexts = new Map();
  const sockets = new Set<Socket>();
  const timers = new Set<() => void>();
  let nextStep = 0;
  let activeReplies = 0;

  const takeStep = async (request: RecordedRequest): Promise<StepReply | undefined> => {
    const stepIndex = nextStep;
    let step: ScriptStep | undefined = script[stepIndex];
    if (step === undefined) {
      if (options.onExhausted === undefined || options.onExhausted === 'error') return undefined;
      step = options.onExhausted;
    }
    nextStep += 1;
    if (typeof step !== 'function') return step;
    try {
      return await step(request, { index: stepIndex });
    } catch (error) {
      throw new TestkitError('step_failed', `testkit script step ${stepIndex} threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  };

  const handle = async (incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> => {
    const rawBody = await readBody(incoming);
    const parsed = rawBody === '' ? ({ ok: false } as const) : parseJson(rawBody);
    const path = incoming.url ?? '/';
    const recorded: RecordedRequest = {
      index: requests.length,
      method: incoming.method ?? 'GET',
      path,
      headers: headerRecord(incoming),
      body: parsed.ok ? parsed.value : undefined,
      rawBody,
    };
    requests.push(recorded);
    const pathname = path.split('?')[0];
    const contextEndpoint =
      recorded.method === 'POST' &&
      ((pathname === '/v1/responses/compact' && options.compactEndpoint !== false) || (pathname === '/v1/responses/input_tokens' && options.inputTokensEndpoint !== false));
    if ((pathname !== '/v1/responses' || recorded.method !== 'POST') && !contextEndpoint) {
      sendJson(outgoing, 404, { error: { message: `Invalid URL (${recorded.method} ${pathname})`, type: 'invalid_request_error', param: null, code: null } });
      return;
    }
    if (!parsed.ok) {
      sendInvalid(
        outgoing,
        invalidRequest('We could not parse the JSON body of your request. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.'),
      );
      return;
    }
    if (contextEndpoint) {
      const body = parsed.value as Record<string, unknown>;
      const invalid = checkRequestSemantics(body);
      const missing = invalid === undefined ? checkItemReferences(body, persistedItemIds) : undefined;
      if (invalid !== undefined || missing !== undefined) {
        sendJson(outgoing, invalid === undefined ? 404 : 400, invalid ?? missing, { 'x-should-retry': 'false' });
        return;
      }
      const answer = pathname === '/v1/responses/compact' ? answerCompact(body, storedContexts) : answerInputTokens(body, storedContexts);
      sendJson(outgoing, answer.status, answer.body, answer.status === 200 ? {} : { 'x-should-retry': 'false' });
      return;
    }
    const rejection = requestValidator?.validate(parsed.value) ?? ownValidator?.validate(parsed.value) ?? checkRequestSemantics(parsed.value);
    if (rejection !== undefined) {
      sendInvalid(outgoing, rejection);
      return;
    }
    const notFound = checkItemReferences(parsed.value, persistedItemIds);
    if (notFound !== undefined) {
      sendJson(outgoing, 404, notFound, { 'x-should-retry': 'false' });
      return;
    }
    const body = parsed.value as Record<string, unknown>;
    const context = contextItems(body, storedContexts);
    // An unknown `previous_response_id` is not refused here (scripts may name made-up ones): its context counts as empty.
    const contextList = 'items' in context ? context.items : inputItems(body.input);
    const contextTokens = estimateTokens(contextList) + estimateTokens(body.instructions);
    if (options.contextWindow !== undefined && contextTokens > options.contextWindow) {
      sendInvalid(outgoing, contextLengthExceeded());
      return;
    }
    let step: StepReply | undefined;
    try {
      step = await takeStep(recorded);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      sendJson(outgoing, 500, { error: { message, type: 'server_error', param: null, code: 'testkit_step_failed' } }, { 'x-should-retry': 'false' });
      return;
    }
    if (step === undefined) {
      sendInvalid(outgoing, invalidRequest(`testkit script exhausted after ${script.length} steps: request #${recorded.index} has no scripted reply. Add a step or set onExhausted.`, null, 'testkit_script_exhausted'));
      return;
    }
    const threshold = compactThreshold(body);
    const compacted = threshold !== undefined && contextTokens >= threshold && step.kind === 'response' && step.status !== 'failed';
    const served: StepReply = compacted && step.kind === 'response' ? { ...step, output: [compactionItem(contextList), ...step.output] } : step;
    activeReplies += 1;
    try {
      const sent = await serveStep(createExchange(outgoing, timers), served, body, options.model, options.contextWindow === undefined ? undefined : contextTokens);
      if (body.store !== false && served.cutAfterEvents === undefined) {
        for (const item of sent.output) if (typeof item.id === 'string') persistedItemIds.add(item.id);
        if (sent.responseId !== undefined) storedContexts.set(sent.responseId, compacted ? sent.output : [...contextList, ...sent.output]);
      }
    } finally {
      activeReplies -= 1;
    }
  };

  const server = createServer((incoming, outgoing) => {
    handle(incoming, outgoing).catch((error: unknown) => {
      if (!outgoing.headersSent && !outgoing.destroyed) {
        sendJson(outgoing, 500, { error: { message: `testkit failed: ${String(error)}`, type: 'server_error', param: null, code: 'testkit_internal' } }, { 'x-should-retry': 'false' });
      } else {
        outgoing.destroy();
      }
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new TestkitError('server_address_unknown', 'The test model server did not get a TCP port.');
  const url = `http://127.0.0.1:${address.port}`;
  let closing: Promise<void> | undefined;

  return {
    baseURL: `${url}/v1`,
    url,
    requests,
    get remaining() {
      return Math.max(0, script.length - nextStep);
    },
    get activeReplies() {
      return activeReplies;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const wake of [...timers]) wake();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
